/**
 * spec § Endpoints → Projects (`POST /projects`, `POST /projects/search`), § Resources → Project,
 * § Shared shapes (computed custom field values). The status of a create is not shown: any 2xx
 * with a Project. A created Project is the record stored: a search by its id answers it as the
 * create did (PROJ-6), names and free text outside ASCII included.
 */
import { Project, ProjectList } from '../../contracts/index.js';
import { REAL_TEXTS } from '../../generators/real-text.js';
import { idOf, inNs, search } from '../support/search.js';
import { breaks, expect, isAccepted, rule, test } from '../support/fixtures/test.js';
import { expectCreated, made, make, realName, sameId, type Rec } from '../support/make.js';
import { customFieldValues, storedDifferences } from '../support/records.js';

test(
  ...rule(
    'PROJ-1',
    'POST /projects answers a Project carrying the name, details, owner, related resource, tags and custom field sent',
    async ({ api, ns, profile }) => {
      const user = profile.fixtures.users[0]?.id;
      const text = profile.fixtures.custom_fields.text;
      const company = await make.company({ api, ns });
      const body: Record<string, unknown> = {
        name: ns.name('project with every field'),
        details: `details of ${ns.id}`,
        tags: [`${ns.id}-extra`],
        ...(user !== undefined ? { assignee_id: user } : {}),
        ...(company ? { related_resource: { id: company.id, type: 'company' } } : {}),
        ...(text ? { custom_fields: [{ custom_field_definition_id: text.id, value: `code ${ns.id}` }] } : {}),
      };
      const p = await make.project({ api, ns }, body);
      expect(p.name, 'name').toBe(body.name);
      expect(p.details, 'details').toBe(body.details);
      expect([...p.tags].sort(), 'tags').toEqual([...ns.tags, `${ns.id}-extra`].sort());
      if (user !== undefined) expect(String(p.assignee_id), 'assignee_id').toBe(String(user));
      if (company) {
        const rr = p.related_resource as { id: unknown; type: unknown } | null;
        expect(rr && String(rr.id), 'related_resource.id').toBe(String(company.id));
        expect(rr?.type, 'related_resource.type').toBe('company');
      }
      if (text) {
        const cf = (p.custom_fields as { custom_field_definition_id: unknown; value: unknown }[]).find(
          (c) => String(c.custom_field_definition_id) === String(text.id),
        );
        expect(cf?.value, `custom field ${String(text.id)} (text)`).toBe(`code ${ns.id}`);
      }
    },
  ),
);

test(
  ...rule('PROJ-2', 'a created Project has status Open', async ({ api, ns }) => {
    const p = await make.project({ api, ns }, { name: ns.name('open project') });
    expect(p.status, 'status of a new Project').toBe('Open');
  }),
);

test(
  ...rule('PROJ-2', 'a Project created with status Open sent (an optional member) has status Open', async ({ api, ns }) => {
    const p = await make.project({ api, ns }, { name: ns.name('open project sent'), status: 'Open' });
    expect(p.status, 'status of a new Project').toBe('Open');
  }),
);

test(
  ...rule('PROJ-3', 'POST /projects without a name, or with a null name, is refused and creates nothing', async ({ api, ns }, testInfo) => {
    for (const body of [
      { details: `no name ${ns.id}`, tags: ns.tags },
      { name: null, tags: ns.tags },
    ]) {
      const res = await api.post('/projects', body);
      expect(res).toBeRefused();
    }
    // A name that is a number is no string, but whether a server refuses it or reads it as "42" is
    // not said (the bulk specs accept either, too): only what it did is noted.
    const numeric = await api.post<Project>('/projects', { name: 42, tags: ns.tags });
    const accepted = isAccepted(numeric) ? idOf(numeric.body) : undefined;
    if (accepted !== undefined)
      testInfo.annotations.push({
        type: 'note',
        description: `a name that is the number 42 was accepted (${numeric.status}), as ${JSON.stringify(numeric.body?.name)}`,
      });
    const found = (await search(api, 'projects', inNs(ns))).map(idOf).filter((id) => accepted === undefined || !sameId(id, accepted));
    expect(found, 'no Project of this namespace exists after the refused creates').toEqual([]);
  }),
);

test(
  ...rule(
    'PROJ-4',
    'project create answers computed custom field values: dropdown and multi-select option names instead of ids',
    async ({ api, ns, profile }) => {
      const { dropdown, multi_select: multi } = profile.fixtures.custom_fields;
      test.skip(
        !dropdown?.options.length || !multi || multi.options.length < 2,
        'the profile names no dropdown and multi-select custom fields with options (fixtures.custom_fields)',
      );
      const [m1, m2] = multi!.options;
      const p = await make.project(
        { api, ns },
        {
          custom_fields: [
            { custom_field_definition_id: dropdown!.id, value: dropdown!.options[0].id },
            { custom_field_definition_id: multi!.id, value: [m1.id, m2.id] },
          ],
        },
      );
      const value = (id: unknown) =>
        (p.custom_fields as { custom_field_definition_id: unknown; value: unknown }[]).find((c) => String(c.custom_field_definition_id) === String(id))?.value;
      expect(value(dropdown!.id), `dropdown ${String(dropdown!.id)}: the option name instead of option id ${String(dropdown!.options[0].id)}`).toBe(
        dropdown!.options[0].name,
      );
      const names = value(multi!.id);
      expect(Array.isArray(names) ? [...names].sort() : names, `multi-select ${String(multi!.id)}: the option names`).toEqual([m1.name, m2.name].sort());
    },
  ),
);

test(
  ...rule('PROJ-5', 'a body with only a name (and the namespace tags) creates a Project; absent fields are null and lists []', async ({ api, ns }) => {
    const res = await api.post<Record<string, unknown>>('/projects', { name: ns.name('minimal project'), tags: ns.tags });
    expect(res, 'accepted (any 2xx: the spec shows no status)').not.toBeRefused();
    expect(res).toMatchContract(Project);
    const p = res.body;
    expect(p.details, 'details not sent ⇒ null').toBeNull();
    expect(p.related_resource, 'related_resource not sent ⇒ null').toBeNull();
    expect(Array.isArray(p.custom_fields), 'custom_fields is a list (it may be empty)').toBe(true);
    expect([...(p.tags as string[])].sort(), 'tags').toEqual([...ns.tags].sort());
  }),
);

test(
  ...rule('PROJ-1', 'POST /projects answers a name, details and a tag outside ASCII as sent', async ({ api, ns }) => {
    const body = { name: `${ns.name('projekt')} Zoë Łukasiewicz 山田 Ọ̀ṣun`, details: REAL_TEXTS.join(' / '), tags: [`${ns.id} équipe Kraków`] };
    const p = await make.project({ api, ns }, body);
    expect(p.name, 'name').toBe(body.name);
    expect(p.details, 'details').toBe(body.details);
    expect(p.tags, 'tags').toEqual(expect.arrayContaining(body.tags));
  }),
);

test(
  ...rule(
    'PROJ-6',
    'a search by id answers every member the create answered, for a Project with every field and one with its name only',
    async ({ api, ns, profile }) => {
      const user = profile.fixtures.users[0]?.id;
      const company = await make.company({ api, ns });
      const custom = customFieldValues(profile, 'project', REAL_TEXTS[0]);
      const full = await made.project(
        { api, ns },
        {
          name: `${ns.name('stored project')} 𠮷野 Zoë`,
          details: `${REAL_TEXTS[5]}: ${REAL_TEXTS[3]}`,
          tags: [`${ns.id} équipe 𠮷`],
          related_resource: { id: company.id, type: 'company' },
          ...(user !== undefined ? { assignee_id: user } : {}),
          ...(custom.length ? { custom_fields: custom } : {}),
        },
      );
      // Its name only: no tags, no custom fields. Only a record whose lists are empty shows what the
      // search makes of an empty list (every other record carries the namespace's tags).
      const bare = await api.post<Rec>('/projects', { name: realName(ns, 'project with its name only') });
      expectCreated(bare, 'Project', 'PROJ-1');
      const found = await api.post<Rec[]>('/projects/search', { ids: [full.record.id, bare.body.id] });
      expect(found, `a search by id${breaks(['SEARCH-1'])}`).toHaveStatus(200);
      // A list answered null names WIRE-3 (fixtures/matchers.ts wireRulesOf).
      expect(found).toMatchContract(ProjectList);
      for (const [what, created] of [
        ['the Project with every field', full.record],
        ['the Project with its name only', bare.body],
      ] as const) {
        const read = found.body.find((p) => sameId(p.id, created.id));
        expect(read, `the search by ids finds ${what}, ${String(created.id)}${breaks(['SEARCH-14'])}`).toBeTruthy();
        expect(storedDifferences(created, read, { profile }), `${what}: the search answers it as the create did`).toEqual([]);
      }
    },
  ),
);
