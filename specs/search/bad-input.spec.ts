/**
 * spec § Errors, § Endpoints → Projects and Tasks: bad search input. The spec shows no status
 * or body for it: a client error (4xx) with a JSON body, never a 5xx or a dropped connection (a
 * SHOULD: a failure is reported as a warning). A server may also take such input leniently (open
 * choice `errors.ill-typed-input`: page 0 as the first page, an unknown sort field as the default
 * sort): then its answer must be a list of the searched records (SEARCH-1).
 */
import { ProjectList, TaskList } from '../../contracts/index.js';
import { createMany, inNs, needTaskCreate, type Kind } from '../support/search.js';
import { breaks, conforms, expect, expectJson, expectRefusedOrTaken, isAccepted, rule, test } from '../support/fixtures/test.js';

const KINDS: Kind[] = ['projects', 'tasks'];
const label = (kind: Kind) => (kind === 'projects' ? 'project search' : 'task search');

const BAD: [string, unknown][] = [
  ['page_number 0', { page_number: 0 }],
  ['page_number -1', { page_number: -1 }],
  ['page_number "first"', { page_number: 'first' }],
  ['page_number 1.5 (not a whole page)', { page_number: 1.5, page_size: 3 }],
  ['sort_by an unknown field', { sort_by: 'no_such_field' }],
  ['sort_direction sideways', { sort_direction: 'sideways' }],
  ['ids not a list', { ids: 'all' }],
  ['assignee_ids not a list', { assignee_ids: 12 }],
  ['tags a number', { tags: 42 }],
  ['statuses a string', { statuses: 'Open' }],
  ['followed "yes"', { followed: 'yes' }],
  ['minimum_created_date "yesterday"', { minimum_created_date: 'yesterday' }],
  ['maximum_modified_date an object', { maximum_modified_date: { when: 'now' } }],
  ['custom_fields not a list', { custom_fields: 'empty' }],
  ['a custom_fields entry null', { custom_fields: [null] }],
  ['a custom_fields entry without its custom_field_definition_id', { custom_fields: [{ allow_empty: true }] }],
  ['custom_fields an object, not a list', { custom_fields: { custom_field_definition_id: 1, allow_empty: true } }],
  ['a body that is not an object', [1, 2, 3]],
  ['a JSON null body', null],
];

for (const kind of KINDS) {
  test(
    ...rule(
      'SEARCH-16',
      `${label(kind)}: zero or negative pages, unknown sort fields and wrongly typed filters are refused with a 4xx JSON answer, or answered as a search`,
      async ({ api }) => {
        const extra: [string, unknown][] =
          kind === 'projects'
            ? [
                ['status_ids not a list', { status_ids: 'Open' }],
                ['name a number', { name: 7 }],
              ]
            : [
                ['project_ids not a list', { project_ids: -2 }],
                ['minimum_due_date "soon"', { minimum_due_date: 'soon' }],
                ['opportunity_ids an object', { opportunity_ids: { id: 1 } }],
              ];
        // Independent requests, sent together: a far target answers them in one round trip.
        const answers = await Promise.all([...BAD, ...extra].map(async ([what, body]) => ({ what, res: await api.post(`/${kind}/search`, body) })));
        const list = kind === 'projects' ? ProjectList : TaskList;
        const taken = answers.filter(({ res }) => isAccepted(res));
        const notLists = taken
          .filter(({ res }) => !conforms(res, list))
          .map(({ what, res }) => `${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
        expect(notLists, `bad ${label(kind)} input taken leniently (2xx) is answered with a list of the searched records${breaks(['SEARCH-1'])}`).toEqual([]);
        const wrong = answers
          .filter(({ res }) => !isAccepted(res) && (res.status < 400 || res.status >= 500 || !res.isJson))
          .map(({ what, res }) => `${what}: ${res.status || 'no answer'}${res.isJson || !res.status ? '' : ' (not JSON)'}`);
        expect(wrong, `bad ${label(kind)} input answered other than a 4xx JSON refusal or a search answer`).toEqual([]);
      },
    ),
  );

  test(
    ...rule('SEARCH-16', `${label(kind)}: a malformed JSON body is refused with a 4xx JSON answer, or answered as a search`, async ({ api }) => {
      const res = await api.send({
        method: 'POST',
        path: `/${kind}/search`,
        rawBody: '{"page_size": 2, "tags": [',
        headers: { 'Content-Type': 'application/json' },
      });
      await expectRefusedOrTaken(res, (taken) =>
        expect(taken, `the answer to a malformed search that was taken${breaks(['SEARCH-1'])}`).toMatchContract(kind === 'projects' ? ProjectList : TaskList),
      );
      if (!isAccepted(res)) expectJson(res);
    }),
  );

  test(
    ...rule(
      'SEARCH-16',
      `${label(kind)}: an unknown sort field or a fractional page over matching records is refused with a 4xx JSON answer, or answered as a search`,
      async ({ api, ns, profile }) => {
        if (kind === 'tasks') needTaskCreate(profile);
        // Records to sort and to page through: a server that takes such input must still sort and page them.
        await createMany(kind, { api, ns, profile }, [{}, {}, {}]);
        const bodies: [string, Record<string, unknown>][] = [
          ['sort_by an unknown field', { sort_by: 'no_such_field' }],
          ['page_size 1.5, page_number 2', { page_size: 1.5, page_number: 2 }],
        ];
        const answers = await Promise.all(bodies.map(async ([what, body]) => ({ what, res: await api.post(`/${kind}/search`, inNs(ns, body)) })));
        const list = kind === 'projects' ? ProjectList : TaskList;
        const notLists = answers
          .filter(({ res }) => isAccepted(res) && !conforms(res, list))
          .map(({ what, res }) => `${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
        expect(notLists, `bad ${label(kind)} input taken leniently (2xx) is answered with a list of the searched records${breaks(['SEARCH-1'])}`).toEqual([]);
        const wrong = answers
          .filter(({ res }) => !isAccepted(res) && (res.status < 400 || res.status >= 500 || !res.isJson))
          .map(({ what, res }) => `${what}: ${res.status || 'no answer'}${res.isJson || !res.status ? '' : ' (not JSON)'}`);
        expect(wrong, `bad ${label(kind)} input over matching records answered other than a 4xx JSON refusal or a search answer`).toEqual([]);
      },
    ),
  );
}
