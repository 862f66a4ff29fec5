/**
 * Faults of file attachments (reference/routes/files.ts). How they hook in:
 * reference/faults/types.ts.
 */
import { parseMultipart, uploadPath } from '../routes/files.js';
import type { Fault, Presented } from './types.js';

declare module './types.js' {
  interface HookPoints {
    /** Is the entity_type of a files path one the server serves? */
    'files.entity-type-known': { value: boolean; ctx: { type: string } };
    /** A numeric id of a files path (undefined: not a number). */
    'files.id': { value: number | undefined; ctx: { raw: string } };
    /** Does the record of a signed-upload path exist? */
    'files.record-found': { value: boolean; ctx: undefined };
    /** Is the file attached to the record of the path? */
    'files.attached': { value: boolean; ctx: undefined };
    /** The text step 2 checks the signature against (the policy). */
    'files.signed-text': { value: string; ctx: { key: string } };
  }
}

const ok = (res: Presented) => res.status >= 200 && res.status < 300;

export const FILES_FAULTS: Fault[] = [
  {
    name: 'signed-upload-token-missing',
    rules: ['FILE-1'],
    description: 'the signed upload body has no security_token',
    routes: [
      {
        route: 'GET /{entity_type}/{entity_id}/files/s3_signed_url',
        respond: (res) => {
          if (!ok(res)) return res;
          const b = res.body as { body: Record<string, unknown>; sample_curl: string };
          const { security_token: _t, ...body } = b.body;
          return { ...res, body: { ...b, body, sample_curl: b.sample_curl.replace(/ -F "x-storage-security-token=[^"]*"/, '') } };
        },
      },
    ],
  },
  {
    name: 'signed-upload-projects-refused',
    rules: ['FILE-2'],
    description: 'signed uploads are refused for entity_type projects (missing from the list of types)',
    at: { 'files.entity-type-known': (known, { type }) => known && type !== 'projects' },
  },
  {
    name: 'upload-rejects-file',
    rules: ['FILE-3', 'FILE-4'],
    description: 'step 2 checks the signature against the key instead of the policy and refuses every upload (403 SignatureDoesNotMatch)',
    at: { 'files.signed-text': (_policy, { key }) => key },
  },
  {
    name: 'upload-filename-space-refused',
    rules: ['FILE-3'],
    description:
      'step 2 reads the Content-Disposition of the file part up to the first space: a file name with a space is taken for a malformed part, 400 MalformedPOSTRequest',
    routes: [
      {
        route: (app) => `POST ${uploadPath(app)}`,
        host: 'root',
        around: (ctx, next) => {
          const type = String(ctx.headers['content-type'] ?? '');
          let name: string | undefined;
          try {
            name = /^multipart\/form-data/i.test(type) ? parseMultipart(ctx.rawBody, type).files.file?.filename : undefined;
          } catch {
            name = undefined;
          }
          if (name === undefined || !/\s/.test(name)) return next();
          const raw = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>MalformedPOSTRequest</Code><Message>The body of your POST request is not well-formed multipart/form-data.</Message></Error>`;
          return { status: 400, raw, headers: { 'content-type': 'application/xml' } };
        },
      },
    ],
  },
  {
    name: 'upload-status-200',
    rules: ['FILE-4'],
    description: 'step 2 answers 200 whatever success_action_status says',
    routes: [{ route: (app) => `POST ${uploadPath(app)}`, host: 'root', respond: (res) => (ok(res) ? { status: 200, raw: '' } : res) }],
  },
  {
    name: 'file-size-string',
    rules: ['FILE-5'],
    description: 'file metadata carries file_size as a string',
    routes: [
      {
        route: 'GET /{entity_type}/{entity_id}/files/{file_id}',
        respond: (res) => (ok(res) ? { ...res, body: { ...(res.body as object), file_size: String((res.body as { file_size: unknown }).file_size) } } : res),
      },
    ],
  },
  {
    name: 'files-entity-type-unchecked',
    rules: ['FILE-6'],
    description: 'any entity_type is accepted on the files endpoints',
    at: { 'files.entity-type-known': () => true, 'files.record-found': () => true, 'files.attached': () => true },
  },
  {
    name: 'files-id-parseint',
    rules: ['FILE-7'],
    description: 'ids of the files endpoints are read with parseInt, so "401abc" is taken as 401',
    at: {
      'files.id': (id, { raw }) => {
        const n = parseInt(raw, 10);
        return Number.isNaN(n) ? id : n;
      },
    },
  },
];
