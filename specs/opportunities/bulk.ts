/**
 * Helpers of the bulk specs (spec § Bulk create of Opportunities, § Errors): what the bulk
 * generators need to know about the target, and the position-by-position check of a bulk answer.
 */
import { BulkFailedEntry, BulkOpportunity } from '../../contracts/index.js';
import type { TargetProfile } from '../../contracts/profile.js';
import { describeTemplate, type BulkContext, type EntryTemplate } from '../../generators/bulk.js';
import type { ApiClient, ApiResponse } from '../support/core/http.js';
import { breaks, expect, wireRulesOf } from '../support/fixtures/test.js';
import { customFieldOn } from '../support/leads.js';

/** The run-wide bulk pacing, for the bulk specs (the core layer's, re-exported for them). */
export { bulkCreate, BULK_PATH, refusedWithinPace, reserveBulkWindow, type Quiet } from '../support/core/rate-limit.js';

/** Entries per request: the documented 10, or the target's own limit where its profile declares one (spec § Limits: "may be raised or lowered"). */
export const entriesLimit = (profile: TargetProfile): number => profile.capabilities.bulk_entries_limit;
/** The most entries the specs send in a request the target must accept: 10, or a lower limit. */
export const fullRequest = (profile: TargetProfile): number => Math.min(10, entriesLimit(profile));

/** What the bulk generators need to know about the target: opportunity pipelines, an unknown pipeline id, users, custom fields. */
export async function bulkContext(api: ApiClient, profile: TargetProfile): Promise<BulkContext> {
  const res = await api.get<{ id: string | number; type: string; stages: { id: string | number }[] }[]>('/pipelines');
  expect(res, 'GET /pipelines').toHaveStatus(200);
  const pipelines = res.body
    .filter((p) => p.type === 'opportunity' && Array.isArray(p.stages) && p.stages.length > 0)
    .map((p) => ({ id: p.id, stages: p.stages.map((s) => s.id) }));
  const ids = res.body.map((p) => p.id);
  const unknownPipelineId = ids.every((id) => typeof id === 'number') ? Math.max(0, ...(ids as number[])) + 987_654 : `unknown-pipeline-${Date.now()}`;
  const cf = profile.fixtures.custom_fields;
  return {
    pipelines,
    unknownPipelineId,
    users: profile.fixtures.users.map((u) => u.id),
    customFields: { dropdown: customFieldOn(cf.dropdown, 'opportunity'), multi_select: customFieldOn(cf.multi_select, 'opportunity') },
  };
}

/** The wire rules an entry's contract issues break (timestamps, absent members), when they are all of that kind. */
const wire = (issues: Parameters<typeof wireRulesOf>[1], item: unknown): string[] | undefined => {
  const rules = wireRulesOf(BulkOpportunity, issues, item);
  return rules.length ? rules : undefined;
};

/** An entry the target created, whatever its shape: an object with an id and no `success: false` (BULK-4 judges the rest). */
export const isCreatedEntry = (item: unknown): item is { id: unknown; name?: unknown } & Record<string, unknown> =>
  !!item && typeof item === 'object' && (item as { id?: unknown }).id != null && (item as { success?: unknown }).success !== false;

/**
 * What a failed entry (of the contract's shape) lacks of `{ <field_name>: [ { error: <code> } ] }`:
 * a field named, each by a name that is not blank, each error a code that is not blank; undefined
 * when it lacks nothing.
 */
export function failedEntryLacks(entry: BulkFailedEntry): string | undefined {
  const fields = Object.entries(entry.message);
  if (!fields.length) return `its message names no field: ${JSON.stringify(entry.message)}`;
  const blankField = fields.find(([field]) => field.trim() === '');
  if (blankField) return `a field of its message has a blank name: ${JSON.stringify(entry.message)}`;
  const blankCode = fields.find(([, errors]) => errors.some((x) => x.error.trim() === ''));
  if (blankCode) return `the error of ${blankCode[0]} is a blank code: ${JSON.stringify(entry.message)}`;
  return undefined;
}

/** The first contract issues of the entry at position i, for a message. */
const issuesOf = (issues: Parameters<typeof wireRulesOf>[1], i: number): string =>
  issues
    .slice(0, 4)
    .map((x) => `$[${i}].${x.path.join('.')}: ${x.message}`)
    .join('; ');

/**
 * Problems of a bulk answer, position by position: a valid entry must come back created (the
 * Opportunity with a numeric id and the bulk fields, its name at its own position); a dubious
 * one either created (same checks) or failed (`{ success: false, message: {…} }`). Each names the
 * rule it breaks (`[breaks BULK-4]`): a test of one rule that finds another's broken is blocked by
 * it. An answer out of the request's order is judged on its order alone (BULK-3).
 */
export function bulkAnswerProblems(sent: Record<string, unknown>[], templates: EntryTemplate[], res: ApiResponse): string[] {
  // A request with a bad entry gets 200 too ("Bulk create, one entry invalid: 200 for the request"): BULK-5's.
  const whole = templates.some((t) => t.defect) ? 'BULK-5' : 'BULK-3';
  if (res.status !== 200) return [`a well-formed request of ${sent.length} entries gets 200, got ${res.status}${breaks([whole])}`];
  if (!Array.isArray(res.body)) return [`the answer is an array${breaks(['BULK-3'])}`];
  const got = res.body as unknown[];
  if (got.length !== sent.length) return [`the answer has one item per entry: ${sent.length} sent, ${got.length} answered${breaks(['BULK-3'])}`];
  // An entry created under the name of another position's entry shows the answer out of the
  // request's order: the other positions are then no evidence of which entries failed (a valid
  // entry's place may hold another's failure), so the order alone is judged.
  const names = sent.map((e) => e.name);
  const misplaced = got.flatMap((item, i) => {
    const name = isCreatedEntry(item) ? item.name : undefined;
    if (typeof name !== 'string' || name === names[i]) return [];
    const j = names.findIndex((n, k) => k !== i && n === name);
    return j < 0
      ? []
      : [`[${i}] the entry created at position ${i} is the one sent at position ${j} (named ${JSON.stringify(names[j])}): not the order of the request`];
  });
  if (misplaced.length) return [`${misplaced.join('; ')}${breaks(['BULK-3'])}`];
  const problems: string[] = [];
  got.forEach((item, i) => {
    const t = templates[i];
    const created = BulkOpportunity.safeParse(item);
    const failed = BulkFailedEntry.safeParse(item);
    const label = `[${i}] ${describeTemplate(t)}`;
    if (created.success) {
      if (typeof sent[i].name === 'string' && created.data.name !== sent[i].name)
        problems.push(
          `${label}: the created entry at position ${i} is named ${JSON.stringify(created.data.name)}, the entry sent there ${JSON.stringify(sent[i].name)} (order of the request)${breaks(['BULK-3'])}`,
        );
      return;
    }
    // The order of a close_date's parts in a request is not shown: failing an entry on it alone is the target's call.
    if (!t.defect && t.closeDate && failed.success && Object.keys(failed.data.message).every((k) => k === 'close_date')) return;
    if (!t.defect) {
      problems.push(
        `${label}: a valid entry must be created as an Opportunity with a numeric id and the bulk fields; ${failed.success ? 'it failed' : 'got'} ${JSON.stringify(item).slice(0, 300)} (${issuesOf(created.error.issues, i)})${breaks(failed.success ? [templates.some((x) => x.defect) ? 'BULK-5' : 'BULK-4'] : (wire(created.error.issues, item) ?? ['BULK-4']))}`,
      );
      return;
    }
    if (failed.success) {
      const lacks = failedEntryLacks(failed.data);
      if (lacks)
        problems.push(`${label}: a failed entry is { success: false, message: { <field_name>: [ { error: <code> } ] } }: ${lacks}${breaks(['BULK-5'])}`);
      return;
    }
    // A dubious entry the target created (an id, no `success: false`) whose shape is wrong: BULK-4's
    // (a created entry is the Opportunity), not BULK-5's (what a failed entry is).
    problems.push(
      isCreatedEntry(item)
        ? `${label}: a created entry is the Opportunity with a numeric id and the bulk fields; got ${JSON.stringify(item).slice(0, 300)} (${issuesOf(created.error.issues, i)})${breaks(wire(created.error.issues, item) ?? ['BULK-4'])}`
        : `${label}: an entry is either created or failed as { success: false, message: { <field>: [ { error } ] } }; got ${JSON.stringify(item).slice(0, 300)}${breaks(['BULK-5'])}`,
    );
  });
  return problems;
}
