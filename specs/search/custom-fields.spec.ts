/**
 * spec § Endpoints → Projects and Tasks (`custom_fields` criterion: `allow_empty`,
 * `minimum_value` + `maximum_value`) and § Shared shapes (project and task search return
 * computed custom field values). The custom field definitions come from the profile
 * (fixtures.custom_fields): the spec shows no way to create them.
 */
import type { CustomFieldFixture } from '../../contracts/index.js';
import { createInOrder, expectSameRecords, idsOf, inNs, needTaskCreate, search, type Kind, type Rec } from '../support/search.js';
import { expect, rule, test } from '../support/fixtures/test.js';

const KINDS: Kind[] = ['projects', 'tasks'];
const label = (kind: Kind) => (kind === 'projects' ? 'project search' : 'task search');
const entity = (kind: Kind) => (kind === 'projects' ? 'project' : 'task');

function usable(def: CustomFieldFixture | undefined, kind: Kind, options = 0): def is CustomFieldFixture {
  return !!def && def.options.length >= options && (!def.available_on.length || def.available_on.includes(entity(kind)));
}
const cf = (def: CustomFieldFixture, value: unknown) => ({ custom_fields: [{ custom_field_definition_id: def.id, value }] });
const valueOf = (r: Rec, def: CustomFieldFixture) =>
  (r.custom_fields as { custom_field_definition_id: unknown; value: unknown }[]).find((c) => String(c.custom_field_definition_id) === String(def.id))?.value;

for (const kind of KINDS) {
  test(
    ...rule(
      'SEARCH-11',
      `${label(kind)}: custom_fields with allow_empty selects the records whose dropdown or multi-select value is empty`,
      async ({ api, ns, profile }) => {
        if (kind === 'tasks') needTaskCreate(profile);
        const { dropdown, multi_select: multi } = profile.fixtures.custom_fields;
        test.skip(
          !usable(dropdown, kind, 1) && !usable(multi, kind, 1),
          `the profile names no dropdown or multi-select custom field with options available on ${kind}`,
        );
        if (usable(dropdown, kind, 2)) {
          const made = await createInOrder(kind, { api, ns, profile }, [
            { tags: [`${ns.id}-dd`], ...cf(dropdown, dropdown.options[0].id) },
            { tags: [`${ns.id}-dd`], ...cf(dropdown, null) },
            { tags: [`${ns.id}-dd`], ...cf(dropdown, dropdown.options[1].id) },
            { tags: [`${ns.id}-dd`] },
          ]);
          const [, empty, , absent] = made;
          // Independent searches, sent together: a far target answers them in one round trip.
          const [found, notEmpty] = await Promise.all(
            [true, false].map((allow_empty) =>
              search(api, kind, { tags: [`${ns.id}-dd`], custom_fields: [{ custom_field_definition_id: dropdown.id, allow_empty }] }),
            ),
          );
          // A record created without the field has no value: "absent or empty … returned as null".
          expectSameRecords(found, [empty, absent], `dropdown ${String(dropdown.id)} allow_empty: the records set to null and without the field`);
          // What allow_empty: false selects is not said (every record, those with a value, or none): only that it is not what true selects.
          expect(
            [...idsOf(notEmpty)].sort().join() === [...idsOf(found)].sort().join() && found.length > 0,
            `dropdown ${String(dropdown.id)} allow_empty false is not answered as allow_empty true (the empty records alone): the boolean is read`,
          ).toBe(false);
          expect(
            idsOf(notEmpty).filter((id) => !idsOf(made).includes(id)),
            `dropdown ${String(dropdown.id)} allow_empty false: only records of the searched tag`,
          ).toEqual([]);
        }
        if (usable(multi, kind, 2)) {
          const [, none, , absent] = await createInOrder(kind, { api, ns, profile }, [
            { tags: [`${ns.id}-ms`], ...cf(multi, [multi.options[0].id]) },
            { tags: [`${ns.id}-ms`], ...cf(multi, []) },
            { tags: [`${ns.id}-ms`], ...cf(multi, [multi.options[0].id, multi.options[1].id]) },
            { tags: [`${ns.id}-ms`] },
          ]);
          const found = await search(api, kind, { tags: [`${ns.id}-ms`], custom_fields: [{ custom_field_definition_id: multi.id, allow_empty: true }] });
          expectSameRecords(found, [none, absent], `multi-select ${String(multi.id)} allow_empty: the records with no option and without the field`);
        }
      },
    ),
  );

  test(
    ...rule(
      'SEARCH-12',
      `${label(kind)}: custom_fields with minimum_value and maximum_value bounds a numeric value, inclusively`,
      async ({ api, ns, profile }) => {
        if (kind === 'tasks') needTaskCreate(profile);
        const num = profile.fixtures.custom_fields.number;
        test.skip(!usable(num, kind), `the profile names no number custom field available on ${kind} (fixtures.custom_fields.number)`);
        const made = await createInOrder(
          kind,
          { api, ns, profile },
          [5, 10, 15, 20, null].map((v) => cf(num!, v)),
        );
        const at = (lo: number, hi: number) =>
          made.filter((r) => typeof valueOf(r, num!) === 'number' && (valueOf(r, num!) as number) >= lo && (valueOf(r, num!) as number) <= hi);
        const range = (minimum_value: number, maximum_value: number) =>
          inNs(ns, { custom_fields: [{ custom_field_definition_id: num!.id, minimum_value, maximum_value }] });
        // Independent searches, sent together: a far target answers them in one round trip.
        const [both, one, inner, none, low] = await Promise.all(
          [range(10, 15), range(10, 10), range(6, 19), range(21, 30), range(0, 5)].map((r) => search(api, kind, r)),
        );
        expectSameRecords(both, at(10, 15), 'values 10..15 (both bounds are values of records)');
        expectSameRecords(one, at(10, 10), 'values 10..10');
        expectSameRecords(inner, at(6, 19), 'values 6..19');
        expectSameRecords(none, [], 'values 21..30: none');
        // A record without a value (null) is not within any bounds, not even bounds around 0.
        expectSameRecords(low, at(0, 5), 'values 0..5: the record valued 5, not the one without a value');
        expect(at(10, 15).length, 'the records keep the values sent').toBe(2);
      },
    ),
  );

  test(
    ...rule('SEARCH-13', `${label(kind)} results carry computed custom field values: option names instead of option ids`, async ({ api, ns, profile }) => {
      if (kind === 'tasks') needTaskCreate(profile);
      const { dropdown, multi_select: multi } = profile.fixtures.custom_fields;
      test.skip(
        !usable(dropdown, kind, 1) || !usable(multi, kind, 2),
        `the profile names no dropdown and multi-select custom fields with options available on ${kind}`,
      );
      const [m1, m2] = multi!.options;
      const [made] = await createInOrder(kind, { api, ns, profile }, [
        {
          custom_fields: [
            { custom_field_definition_id: dropdown!.id, value: dropdown!.options[0].id },
            { custom_field_definition_id: multi!.id, value: [m1.id, m2.id] },
          ],
        },
      ]);
      const [found] = await search(api, kind, inNs(ns, { ids: [made.id] }));
      expect(found, 'the record is found by its id').toBeTruthy();
      expect(valueOf(found, dropdown!), `dropdown ${String(dropdown!.id)}: option name, not id ${String(dropdown!.options[0].id)}`).toBe(
        dropdown!.options[0].name,
      );
      const names = valueOf(found, multi!);
      expect(Array.isArray(names) ? [...(names as unknown[])].map(String).sort() : names, `multi-select ${String(multi!.id)}: option names`).toEqual(
        [m1.name, m2.name].sort(),
      );
    }),
  );
}
