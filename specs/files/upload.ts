/**
 * Helpers of the files specs: step 1 (signed upload instructions) with its secrets kept out of
 * every artifact, step 2 (the multipart POST to the returned url) recorded as an exchange, and
 * records of each entity_type to attach files to.
 *
 * The signed upload's `signature`, `policy` and `security_token` are secrets: they are registered
 * for redaction as soon as step 1 answers, and the recorded step-1 exchange is redacted again,
 * because `sample_curl` repeats them under a member name the redaction does not know.
 */
import type { SignedUpload, TargetProfile } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from '../support/core/http.js';
import type { Exchange } from '../support/core/recorder.js';
import { addSecret } from '../support/core/config.js';
import { REDACTED, redactHeaders, redactText, redactValue } from '../support/core/redact.js';
import type { Namespace } from '../support/fixtures/test.js';
import { make, opportunitiesToRelate } from '../support/make.js';

export const FILE_ENTITY_TYPES = ['leads', 'people', 'opportunities', 'companies', 'projects'] as const;
export type FileEntityType = (typeof FILE_ENTITY_TYPES)[number];

const SECRET_MEMBERS = ['policy', 'signature', 'security_token'] as const;
/** `name=value` pairs of secret form fields inside a curl line or a text. */
const SECRET_PAIRS = /((?:^|[\s"'&?-])(?:signature|policy|security_token|x-storage-security-token|x-amz-security-token)=)([^"'\s&]+)/gi;

function maskPairs(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(SECRET_PAIRS, `$1${REDACTED}`);
  if (Array.isArray(v)) return v.map(maskPairs);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskPairs(x)]));
  return v;
}

/** Registers the secrets of a step-1 answer and redacts the recorded exchange again. */
export function protectSignedUpload(res: ApiResponse): void {
  const body = (res.body as { body?: Record<string, unknown> } | undefined)?.body;
  if (body && typeof body === 'object') {
    for (const k of SECRET_MEMBERS) if (typeof body[k] === 'string') addSecret(body[k] as string);
  }
  res.exchange.responseBody = maskPairs(redactValue(res.exchange.responseBody));
}

/** Step 1: `GET /{entity_type}/{entity_id}/files/s3_signed_url`, secrets protected. */
export async function getSignedUpload(api: ApiClient, entityType: string, entityId: unknown): Promise<ApiResponse<SignedUpload>> {
  const res = await api.get<SignedUpload>(`/${entityType}/${encodeURIComponent(String(entityId))}/files/s3_signed_url`);
  protectSignedUpload(res);
  return res;
}

export interface Step2Result {
  status: number;
  headers: Record<string, string>;
  text: string;
  exchange: Exchange;
}

/**
 * How the multipart body is written. By default undici's FormData writes it; `handWritten` writes it by hand as other
 * clients do, within RFC 7578 / RFC 2046: `quotedBoundary`, the boundary parameter quoted (a boundary with a `:`,
 * which must be); `untypedFile`, the file part without a Content-Type header (optional, RFC 7578 §4.4).
 */
export interface Step2Form {
  handWritten?: { quotedBoundary?: boolean; untypedFile?: boolean };
}

/** A multipart/form-data body written by hand: the fields, then the file; its Content-Type header. */
function handWrittenForm(
  fields: [string, string][],
  file: { name: string; type: string; content: Buffer },
  how: NonNullable<Step2Form['handWritten']>,
): { contentType: string; body: Buffer } {
  // A `:` is a tspecial: a boundary with one must be quoted (RFC 2046 §5.1.1, RFC 2045 §5.1); without quotes, a plain token.
  const boundary = `crm-conformance${how.quotedBoundary ? ':' : '-'}${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of fields) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`, 'utf8'));
  const typeLine = how.untypedFile ? '' : `Content-Type: ${file.type}\r\n`;
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n${typeLine}\r\n`, 'utf8'));
  parts.push(file.content, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'));
  const param = how.quotedBoundary ? `"${boundary}"` : boundary;
  return { contentType: `multipart/form-data; boundary=${param}`, body: Buffer.concat(parts) };
}

/**
 * Step 2: a multipart/form-data POST to `url` with the form fields the spec lists, in its order,
 * and the file last; recorded (redacted) with the test's exchanges.
 */
export async function uploadStep2(
  api: ApiClient,
  signed: SignedUpload,
  file: { name: string; type: string; content: Buffer },
  how: Step2Form = {},
): Promise<Step2Result> {
  const b = signed.body;
  const fields: [string, string][] = [
    ['key', String(b.key)],
    ['signature', String(b.signature)],
    ['success_action_status', String(b.success_action_status)],
    ['acl', String(b.acl)],
    ['policy', String(b.policy)],
    ['storage_access_key_id', String(b.storage_access_key_id)],
    ['x-storage-security-token', String(b.security_token)],
  ];
  // Imported here, on first use: undici's fetch and FormData are not needed by every process that
  // loads this module (the runner listing the specs among them).
  const { FormData, fetch } = require('undici') as typeof import('undici');
  const written = how.handWritten ? handWrittenForm(fields, file, how.handWritten) : undefined;
  const form = new FormData();
  if (!written) {
    for (const [k, v] of fields) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(file.content)], { type: file.type }), file.name);
  }
  const fileType = how.handWritten?.untypedFile ? 'no Content-Type' : file.type;

  const shown = Object.fromEntries(fields.map(([k, v]) => [k, /signature|policy|token/.test(k) ? REDACTED : v]));
  const exchange: Exchange = {
    method: 'POST',
    url: redactText(signed.url),
    requestHeaders: { 'Content-Type': written?.contentType ?? 'multipart/form-data' },
    requestBody: redactValue({ ...shown, file: `(${file.content.length} bytes, ${file.name}, ${fileType})` }),
    status: 0,
    responseHeaders: {},
    durationMs: 0,
    curl: maskPairs(
      redactText(`curl -sS -X POST "${signed.url}" ${fields.map(([k, v]) => `-F "${k}=${v}"`).join(' ')} -F "file=@${file.name};type=${file.type}"`),
    ) as string,
  };
  api.recorder.exchanges.push(exchange);
  const started = Date.now();
  try {
    const res = await fetch(signed.url, {
      method: 'POST',
      ...(written ? { body: new Uint8Array(written.body), headers: { 'content-type': written.contentType } } : { body: form }),
      redirect: 'manual',
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    const headers = Object.fromEntries([...res.headers.entries()].map(([k, v]) => [k.toLowerCase(), v]));
    exchange.status = res.status;
    exchange.responseHeaders = redactHeaders(headers);
    exchange.responseBody = maskPairs(redactText(text.length > 2000 ? `${text.slice(0, 2000)}…` : text));
    exchange.durationMs = Date.now() - started;
    return { status: res.status, headers, text, exchange };
  } catch (err) {
    exchange.error = redactText(String((err as Error).cause ?? (err as Error).message).split('\n')[0]);
    exchange.durationMs = Date.now() - started;
    throw new Error(`step 2: POST ${exchange.url} got no answer: ${exchange.error}\n  replay: ${exchange.curl}`);
  }
}

/** A small text file unique to the test; `name`: its file name as a user has it (spaces, letters outside ASCII), else `<ns>.txt`. */
export const smallFile = (ns: Namespace, name = `${ns.id}.txt`) => ({
  name,
  type: 'text/plain',
  content: Buffer.from(`crm-conformance upload ${ns.id}\n`, 'utf8'),
});

/**
 * A record of `entityType` to attach files to, through the one record factory (make.ts): people,
 * companies and projects create; a Lead by an upsert that matches nothing; a fixture
 * opportunity of the profile when it lists one, else a one-entry bulk create. Returns its id.
 */
export async function recordOf(ctx: { api: ApiClient; ns: Namespace; profile: TargetProfile }, entityType: FileEntityType): Promise<unknown> {
  switch (entityType) {
    case 'people':
      return (await make.person(ctx)).id;
    case 'companies':
      return (await make.company(ctx)).id;
    case 'projects':
      return (await make.project(ctx)).id;
    case 'leads':
      return (await make.lead(ctx)).id;
    case 'opportunities':
      return (await opportunitiesToRelate(ctx, 1))[0].id;
  }
}
