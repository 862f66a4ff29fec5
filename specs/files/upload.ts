/**
 * Helpers of the files specs: step 1 (signed upload instructions) with its secrets kept out of
 * every artifact, step 2 (the multipart POST to the returned url) recorded as an exchange, and
 * records of each entity_type to attach files to.
 *
 * The signed upload's `signature`, `policy` and `security_token` are secrets: they are registered
 * for redaction as soon as step 1 answers, and the recorded step-1 exchange is redacted again,
 * because `sample_curl` repeats them under a member name the redaction does not know.
 */
import { FormData, fetch } from 'undici';
import type { Pipeline, SignedUpload, TargetProfile } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from '../support/core/http.js';
import type { Exchange } from '../support/core/recorder.js';
import { addSecret } from '../support/core/config.js';
import { REDACTED, redactHeaders, redactText, redactValue } from '../support/core/redact.js';
import { createCompany, createPerson, expectCreated } from '../support/records.js';
import { bulkCreate } from '../support/core/rate-limit.js';
import { expect, type Namespace } from '../support/fixtures/test.js';

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

export interface Step2Result { status: number; headers: Record<string, string>; text: string; exchange: Exchange }

/**
 * Step 2: a multipart/form-data POST to `url` with the form fields the spec lists, in its order,
 * and the file last; recorded (redacted) with the test's exchanges.
 */
export async function uploadStep2(api: ApiClient, signed: SignedUpload, file: { name: string; type: string; content: Buffer }): Promise<Step2Result> {
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
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file.content)], { type: file.type }), file.name);

  const shown = Object.fromEntries(fields.map(([k, v]) => [k, /signature|policy|token/.test(k) ? REDACTED : v]));
  const exchange: Exchange = {
    method: 'POST',
    url: redactText(signed.url),
    requestHeaders: { 'Content-Type': 'multipart/form-data' },
    requestBody: redactValue({ ...shown, file: `(${file.content.length} bytes, ${file.name}, ${file.type})` }),
    status: 0,
    responseHeaders: {},
    durationMs: 0,
    curl: maskPairs(redactText(`curl -sS -X POST "${signed.url}" ${fields.map(([k, v]) => `-F "${k}=${v}"`).join(' ')} -F "file=@${file.name};type=${file.type}"`)) as string,
  };
  api.recorder.exchanges.push(exchange);
  const started = Date.now();
  try {
    const res = await fetch(signed.url, { method: 'POST', body: form, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
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

/** A small text file unique to the test. */
export const smallFile = (ns: Namespace) => ({ name: `${ns.id}.txt`, type: 'text/plain', content: Buffer.from(`crm-conformance upload ${ns.id}\n`, 'utf8') });

/**
 * Creates a record of `entityType` through the spec's own endpoints (people, companies and
 * projects create; lead upsert with a new name; a one-entry opportunity bulk create, unless the
 * profile lists a fixture opportunity) and returns its id. Records carry the test's tags.
 */
export async function recordOf(api: ApiClient, ns: Namespace, entityType: FileEntityType, profile?: TargetProfile): Promise<unknown> {
  switch (entityType) {
    case 'people':
      return (await createPerson(api, ns)).id;
    case 'companies':
      return (await createCompany(api, ns)).id;
    case 'projects': {
      const res = await api.post<{ id: unknown }>('/projects', { name: ns.name('project'), tags: ns.tags });
      expectCreated(res, 'Project');
      return res.body.id;
    }
    case 'leads': {
      const name = ns.name('lead');
      const res = await api.put<{ id: unknown }>('/leads/upsert', { properties: { name, tags: ns.tags }, match: { field_name: 'name', field_value: name } });
      expectCreated(res, 'Lead');
      return res.body.id;
    }
    case 'opportunities': {
      // A fixture opportunity of the profile when there is one: a new one takes a bulk call.
      const fixture = profile?.fixtures.opportunities[0];
      if (fixture) return fixture.id;
      const pipelines = await api.get<Pipeline[]>('/pipelines');
      expect(pipelines).toHaveStatus(200);
      const pipeline = (Array.isArray(pipelines.body) ? pipelines.body : []).find((p) => p.type === 'opportunity');
      expect(pipeline, 'an opportunity pipeline exists to create an Opportunity in').toBeTruthy();
      const contact = await createPerson(api, ns);
      const res = await bulkCreate<Record<string, unknown>[]>(api, {
        opportunities: [{ name: ns.name('opportunity'), tags: ns.tags, pipeline_id: pipeline!.id, primary_contact_id: contact.id }],
      });
      expect(res, 'a one-entry bulk create of an Opportunity').not.toBeRefused();
      const entry = Array.isArray(res.body) ? res.body[0] : undefined;
      expect(entry && entry.id !== undefined && entry.id !== null, `the Opportunity is created: ${JSON.stringify(entry)}`).toBe(true);
      return entry!.id;
    }
  }
}
