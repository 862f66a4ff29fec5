/**
 * Files (spec § Files): signed upload instructions (step 1 of 3), the step-2 upload endpoint
 * they point to, and attached file metadata.
 *
 * - `GET /{entity_type}/{entity_id}/files/s3_signed_url`: `entity_type` is one of leads, people,
 *   opportunities, companies, projects and the record must exist. The answer is S3-like: `policy`
 *   (base64 JSON with expiry and conditions), `signature` (HMAC-SHA256 of the policy with a key of
 *   this server run), `security_token` (random, per issue), `key`, `acl`, `success_action_status`.
 * - Step 2 (a `root` route, unauthenticated like S3): `POST /_storage/upload` or
 *   `/_storage/buckets/reference-attachments` (`files.upload-url`), multipart/form-data with `key`,
 *   `signature`, `success_action_status`, `acl`, `policy`, `storage_access_key_id`,
 *   `x-storage-security-token` and `file` (last). Every field must match what step 1 issued; the
 *   answer has the status of `success_action_status`: 201 with an XML PostResponse or 204, empty
 *   (`files.step2-answer`). `acl` and the type of `success_action_status`: `files.acl`,
 *   `files.success-action-status-type`; `expires_in` and an extra metadata member under
 *   `general.extra-fields`.
 * - `GET /{entity_type}/{entity_id}/files/{file_id}`: metadata of a file attached to that record.
 *   Seeded: file 501 attached to company 401 (reference/profile.json); step 3 (attaching an
 *   upload) is "not shown", so uploads are kept but never attached.
 *
 * Refusals whose status the spec does not show (`files.refusal-status`, body `errors.body`):
 * unknown entity_type 404 or 400, non-numeric id 400 or 404; missing record or file 404.
 * Faults: reference/faults/files.ts (hook points `files.*`).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { App, AreaModule } from '../app.js';
import { HttpError } from '../http.js';
import { C, type Rec } from '../model.js';
import { FIXTURES } from '../profile.js';
import { nowSeconds } from '../store.js';
import { missing, refusal } from './common.js';

export const FILE_ENTITY_TYPES = ['leads', 'people', 'opportunities', 'companies', 'projects'] as const;
export const BUCKET = 'reference-attachments';
/** Largest file step 2 takes (`files.max-upload`). */
const MAX_UPLOAD: Record<string, number> = { '1-mib': 1024 * 1024, '4-mib': 4 * 1024 * 1024 };
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

/** An unknown entity_type or a non-numeric id (`files.refusal-status`). */
function refuse(app: App, what: 'type' | 'id', message: string): never {
  const typeFirst = app.choice('files.refusal-status') === 'type-404-id-400';
  throw refusal(app, what === 'type' ? (typeFirst ? 404 : 400) : typeFirst ? 400 : 404, message);
}

function entityType(app: App, raw: string): string {
  if (app.at('files.entity-type-known', (FILE_ENTITY_TYPES as readonly string[]).includes(raw), { type: raw })) return raw;
  return refuse(app, 'type', `unknown entity_type "${raw}"; one of ${FILE_ENTITY_TYPES.join(', ')}`);
}

function numericParam(app: App, raw: string, what: string): number {
  return app.at('files.id', /^\d+$/.test(raw) ? Number(raw) : undefined, { raw }) ?? refuse(app, 'id', `${what} must be a number`);
}

/** The path of step 2 (`files.upload-url`). */
export const uploadPath = (app: App) => (app.choice('files.upload-url') === 'bucket-path' ? `/_storage/buckets/${BUCKET}` : '/_storage/upload');
/** The URL of step 2: the path, with a query string under `files.upload-url` = query-string. */
const uploadUrl = (app: App) => `${app.publicBaseUrl}${uploadPath(app)}${app.choice('files.upload-url') === 'query-string' ? `?bucket=${BUCKET}` : ''}`;

/** The record of the path must exist (collections of the other areas). */
function entityRecord(app: App, type: string, id: number): Rec | undefined {
  const collection = (C as Record<string, string>)[type];
  return collection ? app.store.collection<Rec>(collection).get(id) : undefined;
}

/** A multipart/form-data body → fields and files. */
export function parseMultipart(
  raw: Buffer,
  contentType: string,
): { fields: Record<string, string>; files: Record<string, { filename: string; contentType: string; data: Buffer }> } {
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
      if (filename !== undefined)
        files[name] = { filename, contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream', data: Buffer.from(data) };
      else fields[name] = data.toString('utf8');
    }
    pos = next;
  }
  return { fields, files };
}

const xml = (status: number, body: string) => ({
  status,
  raw: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
  headers: { 'content-type': 'application/xml' },
});
const s3Error = (status: number, code: string, message: string) => xml(status, `<Error><Code>${code}</Code><Message>${message}</Message></Error>`);

export const files: AreaModule = {
  name: 'files',
  seed(app) {
    const t = app.at('clock.now', nowSeconds() - 40 * 86_400, undefined);
    const file = FIXTURES.attached_file;
    app.store.collection<Rec>(C.files).insert({
      id: file.file_id,
      _entity_type: file.entity_type,
      _entity_id: file.entity_id,
      is_deleted: false,
      file_name: 'service-agreement.pdf',
      file_size: 48_213,
      content_type: 'application/pdf',
      creator_id: FIXTURES.users[1].id,
      date_created: t,
      date_modified: t,
    });
  },
  api(router, app) {
    const files = app.store.collection<Rec>(C.files);
    const extra = app.choice('general.extra-fields') === 'extra-members';
    const acl = app.choice('files.acl');
    const status = app.choice('files.step2-answer') === '204-empty' ? '204' : '201';
    const maxUpload = MAX_UPLOAD[app.choice('files.max-upload')];

    router.add('GET', '/{entity_type}/{entity_id}/files/s3_signed_url', (ctx) => {
      const type = entityType(app, ctx.params.entity_type);
      const id = numericParam(app, ctx.params.entity_id, 'entity_id');
      if (!app.at('files.record-found', !!entityRecord(app, type, id), undefined)) missing(app, `${type} ${id}`);
      const st = state(app);
      const key = `attachments/${type}/${id}/${randomUUID()}`;
      const token = randomBytes(24).toString('base64url');
      const expires = Date.now() + POLICY_LIFETIME_S * 1000;
      const policy = Buffer.from(
        JSON.stringify({
          expiration: new Date(expires).toISOString(),
          conditions: [
            { bucket: BUCKET },
            { key },
            { acl },
            { success_action_status: status },
            { 'x-storage-security-token': token },
            ['content-length-range', 0, maxUpload],
          ],
        }),
      ).toString('base64');
      const signature = sign(st.signingKey, policy);
      st.issued.set(key, { key, policy, token, acl, status, accessKeyId: st.accessKeyId, expires, entity: { type, id } });
      const url = uploadUrl(app);
      const body: Record<string, unknown> = {
        policy,
        signature,
        storage_access_key_id: st.accessKeyId,
        security_token: token,
        key,
        acl,
        success_action_status: app.choice('files.success-action-status-type') === 'number' ? Number(status) : status,
      };
      const form = [
        ['key', key],
        ['acl', acl],
        ['success_action_status', status],
        ['policy', policy],
        ['storage_access_key_id', st.accessKeyId],
        ['signature', signature],
        ['x-storage-security-token', token],
      ];
      const sampleCurl = `curl -X POST ${url} ${form.map(([k, v]) => `-F "${k}=${v}"`).join(' ')} -F "file=@./your-file.pdf"`;
      return { method: 'POST', url, body, sample_curl: sampleCurl, ...(extra ? { expires_in: POLICY_LIFETIME_S } : {}) };
    });

    router.add('GET', '/{entity_type}/{entity_id}/files/{file_id}', (ctx) => {
      const type = entityType(app, ctx.params.entity_type);
      const entityId = numericParam(app, ctx.params.entity_id, 'entity_id');
      const fileId = numericParam(app, ctx.params.file_id, 'file_id');
      const file = files.get(fileId);
      if (!file || !app.at('files.attached', file._entity_type === type && file._entity_id === entityId, undefined)) return missing(app, 'file');
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(file)) if (!k.startsWith('_')) out[k] = v;
      if (extra) out.conformance_variant_extra = true;
      return out;
    });
  },
  root(router, app) {
    const maxUpload = MAX_UPLOAD[app.choice('files.max-upload')];
    router.add('POST', uploadPath(app), (ctx) => {
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
      const signed = app.at('files.signed-text', fields.policy, { key: fields.key });
      if (!same(fields.policy, issued.policy) || !same(fields.signature, sign(st.signingKey, signed)))
        return s3Error(403, 'SignatureDoesNotMatch', 'the signature does not match the policy');
      if (!same(fields['x-storage-security-token'], issued.token)) return s3Error(403, 'InvalidToken', 'the security token does not match');
      if (fields.storage_access_key_id !== issued.accessKeyId) return s3Error(403, 'InvalidAccessKeyId', 'unknown access key id');
      if (fields.acl !== issued.acl || fields.success_action_status !== issued.status)
        return s3Error(403, 'AccessDenied', 'a form field does not satisfy the policy conditions');
      const file = parts.file;
      if (!file) return s3Error(400, 'InvalidArgument', 'the form has no file');
      if (file.data.length > maxUpload) return s3Error(400, 'EntityTooLarge', `the file is larger than ${maxUpload} bytes`);
      st.uploads.set(issued.key, { file_name: file.filename, content_type: file.contentType, size: file.data.length, entity: issued.entity });
      if (issued.status === '201') {
        const location = `${app.publicBaseUrl}/_storage/${BUCKET}/${encodeURI(issued.key)}`;
        return xml(
          201,
          `<PostResponse><Location>${location}</Location><Bucket>${BUCKET}</Bucket><Key>${issued.key}</Key><ETag>"${randomBytes(16).toString('hex')}"</ETag></PostResponse>`,
        );
      }
      return { status: Number(issued.status), raw: '' };
    });
  },
};
