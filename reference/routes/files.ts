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
// Stryker disable next-line StringLiteral: the bucket's name is the reference's own (step 2's url and policy are opaque to the client; files.upload-url)
export const BUCKET = 'reference-attachments';
/** Largest file step 2 takes (`files.max-upload`). */
// Emptied, step 2 takes a file of any size: the limit is not shown ("Maximum upload size | file attachments | not shown").
// Stryker disable next-line ObjectLiteral: the same
const MAX_UPLOAD: Record<string, number> = {
  '1-mib': 1024 * 1024,
  // The 4-mib alternative only (files.max-upload), which a mutation run (default choices) never takes: made 4 bytes,
  // FILE-3's small file is refused under it (REFERENCE_CHOICES=files.max-upload=4-mib; checked by hand).
  // Stryker disable next-line ArithmeticOperator: the other alternative's limit (above)
  '4-mib': 4 * 1024 * 1024,
};
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
    const keyHex = randomBytes(8).toString('hex');
    // Stryker disable next-line StringLiteral,MethodExpression: the access key id's value is the reference's own (step 2 takes back what step 1 gave)
    const accessKeyId = `REFAK${keyHex.toUpperCase()}`;
    s = { signingKey: randomBytes(32), accessKeyId, issued: new Map(), uploads: new Map() };
    states.set(app, s);
  }
  return s;
}

const sign = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64');
// Step 2's check of the signed form is the reference's own: the refusal of a forged or altered form is not shown (only
// what step 2 takes as instructed, FILE-3). Made false, every upload is refused, which FILE-3 catches (checked by hand):
// StrykerJS disables both or neither.
// Stryker disable next-line ConditionalExpression,LogicalOperator: a comparison loosened (above)
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** An unknown entity_type or a non-numeric id (`files.refusal-status`). */
// Stryker disable next-line BlockStatement: emptied, the unknown type or id finds no record and is refused 404 below (a status of files.refusal-status)
function refuse(app: App, what: 'type' | 'id', message: string): never {
  const typeFirst = app.choice('files.refusal-status') === 'type-404-id-400';
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: 404 and 400 swapped, the other alternative of files.refusal-status
  throw refusal(app, what === 'type' ? (typeFirst ? 404 : 400) : typeFirst ? 400 : 404, message);
}

function entityType(app: App, raw: string): string {
  if (app.at('files.entity-type-known', (FILE_ENTITY_TYPES as readonly string[]).includes(raw), { type: raw })) return raw;
  // Stryker disable next-line StringLiteral: refused with the id's status, the other alternative of files.refusal-status
  return refuse(app, 'type', `unknown entity_type "${raw}"; one of ${FILE_ENTITY_TYPES.join(', ')}`);
}

function numericParam(app: App, raw: string, what: string): number {
  // An anchor dropped: a path segment Number() still reads ('+12', ' 12', '12.') is taken as that number, any other finds
  // no record and is refused 404: how a number may be spelled in a path is not stated. 'id' emptied is the id's status
  // still (only 'type' differs); the hook's argument is unused with no fault on.
  // Stryker disable next-line Regex,ObjectLiteral,StringLiteral: the same (above)
  return app.at('files.id', /^\d+$/.test(raw) ? Number(raw) : undefined, { raw }) ?? refuse(app, 'id', `${what} must be a number`);
}

/** The path of step 2 (`files.upload-url`). */
// Stryker disable next-line StringLiteral: the path of step 2 is the reference's own: the client posts to the url step 1 answers (files.upload-url)
export const uploadPath = (app: App) => (app.choice('files.upload-url') === 'bucket-path' ? `/_storage/buckets/${BUCKET}` : '/_storage/upload');
/** The URL of step 2: the path, with a query string under `files.upload-url` = query-string. */
const uploadUrl = (app: App) => `${app.publicBaseUrl}${uploadPath(app)}${app.choice('files.upload-url') === 'query-string' ? `?bucket=${BUCKET}` : ''}`;

/** The record of the path must exist (collections of the other areas). */
function entityRecord(app: App, type: string, id: number): Rec | undefined {
  const collection = (C as Record<string, string>)[type];
  return collection ? app.store.collection<Rec>(collection).get(id) : undefined;
}

/**
 * A multipart/form-data body → fields and files. What the spec fixes of step 2 is that it takes a multipart form POST
 * with the listed fields and a file (FILE-3, also as other clients write it: a quoted boundary, a file part without
 * Content-Type). Its answer to a malformed body is not shown: the checks of a malformed body below are the reference's own.
 */
export function parseMultipart(
  raw: Buffer,
  contentType: string,
): { fields: Record<string, string>; files: Record<string, { filename: string; contentType: string; data: Buffer }> } {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  // Made true, every upload is refused, which FILE-3 catches (checked by hand): StrykerJS disables both or neither.
  // Stryker disable next-line ConditionalExpression,ObjectLiteral,BooleanLiteral,CallExpression: a malformed body (above)
  if (!m) throw new HttpError(400, { success: false, status: 400, message: 'multipart/form-data without boundary' });
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const fields: Record<string, string> = {};
  const files: Record<string, { filename: string; contentType: string; data: Buffer }> = {};
  let pos = raw.indexOf(boundary);
  // Made true, every upload is refused, which FILE-3 catches (checked by hand): StrykerJS disables both or neither.
  // Stryker disable next-line ConditionalExpression,ObjectLiteral,BooleanLiteral,CallExpression: a malformed body (above)
  if (pos < 0) throw new HttpError(400, { success: false, status: 400, message: 'malformed multipart body' });
  while (true) {
    pos += boundary.length;
    if (raw.subarray(pos, pos + 2).toString() === '--') break;
    // The CRLF after a delimiter skipped or kept in the part's head (or two bytes of the delimiter with it): the head's
    // fields read the same, and a well-formed body always has the CRLF.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator,StringLiteral,AssignmentOperator: the same (above)
    if (raw.subarray(pos, pos + 2).toString() === '\r\n') pos += 2;
    const headEnd = raw.indexOf('\r\n\r\n', pos);
    const next = raw.indexOf(boundary, pos);
    // A malformed body only (a well-formed part has a head, ends before the next delimiter, and no offset is 0 there).
    // Made true (or a comparison reversed), every upload is refused, which FILE-3 catches (checked by hand): StrykerJS
    // disables both or neither.
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ObjectLiteral,BooleanLiteral,CallExpression: the same (above)
    if (headEnd < 0 || next < 0 || headEnd > next) throw new HttpError(400, { success: false, status: 400, message: 'malformed multipart body' });
    const head = raw.subarray(pos, headEnd).toString('utf8');
    let data = raw.subarray(headEnd + 4, next);
    // Made true: a well-formed part always ends with the CRLF before the delimiter. Made false, every field keeps its CRLF
    // and step 2 refuses the form, which FILE-3 catches (checked by hand): StrykerJS disables both or neither.
    // Stryker disable next-line ConditionalExpression: the same (above)
    if (data.subarray(-2).toString() === '\r\n') data = data.subarray(0, -2);
    // A part without Content-Disposition or without a name is malformed (RFC 7578 §4.2): not shown.
    // Stryker disable next-line OptionalChaining,StringLiteral: the same (above)
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
    // Stryker disable next-line OptionalChaining: the same (above)
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    // Made false, no field is read, which FILE-3 catches (checked by hand): StrykerJS disables both or neither.
    // Stryker disable next-line ConditionalExpression: made true, a part without a name (malformed: above)
    if (name !== undefined) {
      if (filename !== undefined) {
        // The file's content type is kept with the upload, which nothing shows (step 3, attaching it, is not shown). A
        // file part without Content-Type is taken: `exec(head)?.` made `exec(head).` fails FILE-3 (checked by hand).
        // (`[1]` needs no `?.`: the group is not optional.)
        // Stryker disable next-line Regex,MethodExpression,LogicalOperator,StringLiteral: the same (above)
        const partType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1].trim() ?? 'application/octet-stream';
        files[name] = { filename, contentType: partType, data: Buffer.from(data) };
      } else fields[name] = data.toString('utf8');
    }
    pos = next;
  }
  return { fields, files };
}

// Step 2's answer body, its content type and its refusals are not shown ("the response to step 2: not shown").
const xml = (status: number, body: string) => ({
  status,
  // Stryker disable next-line StringLiteral: the body of step 2's answer (above)
  raw: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
  // Stryker disable next-line ObjectLiteral,StringLiteral: the same
  headers: { 'content-type': 'application/xml' },
});
// Stryker disable next-line ArrowFunction,StringLiteral: step 2's refusals (above)
const s3Error = (status: number, code: string, message: string) => xml(status, `<Error><Code>${code}</Code><Message>${message}</Message></Error>`);

export const files: AreaModule = {
  name: 'files',
  seed(app) {
    const age = 40 * 86_400;
    // Stryker disable next-line ArithmeticOperator: seed data (when the seeded file was attached is the account's; no rule fixes it)
    const t = app.at('clock.now', nowSeconds() - age, undefined);
    const file = FIXTURES.attached_file;
    app.store.collection<Rec>(C.files).insert({
      id: file.file_id,
      _entity_type: file.entity_type,
      _entity_id: file.entity_id,
      // Stryker disable next-line BooleanLiteral: seed data (the account's file; the contract takes either)
      is_deleted: false,
      // Stryker disable next-line StringLiteral: seed data (the same)
      file_name: 'service-agreement.pdf',
      file_size: 48_213,
      // Stryker disable next-line StringLiteral: seed data (the same)
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
    // Stryker disable next-line StringLiteral: the choice's id emptied, the policy's content-length-range has no number: the policy is the reference's own
    const maxUpload = MAX_UPLOAD[app.choice('files.max-upload')];

    router.add('GET', '/{entity_type}/{entity_id}/files/s3_signed_url', (ctx) => {
      const type = entityType(app, ctx.params.entity_type);
      const id = numericParam(app, ctx.params.entity_id, 'entity_id');
      if (!app.at('files.record-found', !!entityRecord(app, type, id), undefined)) missing(app, `${type} ${id}`);
      const st = state(app);
      // Stryker disable next-line StringLiteral: the key's value is the reference's own (step 2 takes back what step 1 gave)
      const key = `attachments/${type}/${id}/${randomUUID()}`;
      const token = randomBytes(24).toString('base64url');
      const expires = Date.now() + POLICY_LIFETIME_S * 1000;
      // The policy's content: the reference signs it and checks it against itself; to the client it is opaque.
      const policy = Buffer.from(
        // Stryker disable ObjectLiteral,ArrayDeclaration,StringLiteral: the policy's content (above)
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
      // Stryker restore ObjectLiteral,ArrayDeclaration,StringLiteral
      const signature = sign(st.signingKey, policy);
      // Stryker disable next-line ObjectLiteral: the record an upload is for, kept for step 3, which is not shown
      const entity = { type, id };
      st.issued.set(key, { key, policy, token, acl, status, accessKeyId: st.accessKeyId, expires, entity });
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
      // sample_curl is "(string)": its content is the reference's own.
      // Stryker disable ArrayDeclaration,StringLiteral,ArrowFunction: sample_curl's content (above)
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
      // Stryker restore ArrayDeclaration,StringLiteral,ArrowFunction
      return { method: 'POST', url, body, sample_curl: sampleCurl, ...(extra ? { expires_in: POLICY_LIFETIME_S } : {}) };
    });

    router.add('GET', '/{entity_type}/{entity_id}/files/{file_id}', (ctx) => {
      const type = entityType(app, ctx.params.entity_type);
      const entityId = numericParam(app, ctx.params.entity_id, 'entity_id');
      const fileId = numericParam(app, ctx.params.file_id, 'file_id');
      const file = files.get(fileId);
      if (!file || !app.at('files.attached', file._entity_type === type && file._entity_id === entityId, undefined)) return missing(app, 'file');
      const out: Record<string, unknown> = {};
      // Made true (or endsWith), the internal _entity_type and _entity_id are answered too: members the spec does not list,
      // which it allows (general.extra-fields). Made false, FILE-5's contract fails (checked by hand): StrykerJS disables both or neither.
      // Stryker disable next-line ConditionalExpression,MethodExpression: the same (above)
      for (const [k, v] of Object.entries(file)) if (!k.startsWith('_')) out[k] = v;
      if (extra) out.conformance_variant_extra = true;
      return out;
    });
  },
  root(router, app) {
    // Stryker disable next-line StringLiteral: the choice's id emptied, step 2 takes a file of any size: the limit is not shown
    const maxUpload = MAX_UPLOAD[app.choice('files.max-upload')];
    router.add('POST', uploadPath(app), (ctx) => {
      const header = ctx.headers['content-type'];
      // Stryker disable next-line StringLiteral: no Content-Type read as another text that is not multipart: refused the same
      const type = String(header ?? '');
      /*
       * Step 2's checks of the form below are the reference's own, as S3's are: what it answers to a form that is not the
       * one step 1 signed (forged, altered, incomplete, expired, too large, or not multipart) is not shown. Each check
       * made true (or its comparison reversed), every upload is refused, which FILE-3 catches (checked by hand): StrykerJS
       * disables both or neither. The error codes are the reference's own too.
       */
      // Stryker disable next-line ConditionalExpression,Regex,StringLiteral: the same (above)
      if (!/^multipart\/form-data/i.test(type)) return s3Error(400, 'InvalidRequest', 'the upload is a multipart/form-data POST');
      const { fields, files: parts } = parseMultipart(ctx.rawBody, type);
      // Stryker disable next-line ArrayDeclaration: the same (above)
      const required = ['key', 'signature', 'success_action_status', 'acl', 'policy', 'storage_access_key_id', 'x-storage-security-token'];
      // Stryker disable next-line ArrowFunction,ConditionalExpression: the same (above)
      const missing = required.filter((f) => fields[f] === undefined);
      // Stryker disable next-line ConditionalExpression,StringLiteral: the same (above)
      if (missing.length) return s3Error(400, 'InvalidArgument', `missing form fields: ${missing.join(', ')}`);
      const st = state(app);
      const issued = st.issued.get(fields.key);
      // Stryker disable next-line ConditionalExpression,StringLiteral: the same (above)
      if (!issued) return s3Error(403, 'AccessDenied', 'no upload was signed for this key');
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the same (above)
      if (Date.now() > issued.expires) return s3Error(403, 'AccessDenied', 'the policy has expired');
      const signed = app.at('files.signed-text', fields.policy, { key: fields.key });
      // Stryker disable next-line ConditionalExpression,LogicalOperator: the same (above)
      if (!same(fields.policy, issued.policy) || !same(fields.signature, sign(st.signingKey, signed)))
        // Stryker disable next-line StringLiteral: the same (above)
        return s3Error(403, 'SignatureDoesNotMatch', 'the signature does not match the policy');
      // Stryker disable next-line ConditionalExpression,StringLiteral: the same (above)
      if (!same(fields['x-storage-security-token'], issued.token)) return s3Error(403, 'InvalidToken', 'the security token does not match');
      // Stryker disable next-line ConditionalExpression,StringLiteral: the same (above)
      if (fields.storage_access_key_id !== issued.accessKeyId) return s3Error(403, 'InvalidAccessKeyId', 'unknown access key id');
      // Stryker disable next-line ConditionalExpression,LogicalOperator: the same (above)
      if (fields.acl !== issued.acl || fields.success_action_status !== issued.status)
        // Stryker disable next-line StringLiteral: the same (above)
        return s3Error(403, 'AccessDenied', 'a form field does not satisfy the policy conditions');
      const file = parts.file;
      // Stryker disable next-line ConditionalExpression,StringLiteral: the same (above)
      if (!file) return s3Error(400, 'InvalidArgument', 'the form has no file');
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the same (above; the limit itself is not shown)
      if (file.data.length > maxUpload) return s3Error(400, 'EntityTooLarge', `the file is larger than ${maxUpload} bytes`);
      // Kept for step 3, which is not shown: nothing reads an upload back (no endpoint of the spec does).
      // Stryker disable next-line ObjectLiteral,CallExpression: the same
      st.uploads.set(issued.key, { file_name: file.filename, content_type: file.contentType, size: file.data.length, entity: issued.entity });
      // The body of step 2's answer is not shown; its status is success_action_status's (FILE-4). Under the default
      // 201-xml every mutant here still answers 201 (with an empty body or the XML); made true, the 204-empty alternative
      // answers 201, which FILE-4 catches under it (REFERENCE_CHOICES=files.step2-answer=204-empty; checked by hand).
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BlockStatement: the same (above)
      if (issued.status === '201') {
        // Stryker disable next-line StringLiteral: the body of step 2's answer (above)
        const location = `${app.publicBaseUrl}/_storage/${BUCKET}/${encodeURI(issued.key)}`;
        const etag = randomBytes(16).toString('hex');
        return xml(
          201,
          // Stryker disable next-line StringLiteral: the same
          `<PostResponse><Location>${location}</Location><Bucket>${BUCKET}</Bucket><Key>${issued.key}</Key><ETag>"${etag}"</ETag></PostResponse>`,
        );
      }
      // The 204-empty alternative only (files.step2-answer), which a mutation run never takes: emptied, the answer has no
      // status of success_action_status's, which FILE-4 catches under it (checked by hand); a body on a 204: not shown.
      // Stryker disable next-line ObjectLiteral,StringLiteral: the same (above)
      return { status: Number(issued.status), raw: '' };
    });
  },
};
