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
import { make, sameId } from '../support/make.js';
import { absentId, fixtureActivities } from '../support/records.js';
import { FILE_ENTITY_TYPES, getSignedUpload } from './upload.js';

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
  ...rule('FILE-6', 'the type of an existing record outside the listed ones (activities) is refused for a signed upload', async ({ api, profile }) => {
    const fixture = profile.fixtures.company_with_activities;
    test.skip(!fixture, 'the profile names no company_with_activities (fixtures.company_with_activities)');
    // An Activity is a record of the account, but its type is not one of the listed entity types.
    const activity = (await fixtureActivities(api, fixture!))[0];
    const res = await getSignedUpload(api, 'activities', activity.id);
    expect(res, `activity ${String(activity.id)} exists; "activities" is not a listed entity_type`).toBeRefused();
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

test(
  ...rule('WIRE-6', 'a signed upload for a record id that does not exist is refused, not answered 2xx', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    // A numeric id far from a Company just made: no Company has it.
    const id = absentId(company.id, ns.id);
    const res = await getSignedUpload(api, 'companies', id);
    expect(res, `no Company has id ${String(id)}: a 2xx would give upload instructions for a record that is not there`).toBeRefused();
  }),
);

test(
  ...rule('WIRE-6', 'the attached file under a record that does not exist is refused, not answered 2xx', async ({ api, ns, profile }) => {
    const file = profile.fixtures.attached_file;
    test.skip(!file, NO_FILE);
    // The record of the file's type with a far id; and the records of the other listed types with the file's record's
    // id, where that record does not exist (its signed upload is refused, WIRE-6 above): none of them has the file.
    const own = { type: file!.entity_type, id: absentId(file!.entity_id, ns.id) };
    const others = [];
    for (const type of FILE_ENTITY_TYPES.filter((t) => t !== file!.entity_type)) {
      const step1 = await getSignedUpload(api, type, file!.entity_id);
      if (step1.status >= 400 && step1.status < 500) others.push({ type, id: file!.entity_id });
    }
    const answered = [];
    for (const { type, id } of [own, ...others]) {
      const res = await api.get(`/${type}/${String(id)}/files/${file!.file_id}`);
      if (!(res.status >= 400 && res.status < 500)) answered.push(`/${type}/${String(id)}/files/${file!.file_id}: ${res.status}`);
    }
    expect(
      answered,
      `file ${String(file!.file_id)} is attached to ${file!.entity_type} ${String(file!.entity_id)}, under no record that does not exist`,
    ).toEqual([]);
  }),
);
