/**
 * spec § Endpoints → Files: `GET /{entity_type}/{entity_id}/files/{file_id}` answers attached
 * file metadata (§ Resources → Attached file metadata). "`entity_type` is one of leads, people,
 * opportunities, companies, projects; `entity_id` and `file_id` are numbers."
 *
 * A file id "comes from listing the attached files of a record", an endpoint that is not shown:
 * the profile's `attached_file` names one. The status of a refusal is not shown: any 4xx
 * (a 5xx is the server failing, no refusal).
 */
import { FileMetadata } from '../../contracts/index.js';
import { expect, expectJson, rule, test } from '../support/fixtures/test.js';
import { getSignedUpload } from './upload.js';
import { make, sameId } from '../support/make.js';
import { absentId } from '../support/records.js';

const NO_FILE = 'the profile names no attached_file (fixtures.attached_file)';

test(
  ...rule('FILE-5', "the metadata of the profile's attached file matches the contract", async ({ api, profile }) => {
    const file = profile.fixtures.attached_file;
    test.skip(!file, NO_FILE);
    const res = await api.get<FileMetadata>(`/${file!.entity_type}/${file!.entity_id}/files/${file!.file_id}`);
    expect(res).toHaveStatus(200);
    expectJson(res);
    expect(res).toMatchContract(FileMetadata);
    expect(sameId(res.body.id, file!.file_id), `the metadata is the one of file ${file!.file_id}`).toBe(true);
  }),
);

test(
  ...rule('FILE-6', 'an entity_type outside the listed ones is refused for a signed upload', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    const res = await getSignedUpload(api, 'widgets', company.id);
    expect(res).toBeRefused();
  }),
);

test(
  ...rule('FILE-6', 'an entity_type outside the listed ones is refused for file metadata', async ({ api, profile }) => {
    const file = profile.fixtures.attached_file;
    test.skip(!file, NO_FILE);
    const res = await api.get(`/widgets/${file!.entity_id}/files/${file!.file_id}`);
    expect(res).toBeRefused();
  }),
);

test(
  ...rule('FILE-7', 'a non-numeric entity_id is refused for a signed upload', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    const res = await getSignedUpload(api, 'companies', `${String(company.id)}abc`);
    expect(res).toBeRefused();
  }),
);

test(
  ...rule('FILE-7', 'a non-numeric entity_id or file_id is refused for file metadata', async ({ api, profile }) => {
    const file = profile.fixtures.attached_file;
    test.skip(!file, NO_FILE);
    const entity = await api.get(`/${file!.entity_type}/${file!.entity_id}abc/files/${file!.file_id}`);
    expect(entity, 'a non-numeric entity_id').toBeRefused();
    const id = await api.get(`/${file!.entity_type}/${file!.entity_id}/files/${file!.file_id}abc`);
    expect(id, 'a non-numeric file_id').toBeRefused();
  }),
);

test(
  ...rule('WIRE-6', 'the metadata of a file id no file has is refused, not answered 2xx', async ({ api, ns, profile }) => {
    const file = profile.fixtures.attached_file;
    test.skip(!file, NO_FILE);
    // "`file_id` [is a number]": a numeric id far from the profile's file, on the same record.
    const id = absentId(String(file!.file_id), ns.id);
    const res = await api.get(`/${file!.entity_type}/${file!.entity_id}/files/${id}`);
    expect(res, `no file has id ${String(id)} (the profile's file has ${String(file!.file_id)}): a 2xx would say it exists`).toBeRefused();
  }),
);
