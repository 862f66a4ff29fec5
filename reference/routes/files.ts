/**
 * Files (spec § Files): signed upload instructions (step 1 of 3), the step-2 upload endpoint
 * they point to, and attached file metadata.
 *
 * - `GET /{entity_type}/{entity_id}/files/s3_signed_url`: `entity_type` is one of leads, people,
 *   opportunities, companies, projects and the record must exist. The answer is S3-like: `policy`
 *   (base64 JSON with expiry and conditions), `signature` (HMAC-SHA256 of the policy with a key of
 *   this server run), `security_token` (random, per issue), `key`, `acl`, `success_action_status`.
 * - Step 2 (a `root` route, unauthenticated like S3): `POST /_storage/upload` (variant:
 *   `/_storage/buckets/reference-attachments`), multipart/form-data with `key`, `signature`,
 *   `success_action_status`, `acl`, `policy`, `storage_access_key_id`, `x-storage-security-token`
 *   and `file` (last). Every field must match what step 1 issued; the answer has the status of
 *   `success_action_status`: 201 with an XML PostResponse (variant: 204, empty).
 * - `GET /{entity_type}/{entity_id}/files/{file_id}`: metadata of a file attached to that record.
 *   Seeded: file 501 attached to company 401 (reference/profile.json); step 3 (attaching an
 *   upload) is "not shown", so uploads are kept but never attached.
 *
 * Refusals whose status the spec does not show: unknown entity_type 404 (variant 400),
 * non-numeric id 400 (variant 404), missing record or file 404.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { App, AreaModule } from '../app.js';
import { HttpError } from '../http.js';
import { C, type Rec } from '../model.js';
import { notFound } from './common.js';

export const FILE_ENTITY_TYPES = ['leads', 'people', 'opportunities', 'companies', 'projects'] as const;
const BUCKET = 'reference-attachments';
const MAX_UPLOAD = 1024 * 1024;
const POLICY_LIFETIME_S = 3600;

interface Issued {
  key: string;
  policy: string;
  token: string;
  acl: string;
  status: string;
  accessKeyId: string;
  expires: number;
  entity: { type: string; id: number };
}

interface FilesState {
  signingKey: Buffer;
  accessKeyId: string;
  issued: Map<string, Issued>;
  uploads: Map<string, { file_name: string; content_type: string; size: number; entity: Issued['entity'] }>;
}

const states = new WeakMap<App, FilesState>();
function state(app: App): FilesState {
  let s = states.get(app);
  if (!s) {
    s = { signingKey: randomBytes(32), accessKeyId: `REFAK${randomBytes(8).toString('hex').toUpperCase()}`, issued: new Map(), uploads: new Map() };
    states.set(app, s);
  }
  return s;
}

const sign = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function refuse(app: App, status: number, variantStatus: number, message: string): never {
  if (app.variant) throw new HttpError(variantStatus, { errors: [{ detail: message }] });
  throw new HttpError(status, { success: false, status, message });
}

function entityType(app: App, raw: string): string {
  const allowed: readonly string[] = app.fault('signed-upload-projects-refused') ? FILE_ENTITY_TYPES.filter((t) => t !== 'projects') : FILE_ENTITY_TYPES;
  if (app.fault('files-entity-type-unchecked') || allowed.includes(raw)) return raw;
  return refuse(app, 404, 400, `unknown entity_type "${raw}"; one of ${allowed.join(', ')}`);
}

function numericParam(app: App, raw: string, what: string): number {
  if (app.fault('files-id-parseint')) {
    const n = parseInt(raw, 10);
    if (!Number.isNaN(n)) return n;
  }
  if (!/^\d+$/.test(raw)) refuse(app, 400, 404, `${what} must be a number`);
  return Number(raw);
}

/** The record of the path must exist (collections of the other areas). */
function entityRecord(app: App, type: string, id: number): Rec | undefined {
  const collection = (C as Record<string, string>)[type];
  return collection ? app.store.collection<Rec>(collection).get(id) : undefined;
}

/** A multipart/form-data body → fields and files. */
export function parseMultipart(raw: Buffer, contentType: string): { fields: Record<string, string>; files: Record<string, { filename: string; contentType: string; data: Buffer }> } {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) throw new HttpError(400, { success: false, status: 400, message: 'multipart/form-data without boundary' });
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const fields: Record<string, string> = {};
  const files: Record<string, { filename: string; contentType: string; data: Buffer }> = {};
  let pos = raw.indexOf(boundary);
  if (pos < 0) throw new HttpError(400, { success: false, status: 400, message: 'malformed multipart body' });
  while (true) {
    pos += boundary.length;
    if (raw.subarray(pos, pos + 2).toString() === '--') break;
    if (raw.subarray(pos, pos + 2).toString() === '\r\n') pos += 2;
    const headEnd = raw.indexOf('\r\n\r\n', pos);
    const next = raw.indexOf(boundary, pos);
    if (headEnd < 0 || next < 0 || headEnd > next) throw new HttpError(400, { success: false, status: 400, message: 'malformed multipart body' });
    const head = raw.subarray(pos, headEnd).toString('utf8');
    let data = raw.subarray(headEnd + 4, next);
    if (data.subarray(-2).toString() === '\r\n') data = data.subarray(0, -2);
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    if (name !== undefined) {
      if (filename !== undefined) files[name] = { filename, contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream', data: Buffer.from(data) };
      else fields[name] = data.toString('utf8');
    }
    pos = next;
  }
  return { fields, files };
}

const xml = (status: number, body: string) => ({ status, raw: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`, headers: { 'content-type': 'application/xml' } });
const s3Error = (status: number, code: string, message: string) => xml(status, `<Error><Code>${code}</Code><Message>${message}</Message></Error>`);

export const files: AreaModule = {
  name: 'files',
  faults: [
    { name: 'signed-upload-token-missing', rules: ['FILE-1'], description: 'the signed upload body has no security_token' },
    { name: 'signed-upload-projects-refused', rules: ['FILE-2'], description: 'signed uploads are refused for entity_type projects (missing from the list of types)' },
    { name: 'upload-rejects-file', rules: ['FILE-3', 'FILE-4'], description: 'step 2 checks the signature against the key instead of the policy and refuses every upload (403 SignatureDoesNotMatch)' },
    { name: 'upload-status-200', rules: ['FILE-4'], description: 'step 2 answers 200 whatever success_action_status says' },
    { name: 'file-size-string', rules: ['FILE-5'], description: 'file metadata carries file_size as a string' },
    { name: 'files-entity-type-unchecked', rules: ['FILE-6'], description: 'any entity_type is accepted on the files endpoints' },
    { name: 'files-id-parseint', rules: ['FILE-7'], description: 'ids of the files endpoints are read with parseInt, so "401abc" is taken as 401' },
  ],
  seed(app) {
    const t = app.now() - 40 * 86_400 * (app.fault('timestamps-in-ms') ? 1000 : 1);
    app.store.collection<Rec>(C.files).insert({
      id: 501, _entity_type: 'companies', _entity_id: 401, is_deleted: false, file_name: 'service-agreement.pdf', file_size: 48_213,
      content_type: 'application/pdf', creator_id: 12, date_created: t, date_modified: t,
    });
  },
  api(router, app) {
    const files = app.store.collection<Rec>(C.files);

    router.add('GET', '/{entity_type}/{entity_id}/files/s3_signed_url', (ctx) => {
      const type = entityType(app, ctx.params.entity_type);
      const id = numericParam(app, ctx.params.entity_id, 'entity_id');
      if (!entityRecord(app, type, id) && !app.fault('files-entity-type-unchecked')) notFound(`${type} ${id}`);
      const st = state(app);
      const key = `attachments/${type}/${id}/${randomUUID()}`;
      const acl = app.variant ? 'bucket-owner-full-control' : 'private';
      const status = app.variant ? '204' : '201';
      const token = randomBytes(24).toString('base64url');
      const expires = Date.now() + POLICY_LIFETIME_S * 1000;
      const policy = Buffer.from(JSON.stringify({
        expiration: new Date(expires).toISOString(),
        conditions: [{ bucket: BUCKET }, { key }, { acl }, { success_action_status: status }, { 'x-storage-security-token': token }, ['content-length-range', 0, MAX_UPLOAD]],
      })).toString('base64');
      const signature = sign(st.signingKey, policy);
      st.issued.set(key, { key, policy, token, acl, status, accessKeyId: st.accessKeyId, expires, entity: { type, id } });
      const url = `${app.publicBaseUrl}${app.variant ? `/_storage/buckets/${BUCKET}` : '/_storage/upload'}`;
      const body: Record<string, unknown> = {
        policy, signature, storage_access_key_id: st.accessKeyId, security_token: token, key, acl,
        success_action_status: app.variant ? Number(status) : status,
      };
      if (app.fault('signed-upload-token-missing')) delete body.security_token;
      const form = [['key', key], ['acl', acl], ['success_action_status', status], ['policy', policy], ['storage_access_key_id', st.accessKeyId], ['signature', signature]];
      if (body.security_token) form.push(['x-storage-security-token', token]);
      const sampleCurl = `curl -X POST ${url} ${form.map(([k, v]) => `-F "${k}=${v}"`).join(' ')} -F "file=@./your-file.pdf"`;
      return { method: 'POST', url, body, sample_curl: sampleCurl, ...(app.variant ? { expires_in: POLICY_LIFETIME_S } : {}) };
    });

    router.add('GET', '/{entity_type}/{entity_id}/files/{file_id}', (ctx) => {
      const type = entityType(app, ctx.params.entity_type);
      const entityId = numericParam(app, ctx.params.entity_id, 'entity_id');
      const fileId = numericParam(app, ctx.params.file_id, 'file_id');
      const file = files.get(fileId);
      const attached = file && (app.fault('files-entity-type-unchecked') || (file._entity_type === type && file._entity_id === entityId));
      if (!file || !attached) return notFound('file');
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(file)) if (!k.startsWith('_')) out[k] = v;
      if (app.fault('file-size-string')) out.file_size = String(out.file_size);
      if (app.variant) out.conformance_variant_extra = true;
      return out;
    });
  },
  root(router, app) {
    router.add('POST', app.variant ? `/_storage/buckets/${BUCKET}` : '/_storage/upload', (ctx) => {
      const type = String(ctx.headers['content-type'] ?? '');
      if (!/^multipart\/form-data/i.test(type)) return s3Error(400, 'InvalidRequest', 'the upload is a multipart/form-data POST');
      const { fields, files: parts } = parseMultipart(ctx.rawBody, type);
      const required = ['key', 'signature', 'success_action_status', 'acl', 'policy', 'storage_access_key_id', 'x-storage-security-token'];
      const missing = required.filter((f) => fields[f] === undefined);
      if (missing.length) return s3Error(400, 'InvalidArgument', `missing form fields: ${missing.join(', ')}`);
      const st = state(app);
      const issued = st.issued.get(fields.key);
      if (!issued) return s3Error(403, 'AccessDenied', 'no upload was signed for this key');
      if (Date.now() > issued.expires) return s3Error(403, 'AccessDenied', 'the policy has expired');
      const signed = app.fault('upload-rejects-file') ? fields.key : fields.policy;
      if (!same(fields.policy, issued.policy) || !same(fields.signature, sign(st.signingKey, signed))) return s3Error(403, 'SignatureDoesNotMatch', 'the signature does not match the policy');
      if (!same(fields['x-storage-security-token'], issued.token)) return s3Error(403, 'InvalidToken', 'the security token does not match');
      if (fields.storage_access_key_id !== issued.accessKeyId) return s3Error(403, 'InvalidAccessKeyId', 'unknown access key id');
      if (fields.acl !== issued.acl || fields.success_action_status !== issued.status) return s3Error(403, 'AccessDenied', 'a form field does not satisfy the policy conditions');
      const file = parts.file;
      if (!file) return s3Error(400, 'InvalidArgument', 'the form has no file');
      if (file.data.length > MAX_UPLOAD) return s3Error(400, 'EntityTooLarge', `the file is larger than ${MAX_UPLOAD} bytes`);
      st.uploads.set(issued.key, { file_name: file.filename, content_type: file.contentType, size: file.data.length, entity: issued.entity });
      const status = app.fault('upload-status-200') ? 200 : Number(issued.status);
      if (status === 201) {
        const location = `${app.publicBaseUrl}/_storage/${BUCKET}/${encodeURI(issued.key)}`;
        return xml(201, `<PostResponse><Location>${location}</Location><Bucket>${BUCKET}</Bucket><Key>${issued.key}</Key><ETag>"${randomBytes(16).toString('hex')}"</ETag></PostResponse>`);
      }
      return { status, raw: '' };
    });
  },
};

