/**
 * spec § Endpoints → Files: `GET /{entity_type}/{entity_id}/files/s3_signed_url` answers signed
 * upload instructions (step 1 of 3): `url`, `method` (`POST`), `body` (`policy`, `signature`,
 * `storage_access_key_id`, `security_token`, `key`, `acl`, `success_action_status`) and
 * `sample_curl`. Step 2 — performed here for real — is a multipart form POST to `url` with the
 * form fields `key`, `signature`, `success_action_status`, `acl`, `policy`,
 * `storage_access_key_id`, `x-storage-security-token` (the value of `security_token`) and `file`
 * (its file name as users name files too: spaces, letters outside ASCII).
 * The response to step 2 is "not shown": it is held to 2xx (MUST) and to the status named by
 * `success_action_status` (SHOULD). Step 3 (attaching the upload) is not shown and not performed.
 *
 * The signed upload's secrets never reach an artifact (see ./upload.ts).
 */
import { SignedUpload } from '../../contracts/index.js';
import { breaks, describeExchange, expect, expectJson, rule, test } from '../support/fixtures/test.js';
import { FILE_ENTITY_TYPES, getSignedUpload, recordOf, smallFile, uploadStep2 } from './upload.js';
import { make } from '../support/make.js';

test(
  ...rule('FILE-1', 'the signed upload answer for a Company has url, method POST, every listed body member and sample_curl', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    const res = await getSignedUpload(api, 'companies', company.id);
    expect(res).toHaveStatus(200);
    expectJson(res);
    expect(res).toMatchContract(SignedUpload);
  }),
);

for (const entityType of FILE_ENTITY_TYPES) {
  test(
    ...rule('FILE-2', `a signed upload for ${entityType} is answered with the instructions`, async ({ api, ns, profile }) => {
      const id = await recordOf({ api, ns, profile }, entityType);
      const res = await getSignedUpload(api, entityType, id);
      expect(res).toHaveStatus(200);
      // The instructions' shape is FILE-1's (its contract failure names it).
      expect(res).toMatchContract(SignedUpload);
    }),
  );
}

test(
  ...rule('FILE-3', 'step 2, a multipart POST to url with the listed form fields and a small file, is accepted (2xx)', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    const res = await getSignedUpload(api, 'companies', company.id);
    // Step 1, FILE-1's: step 2 rests on it.
    expect(res, `step 1 is answered${breaks(['FILE-1'])}`).toHaveStatus(200);
    expect(res, `step 1 answers every member step 2 needs${breaks(['FILE-1'])}`).toMatchContract(SignedUpload);
    const up = await uploadStep2(api, res.body, smallFile(ns));
    expect(up.status >= 200 && up.status < 300, `step 2 is accepted with a 2xx status\n${describeExchange(up.exchange)}`).toBe(true);
  }),
);

test(
  ...rule('FILE-3', 'step 2 accepts a file whose name has spaces and letters outside ASCII, as users name files', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    const res = await getSignedUpload(api, 'companies', company.id);
    // Step 1, FILE-1's: step 2 rests on it.
    expect(res, `step 1 is answered${breaks(['FILE-1'])}`).toHaveStatus(200);
    expect(res, `step 1 answers every member step 2 needs${breaks(['FILE-1'])}`).toMatchContract(SignedUpload);
    const up = await uploadStep2(api, res.body, smallFile(ns, `Angebot Q3 (final) Zoë Łukasiewicz ${ns.id}.txt`));
    expect(up.status >= 200 && up.status < 300, `step 2 is accepted with a 2xx status\n${describeExchange(up.exchange)}`).toBe(true);
  }),
);

test(
  ...rule('FILE-4', 'step 2 answers the status named by success_action_status', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    const res = await getSignedUpload(api, 'companies', company.id);
    // Step 1, FILE-1's: step 2 rests on it.
    expect(res, `step 1 is answered${breaks(['FILE-1'])}`).toHaveStatus(200);
    expect(res, `step 1 answers every member step 2 needs${breaks(['FILE-1'])}`).toMatchContract(SignedUpload);
    const wanted = Number(res.body.body.success_action_status);
    const up = await uploadStep2(api, res.body, smallFile(ns));
    expect(up.status, `step 2 answers success_action_status ${wanted}\n${describeExchange(up.exchange)}`).toBe(wanted);
  }),
);

// Step 2 "is a multipart form POST": a form as other clients write it (RFC 7578, RFC 2046) is one too.
for (const [what, handWritten] of [
  ['whose boundary parameter is quoted (a boundary with a ":", RFC 2046 §5.1.1)', { quotedBoundary: true }],
  ['whose file part has no Content-Type header (optional, RFC 7578 §4.4)', { untypedFile: true }],
] as const) {
  test(
    ...rule('FILE-3', `step 2 accepts a multipart form ${what}`, async ({ api, ns }) => {
      const company = await make.company({ api, ns });
      const res = await getSignedUpload(api, 'companies', company.id);
      // Step 1, FILE-1's: step 2 rests on it.
      expect(res, `step 1 is answered${breaks(['FILE-1'])}`).toHaveStatus(200);
      expect(res, `step 1 answers every member step 2 needs${breaks(['FILE-1'])}`).toMatchContract(SignedUpload);
      const up = await uploadStep2(api, res.body, smallFile(ns), { handWritten });
      expect(up.status >= 200 && up.status < 300, `step 2 is accepted with a 2xx status\n${describeExchange(up.exchange)}`).toBe(true);
    }),
  );
}
