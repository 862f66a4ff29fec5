/**
 * spec § Endpoints → Projects and Tasks (searches: response, page_number, page_size) and
 * § Limits (default page size 20, first page 1, first 100,000 records). Every search is
 * restricted to this test's namespace tag; page sizes stay at most 20 (the maximum page size
 * is not shown).
 */
import { createInOrder, createMany, expectSameRecords, idsOf, inNs, needTaskCreate, search, searchRaw, type Kind } from '../support/search.js';
import { breaks, expect, expectJson, rule, test } from '../support/fixtures/test.js';

const KINDS: Kind[] = ['projects', 'tasks'];
const label = (kind: Kind) => (kind === 'projects' ? 'project search' : 'task search');

for (const kind of KINDS) {
  test(
    ...rule(
      'SEARCH-1',
      `${label(kind)} answers a JSON array of the matching ${kind === 'projects' ? 'Projects' : 'Tasks'}`,
      async ({ api, ns, profile }) => {
        if (kind === 'tasks') needTaskCreate(profile);
        const made = await createMany(kind, { api, ns, profile }, [{}, {}]);
        const res = await searchRaw(api, kind, inNs(ns));
        expect(res).toHaveStatus(200);
        expectJson(res);
        expect(Array.isArray(res.body), 'the answer is a JSON array').toBe(true);
        const found = await search(api, kind, inNs(ns)); // checks the list contract
        expectSameRecords(found, made, 'the records of the namespace');
      },
      { also: kind === 'tasks' ? ['TSEARCH-7'] : [] },
    ),
  );

  test(
    ...rule('SEARCH-2', `${label(kind)}: the first page is page 1 and page 1 is the default`, async ({ api, ns, profile }) => {
      if (kind === 'tasks') needTaskCreate(profile);
      // Created in an order that differs from name order.
      const [c, a, b] = await createInOrder(kind, { api, ns, profile }, [{ name: ns.name('cccc') }, { name: ns.name('aaaa') }, { name: ns.name('bbbb') }]);
      const filter = inNs(ns, { sort_by: 'name', sort_direction: 'asc', page_size: 2 });
      expect(idsOf(await search(api, kind, filter)), 'without page_number: the first two by name').toEqual(idsOf([a, b]));
      expect(idsOf(await search(api, kind, { ...filter, page_number: 1 })), 'page_number 1: the first two by name').toEqual(idsOf([a, b]));
      expect(idsOf(await search(api, kind, { ...filter, page_number: 2 })), 'page_number 2: the third by name').toEqual(idsOf([c]));
    }),
  );

  test(
    ...rule('SEARCH-3', `${label(kind)}: without page_size a page has 20 entries`, async ({ api, ns, profile }) => {
      if (kind === 'tasks') needTaskCreate(profile);
      const made = await createMany(
        kind,
        { api, ns, profile },
        Array.from({ length: 21 }, () => ({})),
      );
      const first = await search(api, kind, inNs(ns, { sort_by: 'name' }));
      expect(first.length, 'entries of page 1 of 21 matches without page_size').toBe(20);
      // Page 2 is the second page only when the first is 1 (SEARCH-2).
      const second = await search(api, kind, inNs(ns, { sort_by: 'name', page_number: 2 }));
      expect(second.length, `entries of page 2 of 21 matches without page_size${breaks(['SEARCH-3', 'SEARCH-2'])}`).toBe(1);
      expectSameRecords([...first, ...second], made, 'pages 1 and 2 of the default size', ['SEARCH-3', 'SEARCH-2']);
    }),
  );

  for (const sortBy of ['name', 'status', 'date_created']) {
    test(
      ...rule('SEARCH-4', `${label(kind)} sorted by ${sortBy}: pages of page_size entries give every match exactly once`, async ({ api, ns, profile }) => {
        if (kind === 'tasks') needTaskCreate(profile);
        const made = await createMany(
          kind,
          { api, ns, profile },
          Array.from({ length: 7 }, () => ({})),
        );
        const pages = [];
        for (let page = 1; page <= 4; page++) pages.push(await search(api, kind, inNs(ns, { sort_by: sortBy, page_size: 3, page_number: page })));
        expect(
          pages.map((p) => p.length),
          'entries of pages 1-4 of size 3 over 7 matches',
        ).toEqual([3, 3, 1, 0]);
        // Ties of the sort key (all records share a status, most a creation second) are broken
        // in an order the spec leaves open, but consistently: no record twice, none missing.
        expectSameRecords(pages.flat(), made, 'the pages together');
      }),
    );
  }

  test(
    ...rule(
      'SEARCH-7',
      `${label(kind)}: a page past the first 100,000 records answers an empty array, whatever the pagination values`,
      async ({ api, ns, profile }) => {
        if (kind === 'tasks') needTaskCreate(profile);
        await createMany(kind, { api, ns, profile }, [{}, {}]);
        for (const [size, page] of [
          [20, 5001],
          [1, 100_001],
          [7, 14_287],
          [3, 1_000_000],
        ]) {
          const found = await search(api, kind, inNs(ns, { page_size: size, page_number: page }));
          expect(found.length, `page ${page} of size ${size} (past the first 100,000 records)`).toBe(0);
        }
      },
    ),
  );
}
