/**
 * spec § What the service does: "Fields that are absent or empty are returned as `null` (lists as
 * `[]`)" (WIRE-3), for empty strings: an empty string is an empty field, so a member whose type
 * admits null ("string or null") sent as "" comes back as null, never as "". The address table's
 * one allowance ("`country` may be null or empty") shows that elsewhere an empty string does not
 * come back as itself (the choice records.empty-strings, once open, is decided: rules/choices.json).
 * A member that is a plain string (`name`, an address's parts) is out of it and never sent empty.
 *
 * People and Companies are judged by PEOPLE-3 and COMPANY-6 (their create specs); here a Project
 * (on create and in a search by id) and a Lead (created, read back, and updated by upsert).
 */
import type { Lead } from '../../contracts/index.js';
import { byEmail, expectLead, readLead, updateRules, upsert } from '../support/leads.js';
import { search } from '../support/search.js';
import { breaks, expect, rule, test } from '../support/fixtures/test.js';
import { made, make, sameId } from '../support/make.js';

/** The members of `record` among `fields` that are not null, as `member: value`. */
const notNull = (record: unknown, fields: string[]): string[] =>
  fields
    .filter((f) => (record as Record<string, unknown> | undefined)?.[f] !== null)
    .map((f) => `${f}: ${JSON.stringify((record as Record<string, unknown>)?.[f])}`);

test(
  ...rule('WIRE-3', 'a Project created with details "" answers details null, on create and in a search by id', async ({ api, ns }) => {
    const { record } = await made.project({ api, ns }, { details: '' });
    expect(notNull(record, ['details']), 'the create answers the empty details as null').toEqual([]);
    const read = (await search(api, 'projects', { ids: [record.id] })).find((p) => sameId(p.id, record.id));
    expect(read, `the search by id finds Project ${String(record.id)}${breaks(['SEARCH-14'])}`).toBeTruthy();
    expect(notNull(read, ['details']), 'the search answers the empty details as null').toEqual([]);
  }),
);

test(
  ...rule('WIRE-3', 'a Lead upserted with empty strings answers them null: on create, when matched again, and after an update to ""', async ({ api, ns }) => {
    const empty = ['prefix', 'suffix', 'title', 'details', 'company_name', 'monetary_unit'];
    const lead: Lead = await make.lead({ api, ns }, Object.fromEntries(empty.map((f) => [f, ''])), 'empty-strings');
    expect(notNull(lead, empty), 'the create answers the members sent as "" as null').toEqual([]);
    const match = byEmail(lead.email!.email);
    expect(notNull(await readLead(api, match, lead.id), empty), 'matched again, the Lead has them null').toEqual([]);
    const filled = expectLead(await upsert(api, { details: 'to be emptied' }, match), 'an update setting details', updateRules(match));
    expect(filled.details, `the update sets details${breaks(updateRules(match))}`).toBe('to be emptied');
    const emptied = expectLead(await upsert(api, { details: '' }, match), 'an update setting details to ""', updateRules(match));
    expect(notNull(emptied, ['details']), 'an update to "" answers details null').toEqual([]);
  }),
);
