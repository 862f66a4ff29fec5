/**
 * spec § Errors, § Endpoints → Projects and Tasks: bad search input. The spec shows no status
 * or body for it; a client error (4xx) with a JSON body is expected, never a 5xx or a dropped
 * connection (a SHOULD: a failure is reported as a warning).
 */
import type { Kind } from '../support/search.js';
import { expect, expectJson, rule, test } from '../support/fixtures/test.js';

const KINDS: Kind[] = ['projects', 'tasks'];
const label = (kind: Kind) => (kind === 'projects' ? 'project search' : 'task search');

const BAD: [string, unknown][] = [
  ['page_number 0', { page_number: 0 }],
  ['page_number -1', { page_number: -1 }],
  ['page_number "first"', { page_number: 'first' }],
  ['sort_by an unknown field', { sort_by: 'no_such_field' }],
  ['sort_direction sideways', { sort_direction: 'sideways' }],
  ['ids not a list', { ids: 'all' }],
  ['assignee_ids not a list', { assignee_ids: 12 }],
  ['tags a number', { tags: 42 }],
  ['followed "yes"', { followed: 'yes' }],
  ['minimum_created_date "yesterday"', { minimum_created_date: 'yesterday' }],
  ['maximum_modified_date an object', { maximum_modified_date: { when: 'now' } }],
  ['custom_fields not a list', { custom_fields: 'empty' }],
  ['a body that is not an object', [1, 2, 3]],
];

for (const kind of KINDS) {
  test(
    ...rule(
      'SEARCH-16',
      `${label(kind)}: zero or negative pages, unknown sort fields and wrongly typed filters are refused with a 4xx JSON answer`,
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
        const wrong = answers
          .filter(({ res }) => res.status < 400 || res.status >= 500 || !res.isJson)
          .map(({ what, res }) => `${what}: ${res.status}${res.isJson ? '' : ' (not JSON)'}`);
        expect(wrong, `bad ${label(kind)} input answered other than 4xx JSON`).toEqual([]);
      },
    ),
  );

  test(
    ...rule('SEARCH-16', `${label(kind)}: a malformed JSON body is refused with a 4xx JSON answer`, async ({ api }) => {
      const res = await api.send({
        method: 'POST',
        path: `/${kind}/search`,
        rawBody: '{"page_size": 2, "tags": [',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res).toBeClientError();
      expectJson(res);
    }),
  );
}
