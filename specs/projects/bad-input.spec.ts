/**
 * spec § Errors (WIRE-5) for `POST /projects`: malformed JSON and ill-typed members are never
 * answered with a 5xx or a dropped connection. The status of a refusal is not shown: any 4xx. A
 * server may also take the input leniently (open choice `errors.ill-typed-input`): then its answer
 * must be a Project (PROJ-1), whatever it made of the ill-typed member. (A name that is not a
 * string is PROJ-3's: name is required and a string.)
 */
import { Project } from '../../contracts/index.js';
import { breaks, expect, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';
import { postIllTyped, type IllTyped } from '../support/records.js';

const cases: IllTyped[] = [
  { label: 'a malformed JSON body', raw: '{"name": "unterminated",' },
  { label: 'a JSON array as body', body: ({ tags, name }) => [{ name: name('ill-typed'), tags }] },
  { label: 'details that is a number', body: ({ tags, name }) => ({ name: name('ill-typed'), details: 42, tags }) },
  { label: 'tags that is a string', body: ({ tags, name }) => ({ name: name('ill-typed'), tags: tags[0] }) },
  { label: 'a tag that is a number', body: ({ tags, name }) => ({ name: name('ill-typed'), tags: [...tags, 7] }) },
  { label: 'related_resource that is a string', body: ({ tags, name }) => ({ name: name('ill-typed'), related_resource: 'company 1', tags }) },
  {
    label: 'custom_fields that is an object',
    body: ({ tags, name }) => ({ name: name('ill-typed'), custom_fields: { custom_field_definition_id: 1, value: 'x' }, tags }),
  },
];

for (const c of cases) {
  test(
    ...rule('WIRE-5', `POST /projects with ${c.label} is refused with a 4xx, or taken as a valid Project`, async ({ api, ns }) => {
      const res = await postIllTyped(api, '/projects', c, ns);
      await expectRefusedOrTaken(res, (taken) => expect(taken, `the answer to ${c.label} that was taken${breaks(['PROJ-1'])}`).toMatchContract(Project));
    }),
  );
}
