/**
 * spec § Bulk create of Opportunities (`POST /opportunities/bulk_create`), § Errors, § Opportunity
 * (bulk fields, slash-separated close_date, first stage by default), § Shared shapes (computed
 * custom field values).
 *
 * Every bulk call goes through the run-wide limiter (specs/support/core/rate-limit.ts): at most 3 per
 * second across all workers, 429 answers honoured. Every entry carries the namespace's tags and a
 * namespaced name. Which entries fail is not fixed by the spec: an entry with a defect may be
 * created or failed, but it is one of the two shapes, at its own position. The limit of entries
 * per request is the documented 10 unless the profile declares another
 * (`capabilities.bulk_entries_limit`: the spec says it "may be raised or lowered"); titles say "the
 * limit", the failure messages name its number. The spec gives no read of an Opportunity: what a
 * bulk create stored is not observed (no read is invented for it), only its answer.
 */
import { BulkFailedEntry, BulkOpportunity, BulkTooLarge, type BulkOpportunity as BulkOpp } from '../../contracts/index.js';
import type { TargetProfile } from '../../contracts/profile.js';
import { slashDates, type EntryTemplate } from '../../generators/bulk.js';
import { customFieldOn, customValue } from '../support/leads.js';
import { bulkAnswerProblems, bulkContext, bulkCreate, entriesLimit, failedEntryLacks, fullRequest, isCreatedEntry } from './bulk.js';
import { breaks, describeExchange, expect, expectRefusedOrTaken, rule, test, type ApiResponse, type Namespace } from '../support/fixtures/test.js';
import { make, sameId } from '../support/make.js';
import { absentId } from '../support/records.js';

/** Valid entries: a namespaced name, the namespace's tags, `extra`. */
const entries = (ns: Namespace, count: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: count }, () => ({ name: ns.name('bulk'), tags: ns.tags, ...extra }));

/** The created entry at position i: a step of BULK-3 (200, an array) and BULK-4 (the entry is the Opportunity) for the tests of other rules. */
function createdAt(res: ApiResponse, i: number): BulkOpp {
  expect(res, `a well-formed request gets 200${breaks(['BULK-3'])}`).toHaveStatus(200);
  const item = (res.body as unknown[])[i];
  expect(item, `entry ${i} is created${breaks(['BULK-4'])}`).toMatchContract(BulkOpportunity);
  return item as BulkOpp;
}

const TIMEOUT = { timeout: 60_000 };

const declared = (profile: TargetProfile) => (entriesLimit(profile) === 10 ? '' : ' (the limit the profile declares, capabilities.bulk_entries_limit)');

test(
  ...rule(
    'BULK-1',
    'a request with the limit + 1 entries gets status 422',
    async ({ api, ns, profile }) => {
      const limit = entriesLimit(profile);
      const res = await bulkCreate(api, { opportunities: entries(ns, limit + 1) });
      expect(res, `${limit + 1} entries are more than ${limit}${declared(profile)}`).toHaveStatus(422);
    },
    TIMEOUT,
  ),
);

// Each bulk call spends a third of a second of the run's bulk budget: this one also shows that
// a request well above the limit (the limit + 5) gets the same 422.
test(
  ...rule(
    'BULK-2',
    'the 422 for the limit + 5 entries is { error } naming the limit',
    async ({ api, ns, profile }) => {
      const limit = entriesLimit(profile);
      const res = await bulkCreate(api, { opportunities: entries(ns, limit + 5) });
      expect(res).toHaveStatus(422);
      expect(res).toMatchContract(BulkTooLarge);
      const error = String((res.body as { error?: unknown }).error);
      expect(error, `the error names the limit ${limit}${declared(profile)}\n${describeExchange(res.exchange)}`).toMatch(new RegExp(`(^|\\D)${limit}(\\D|$)`));
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'BULK-3',
    'a request with no entries gets 200 and an empty array',
    async ({ api }) => {
      const res = await bulkCreate(api, { opportunities: [] });
      expect(res).toHaveStatus(200);
      expect(res.body, 'an empty array').toEqual([]);
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'BULK-3',
    'a request with as many entries as the limit (at most 10) gets 200 and an array in the order of the entries',
    async ({ api, ns, profile }) => {
      const sent = entries(ns, fullRequest(profile));
      const res = await bulkCreate(api, { opportunities: sent });
      expect(res).toHaveStatus(200);
      expect(Array.isArray(res.body) && (res.body as unknown[]).length, 'one item per entry').toBe(sent.length);
      const names = (res.body as { name?: unknown }[]).map((x) => x.name);
      expect(names, 'the created entries in the order of the request').toEqual(sent.map((e) => e.name));
    },
    TIMEOUT,
  ),
);

// The order holds whichever entries fail: an answer that lists the created entries first and the
// failed ones after them (or the reverse) breaks it only when a defective entry comes first.
test(
  ...rule(
    'BULK-3',
    'defective entries before valid ones: every created entry is answered at the position of its entry',
    async ({ api, ns }, testInfo) => {
      const odd = () => ({ name: ns.name('odd value'), tags: ns.tags, monetary_value: 'a lot' });
      const sent = [odd(), ...entries(ns, 1), odd(), ...entries(ns, 1)];
      const res = await bulkCreate(api, { opportunities: sent });
      // A request with failed entries is answered entry by entry (BULK-5), not refused as a whole.
      expect(res, `the request is answered entry by entry${breaks(['BULK-3', 'BULK-5'])}`).toHaveStatus(200);
      const got = res.body as unknown[];
      expect(Array.isArray(got) && got.length, 'one item per entry').toBe(sent.length);
      // A target may create an entry with a text monetary_value or fail it: either way at its position.
      const misplaced = got.flatMap((item, i) =>
        isCreatedEntry(item) && item.name !== sent[i].name ? [`[${i}] ${JSON.stringify(item.name)} where ${JSON.stringify(sent[i].name)} was sent`] : [],
      );
      expect(misplaced, `every created entry at the position of its entry\n${describeExchange(res.exchange)}`).toEqual([]);
      if (!got.some(isCreatedEntry)) testInfo.annotations.push({ type: 'note', description: 'the target created none of the entries: no position to judge' });
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'BULK-4',
    'a created entry is the Opportunity with a numeric id and the bulk-create fields',
    async ({ api, ns }) => {
      const res = await bulkCreate(api, { opportunities: entries(ns, 2, { monetary_value: 100 }) });
      for (const i of [0, 1]) {
        const opp = createdAt(res, i);
        expect(Number.isInteger(opp.id), `entry ${i}: id is a number`).toBe(true);
      }
      expect(sameId(createdAt(res, 0).id, createdAt(res, 1).id), 'two entries, two Opportunities').toBe(false);
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'BULK-5',
    'a failed entry is { success: false, message: { <field>: [ { error } ] } } and the valid entries are still created',
    async ({ api, ns, profile }, testInfo) => {
      // Every kind of dubious entry but an unknown pipeline (the property draws them at random), within the target's limit.
      const cases: [Record<string, unknown>, EntryTemplate][] = [
        // Members that are "string or null" / "identifier or null" (§ Opportunity) sent as null: a valid entry still.
        [{ name: ns.name('valid'), tags: ns.tags, details: null, close_date: null, assignee_id: null }, {}],
        [{ tags: ns.tags, details: 'no name' }, { defect: 'no-name' }],
        [{ name: ns.name('valid'), tags: ns.tags }, {}],
        [{ name: ns.name('odd value'), tags: ns.tags, monetary_value: 'a lot' }, { defect: 'text-monetary-value' }],
        [{ name: ns.name('odd probability'), tags: ns.tags, win_probability: 'high' }, { defect: 'text-win-probability' }],
        [{ name: 4711, tags: ns.tags }, { defect: 'numeric-name' }],
        [{ name: '', tags: ns.tags }, { defect: 'empty-name' }],
      ].slice(0, fullRequest(profile)) as [Record<string, unknown>, EntryTemplate][];
      const sent = cases.map(([entry]) => entry);
      const templates = cases.map(([, template]) => template);
      const res = await bulkCreate(api, { opportunities: sent });
      expect(bulkAnswerProblems(sent, templates, res), `position by position\n${describeExchange(res.exchange)}`).toEqual([]);
      const failed = (res.body as unknown[]).filter((x) => BulkFailedEntry.safeParse(x).success).length;
      if (!failed)
        testInfo.annotations.push({
          type: 'note',
          description:
            'the target created every entry (including those without a name or with a text monetary_value or win_probability): no failed entry to judge',
        });
    },
    TIMEOUT,
  ),
);

// The order of the parts a target reads is not shown: the date goes in each order, one entry
// each (day 27 is no month, so a target reading one order finds no date in the others; one that
// reads them leniently may roll one over into another date, which is noted, not judged). Every
// close_date created is slash-separated, and some entry created carries the date sent. A fourth
// entry sends the date as a number (Unix seconds): ill-typed, it may be failed or taken leniently
// (WIRE-5; what a number names is not stated), but created, its close_date is null or a
// slash-separated date string, not the number nor another form.
test(
  ...rule(
    'BULK-6',
    'close_date of a created entry is a slash-separated date string of the date sent',
    async ({ api, ns }, testInfo) => {
      const date = { month: 3, day: 27, year: 2031 };
      const sent = slashDates(date).map((close_date) => ({ name: ns.name('bulk'), tags: ns.tags, close_date }));
      const stamp = { name: ns.name('bulk'), tags: ns.tags, close_date: Date.UTC(date.year, 0, date.day, 12) / 1000 };
      const res = await bulkCreate(api, { opportunities: [...sent, stamp] });
      // Orders the target may fail entry by entry: the request is still answered 200 (BULK-5).
      expect(res, `a well-formed request gets 200${breaks(['BULK-3', 'BULK-5'])}`).toHaveStatus(200);
      const got = Array.isArray(res.body) ? (res.body as unknown[]) : [];
      expect(got.length, `one item per entry${breaks(['BULK-3'])}\n${describeExchange(res.exchange)}`).toBe(sent.length + 1);
      // An entry not created is failed (BULK-5's shape): a field named, with a code.
      const unshaped = got.flatMap((item, i) => {
        if (isCreatedEntry(item)) return [];
        const failed = BulkFailedEntry.safeParse(item);
        const lacks = failed.success ? failedEntryLacks(failed.data) : `neither created nor failed: ${JSON.stringify(item).slice(0, 200)}`;
        return lacks ? [`[${i}] ${lacks}`] : [];
      });
      expect(unshaped, `every entry not created is { success: false, message: { <field_name>: [ { error: <code> } ] } }${breaks(['BULK-5'])}`).toEqual([]);
      const asNumber = got[sent.length];
      if (isCreatedEntry(asNumber))
        expect(
          asNumber.close_date === null || /^\d{1,4}\/\d{1,2}\/\d{1,4}$/.test(String(asNumber.close_date)),
          `close_date of the entry sent as the number ${stamp.close_date}, created: null or a slash-separated date string, got ${JSON.stringify(asNumber.close_date)}\n${describeExchange(res.exchange)}`,
        ).toBe(true);
      // Created: an entry with an id that is no failed entry (the rest of its shape is BULK-4's to judge).
      const created = got.slice(0, sent.length).flatMap((item, i) => (isCreatedEntry(item) ? [{ opp: item as BulkOpp, as: sent[i].close_date }] : []));
      expect(
        created.length,
        `the date sent as ${sent.map((e) => e.close_date).join(', ')}: an entry in at least one order is created\n${describeExchange(res.exchange)}`,
      ).toBeGreaterThan(0);
      for (const { opp, as } of created) expect(opp.close_date, `close_date of the entry sent as ${as}`).toMatch(/^\d{1,4}\/\d{1,2}\/\d{1,4}$/);
      const want = [date.month, date.day, date.year].sort((a, b) => a - b).join('/');
      const partsOf = (v: unknown) =>
        String(v)
          .split('/')
          .map(Number)
          .map((n) => (n < 100 && n > 31 ? 2000 + n : n))
          .sort((a, b) => a - b)
          .join('/');
      const other = created.filter(({ opp }) => partsOf(opp.close_date) !== want);
      expect(
        other.length < created.length,
        `some entry created carries the month, day and year sent; got ${created.map(({ opp, as }) => `${JSON.stringify(opp.close_date)} for ${as}`).join(', ')}\n${describeExchange(res.exchange)}`,
      ).toBe(true);
      if (other.length)
        testInfo.annotations.push({
          type: 'note',
          description: `entries sent in an order the target does not read were created with another date: ${other.map(({ opp, as }) => `${as} → ${String(opp.close_date)}`).join(', ')}`,
        });
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'BULK-7',
    'an entry with pipeline_id and no pipeline_stage_id lands in the first stage of that pipeline',
    async ({ api, ns, profile }) => {
      const ctx = await bulkContext(api, profile);
      test.skip(ctx.pipelines.length === 0, 'GET /pipelines lists no opportunity pipeline with stages');
      const sent = ctx.pipelines.slice(0, 3).map((p) => ({ name: ns.name('stage'), tags: ns.tags, pipeline_id: p.id }));
      const res = await bulkCreate(api, { opportunities: sent });
      sent.forEach((e, i) => {
        const opp = createdAt(res, i);
        const p = ctx.pipelines[i];
        expect(sameId(opp.pipeline_id, p.id), `entry ${i}: pipeline_id ${String(p.id)}`).toBe(true);
        expect(
          sameId(opp.pipeline_stage_id, p.stages[0]),
          `entry ${i}: the first stage of pipeline ${String(p.id)} is ${String(p.stages[0])}, got ${String(opp.pipeline_stage_id)}`,
        ).toBe(true);
      });
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'BULK-8',
    'the bulk answer carries option names instead of option ids',
    async ({ api, ns, profile }) => {
      const ctx = await bulkContext(api, profile);
      const { dropdown, multi_select: multi } = ctx.customFields;
      test.skip(!dropdown && !multi, 'the profile has no dropdown or multi-select custom field available on opportunities');
      const cf = [
        ...(dropdown ? [{ custom_field_definition_id: dropdown.id, value: dropdown.options[dropdown.options.length - 1].id }] : []),
        ...(multi ? [{ custom_field_definition_id: multi.id, value: [multi.options[0].id] }] : []),
      ];
      const res = await bulkCreate(api, { opportunities: entries(ns, 1, { custom_fields: cf }) });
      const opp = createdAt(res, 0);
      if (dropdown)
        expect(customValue(opp, dropdown.id), `dropdown ${String(dropdown.id)} as its option name`).toBe(dropdown.options[dropdown.options.length - 1].name);
      if (multi) expect(customValue(opp, multi.id), `multi-select ${String(multi.id)} as option names`).toEqual([multi.options[0].name]);
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'BULK-11',
    'a created entry carries the members sent for it (a Person as its primary contact, status Open among them)',
    async ({ api, ns, profile }) => {
      const ctx = await bulkContext(api, profile);
      const pipeline = ctx.pipelines[0];
      const user = ctx.users[0];
      const contact = await make.person({ api, ns });
      const sent = {
        name: ns.name('members'),
        tags: ns.tags,
        details: 'bulk details',
        monetary_value: 2500,
        priority: 'High',
        status: 'Open',
        win_probability: 40,
        primary_contact_id: contact.id,
        ...(pipeline ? { pipeline_id: pipeline.id } : {}),
        ...(user !== undefined ? { assignee_id: user } : {}),
      };
      const res = await bulkCreate(api, { opportunities: [sent] });
      const opp = createdAt(res, 0);
      expect(opp.name, 'name').toBe(sent.name);
      expect(opp.details, 'details').toBe('bulk details');
      expect(opp.monetary_value, 'monetary_value').toBe(2500);
      expect(opp.priority, 'priority').toBe('High');
      expect(opp.win_probability, 'win_probability').toBe(40);
      expect(opp.status, 'status').toBe('Open');
      expect(sameId(opp.primary_contact_id, contact.id), `primary_contact_id: the Person ${String(contact.id)}`).toBe(true);
      expect(opp.tags, 'tags').toEqual(expect.arrayContaining(ns.tags));
      if (pipeline) expect(sameId(opp.pipeline_id, pipeline.id), 'pipeline_id').toBe(true);
      if (user !== undefined) expect(sameId(opp.assignee_id, user), 'assignee_id').toBe(true);
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'BULK-12',
    'three bulk requests a second apart, then three at once, paced within 3 a second by the run-wide schedule, are each answered without 429',
    async ({ api }) => {
      // bulkCreate throws the finding, with the schedule that proves the pace, on a 429 to a paced request.
      // The first three are each followed by a pause of more than a second: what was counted a second ago no longer counts
      // (a count that kept them would refuse the fourth), and the last three go at once.
      for (let i = 0; i < 6; i++) {
        const res = await bulkCreate(api, { opportunities: [] });
        expect(res.status, `paced bulk request ${i + 1} of 6 is not refused for the bulk rate`).not.toBe(429);
        if (i < 3) await new Promise((r) => setTimeout(r, 1_050));
      }
    },
    TIMEOUT,
  ),
);

// spec § Errors (WIRE-5): entries that are no Opportunity body, or whose members have the wrong
// type, are never answered with a 5xx. The request may be refused with a 4xx (the status is not
// shown), or answered entry by entry: each such entry failed, or created as a valid Opportunity
// (whatever the target made of the ill-typed member); the valid entry among them is created. The
// same for ids that name nothing, as a company_id no Company has (people/bad-input.spec.ts): a custom
// field value of no definition, a dropdown value of no option ("Status codes for missing records …
// not shown"; the definitions and options are the profile's).
test(
  ...rule(
    'WIRE-5',
    'POST /opportunities/bulk_create with entries that are no objects or have ill-typed members is refused with a 4xx, or answered entry by entry',
    async ({ api, ns, profile }) => {
      const named = (label: string, extra: Record<string, unknown>) => ({ name: ns.name(label), tags: ns.tags, ...extra });
      const odd: EntryTemplate = { defect: 'ill-typed-member' };
      const dropdown = customFieldOn(profile.fixtures.custom_fields.dropdown, 'opportunity');
      const cases: [unknown, EntryTemplate][] = [
        [null, { defect: 'not-an-object' }],
        // Valid: tags and custom_fields may be empty lists (§ Shared shapes: custom_fields "may be empty"), and be left out.
        [{ name: ns.name('empty lists'), tags: [], custom_fields: [] }, {}],
        // Valid: a name only (no member is said to be required but the name).
        [{ name: ns.name('name only') }, {}],
        // An id that is a fraction: no identifier (one member an entry, so each is judged on its own).
        ...['assignee_id', 'primary_contact_id', 'customer_source_id'].map((k): [unknown, EntryTemplate] => [named(`fractional ${k}`, { [k]: 1.5 }), odd]),
        [named('text tags', { tags: ns.tags.join(' ') }), odd],
        [named('object custom_fields', { custom_fields: { custom_field_definition_id: 1, value: 'x' } }), odd],
        [named('null custom field', { custom_fields: [null] }), odd],
        [
          named('custom field and option unknown', {
            custom_fields: [
              { custom_field_definition_id: absentId(dropdown?.id ?? 1, ns.id), value: 'x' },
              ...(dropdown ? [{ custom_field_definition_id: dropdown.id, value: absentId(dropdown.options[0].id, ns.id) }] : []),
            ],
          }),
          odd,
        ],
      ].slice(0, fullRequest(profile)) as [unknown, EntryTemplate][];
      const sent = cases.map(([entry]) => entry);
      const res = await bulkCreate(api, { opportunities: sent });
      await expectRefusedOrTaken(res, (taken) => {
        const objects = sent.map((e) => (e && typeof e === 'object' ? e : {})) as Record<string, unknown>[];
        const problems = bulkAnswerProblems(
          objects,
          cases.map(([, t]) => t),
          taken,
        );
        expect(problems, `entry by entry\n${describeExchange(taken.exchange)}`).toEqual([]);
      });
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'WIRE-5',
    'POST /opportunities/bulk_create with a body whose opportunities is no list is refused with a 4xx, or answered with a list',
    async ({ api, ns }) => {
      const res = await bulkCreate(api, { opportunities: { name: ns.name('not a list'), tags: ns.tags } });
      await expectRefusedOrTaken(res, (taken) =>
        expect(Array.isArray(taken.body), `a bulk create taken is answered with a list\n${describeExchange(taken.exchange)}`).toBe(true),
      );
    },
    TIMEOUT,
  ),
);
