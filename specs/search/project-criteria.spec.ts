/**
 * spec § Endpoints → Projects (`POST /projects/search`): the default sort (`name`), the `name`
 * criterion (full name, outside ASCII too), `statuses` and `status_ids`. Status ids and the names
 * of statuses other than `Open` come from the profile (fixtures.project_statuses): the spec shows
 * no list.
 */
import { createInOrder, expectSameRecords, idsOf, inNs, search } from '../support/search.js';
import { breaks, expect, rule, test } from '../support/fixtures/test.js';

/** The search by status rests on new Projects being Open (PROJ-2): a test that finds them otherwise is blocked by it. */
function expectOpen(made: { id: unknown }[]): void {
  for (const p of made) expect((p as { status?: unknown }).status, `the new Project ${String(p.id)} is Open${breaks(['PROJ-2'])}`).toBe('Open');
}

test(
  ...rule('PSEARCH-1', 'a project search without sort_by sorts by name, ascending', async ({ api, ns, profile }) => {
    // Created in an order that is neither name order nor its reverse.
    const [c, a, d, b] = await createInOrder(
      'projects',
      { api, ns, profile },
      ['cccc', 'aaaa', 'dddd', 'bbbb'].map((l) => ({ name: ns.name(l) })),
    );
    expect(idsOf(await search(api, 'projects', inNs(ns))), 'no sort_by, no sort_direction: by name ascending').toEqual(idsOf([a, b, c, d]));
    // The default key in the other direction rests on sort_direction (SEARCH-6) too.
    expect(
      idsOf(await search(api, 'projects', inNs(ns, { sort_direction: 'desc' }))),
      `no sort_by, desc: by name descending${breaks(['PSEARCH-1', 'SEARCH-6'])}`,
    ).toEqual(idsOf([d, c, b, a]));
  }),
);

test(
  ...rule('PSEARCH-3', 'name selects the projects with exactly that full name', async ({ api, ns, profile }) => {
    const base = ns.name('named');
    const [exact, longer] = await createInOrder('projects', { api, ns, profile }, [{ name: base }, { name: `${base} and more` }, { name: ns.name('other') }]);
    expectSameRecords(await search(api, 'projects', inNs(ns, { name: base })), [exact], `name "${base}" (another project's name starts with it)`);
    expectSameRecords(await search(api, 'projects', { name: base }), [exact], `name "${base}" without other criteria`);
    expectSameRecords(await search(api, 'projects', inNs(ns, { name: longer.name })), [longer], `name "${longer.name}"`);
    expectSameRecords(await search(api, 'projects', inNs(ns, { name: `${ns.id} named` })), [], 'a part of a name is not a full name');
  }),
);

test(
  ...rule(
    'PSEARCH-3',
    'a name outside ASCII (combining marks, a character beyond the BMP, spaces) selects the project with exactly that name',
    async ({ api, ns, profile }) => {
      const base = `${ns.name('named')} Zoë Łukasiewicz 山田 Ọ̀ṣun 𠮷野`;
      const names = [base, `${base} Ąnė̃`];
      const [exact, longer] = await createInOrder(
        'projects',
        { api, ns, profile },
        names.map((name) => ({ name })),
      );
      // The criterion looks for the names sent: steps it rests on are that they were created (PROJ-1) and stored (PROJ-6) as sent.
      expect([exact.name, longer.name], `the Projects are created with the names sent${breaks(['PROJ-1'])}`).toEqual(names);
      const stored = (await search(api, 'projects', inNs(ns))).map((p) => p.name).sort();
      expect(stored, `the Projects are stored with the names sent (a search of the namespace)${breaks(['PROJ-6'])}`).toEqual([...names].sort());
      expectSameRecords(await search(api, 'projects', inNs(ns, { name: base })), [exact], `name "${base}" (another project's name starts with it)`);
      expectSameRecords(await search(api, 'projects', inNs(ns, { name: longer.name })), [longer], `name "${longer.name}"`);
    },
  ),
);

test(
  ...rule('PSEARCH-4', 'statuses selects projects by status name', async ({ api, ns, profile }) => {
    const made = await createInOrder('projects', { api, ns, profile }, [{}, {}]);
    expectOpen(made);
    expectSameRecords(await search(api, 'projects', inNs(ns, { statuses: ['Open'] })), made, 'statuses [Open]: new projects are Open');
    // An empty list of names is answered: it selects no record or restricts nothing (open choice search.empty-list).
    const empty = await search(api, 'projects', inNs(ns, { statuses: [] }));
    expectSameRecords(empty, empty.length ? made : [], 'statuses [] (with the namespace tag): no record, or both');
    const others = profile.fixtures.project_statuses.map((s) => s.name).filter((n) => n !== 'Open');
    if (others.length) {
      expectSameRecords(await search(api, 'projects', inNs(ns, { statuses: others })), [], `statuses ${JSON.stringify(others)}: no new project has them`);
      expectSameRecords(await search(api, 'projects', inNs(ns, { statuses: ['Open', ...others] })), made, 'statuses with Open among others');
    } else {
      test.info().annotations.push({ type: 'note', description: 'the profile names no project status other than Open: only the positive case is checked' });
    }
  }),
);

test(
  ...rule('PSEARCH-4', 'status_ids selects projects by status id', async ({ api, ns, profile }) => {
    const statuses = profile.fixtures.project_statuses;
    const open = statuses.find((s) => s.name === 'Open');
    test.skip(!open, 'the profile names no project status ids (fixtures.project_statuses with Open)');
    const made = await createInOrder('projects', { api, ns, profile }, [{}, {}]);
    expectOpen(made);
    expectSameRecords(await search(api, 'projects', inNs(ns, { status_ids: [open!.id] })), made, `status_ids [${String(open!.id)}] (Open)`);
    const others = statuses.filter((s) => s.name !== 'Open').map((s) => s.id);
    if (others.length)
      expectSameRecords(await search(api, 'projects', inNs(ns, { status_ids: others })), [], `status_ids ${JSON.stringify(others)}: no new project has them`);
  }),
);
