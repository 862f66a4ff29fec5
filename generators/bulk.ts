/**
 * Entries of `POST /opportunities/bulk_create` (spec § Bulk create of Opportunities).
 *
 * Generators produce only inputs whose outcome the spec fixes, or whose outcome the suite
 * treats as open:
 * - a *valid* entry has a unique name, the namespace's tags and well-typed members that refer to
 *   things the target has (opportunity pipelines from GET /pipelines, users and custom field
 *   options from the profile): it must be created, unless it is failed on its close_date alone
 *   (sent as MM/DD/YYYY; the order of parts a target reads is not shown, BULK-6 judges it);
 * - a *dubious* entry is a valid one with one defect (no name, an empty name, a numeric name, an
 *   unknown pipeline, a text monetary_value or win_probability). The spec does not say which
 *   entries fail, so such an entry may be created or failed — but it must be one of the two
 *   shapes, at its own position.
 *
 * Templates hold indexes, not values: `materialize` turns one into a request entry with a fresh
 * name from the test's namespace, so a counterexample reads the same in every run. Details are
 * free text as real users write it, outside ASCII too (generators/real-text.ts).
 */
import fc from 'fast-check';
import type { CustomFieldFixture } from '../contracts/profile.js';
import { REAL_NAMES, REAL_TEXTS } from './real-text.js';

export interface BulkContext {
  /** Opportunity pipelines (GET /pipelines, type `opportunity`) with their stage ids. */
  pipelines: { id: string | number; stages: (string | number)[] }[];
  /** A pipeline id the target does not have. */
  unknownPipelineId: string | number;
  /** Users usable as assignee_id (profile). */
  users: (string | number)[];
  /** Custom field definitions available on opportunities (profile). */
  customFields: { dropdown?: CustomFieldFixture; multi_select?: CustomFieldFixture; text?: CustomFieldFixture; number?: CustomFieldFixture };
}

export type Defect = DrawnDefect | ExampleDefect;
/** The defects the property draws. */
export type DrawnDefect = 'no-name' | 'empty-name' | 'numeric-name' | 'unknown-pipeline' | 'text-monetary-value' | 'text-win-probability';
/**
 * Defects only example tests send (specs/opportunities, specs/pipelines), never drawn: an entry
 * that is no object, an ill-typed member, a stage of another pipeline.
 */
export type ExampleDefect = 'not-an-object' | 'ill-typed-member' | 'stage-of-another-pipeline';
export const DEFECTS: Defect[] = ['no-name', 'empty-name', 'numeric-name', 'unknown-pipeline', 'text-monetary-value', 'text-win-probability'];

export interface EntryTemplate {
  defect?: Defect;
  /** What follows the namespaced name: a name as real users write it (generators/real-text.ts). */
  nameTail?: string;
  pipeline?: number;
  monetaryValue?: number;
  closeDate?: { month: number; day: number; year: number };
  details?: string;
  priority?: 'None' | 'Low' | 'High';
  winProbability?: number;
  assignee?: number;
  dropdownOption?: number;
  multiOptions?: number[];
}

const closeDate = fc.record({
  month: fc.integer({ min: 1, max: 12 }),
  // Days above 12 cannot be mistaken for a month, whatever order the answer uses.
  day: fc.integer({ min: 13, max: 28 }),
  year: fc.integer({ min: 2025, max: 2032 }),
});

/** A valid entry's template (every member optional except the name). */
export const validTemplate: fc.Arbitrary<EntryTemplate> = fc.record(
  {
    nameTail: fc.constantFrom(...REAL_NAMES),
    pipeline: fc.nat({ max: 7 }),
    monetaryValue: fc.integer({ min: 0, max: 1_000_000 }),
    closeDate,
    details: fc.constantFrom('bulk entry', 'created in bulk', ...REAL_TEXTS),
    priority: fc.constantFrom('None' as const, 'Low' as const, 'High' as const),
    winProbability: fc.integer({ min: 0, max: 100 }),
    assignee: fc.nat({ max: 7 }),
    dropdownOption: fc.nat({ max: 7 }),
    multiOptions: fc.uniqueArray(fc.nat({ max: 7 }), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

/** A dubious entry: a valid one with one defect. */
export const dubiousTemplate: fc.Arbitrary<EntryTemplate> = fc.tuple(validTemplate, fc.constantFrom(...DEFECTS)).map(([t, defect]) => ({ ...t, defect }));

/** 0..`max` entries (10, or a lower limit of the target), mostly valid. */
export const bulkMix = (max = 10): fc.Arbitrary<EntryTemplate[]> =>
  fc.array(fc.oneof({ weight: 3, arbitrary: validTemplate }, { weight: 2, arbitrary: dubiousTemplate }), { minLength: 0, maxLength: max });

const pad = (n: number) => String(n).padStart(2, '0');
type Day = { month: number; day: number; year: number };
/** "MM/DD/YYYY": how the suite sends a close date (the order a target reads is not shown; see {@link slashDates}). */
export const slashDate = (d: Day) => `${pad(d.month)}/${pad(d.day)}/${d.year}`;
/**
 * One date in the three orders of parts a slash-separated date may have (month, day or year
 * first). With a day above 12, a target that reads one order finds no valid date in the others.
 */
export const slashDates = (d: Day): string[] => [slashDate(d), `${d.year}/${pad(d.month)}/${pad(d.day)}`, `${pad(d.day)}/${pad(d.month)}/${d.year}`];

/** The request entry of a template. `name()` gives a fresh namespaced name. */
export function materialize(t: EntryTemplate, ctx: BulkContext, name: () => string, tags: string[]): Record<string, unknown> {
  const e: Record<string, unknown> = { name: t.nameTail ? `${name()} ${t.nameTail}` : name(), tags };
  if (t.pipeline !== undefined && ctx.pipelines.length) e.pipeline_id = ctx.pipelines[t.pipeline % ctx.pipelines.length].id;
  if (t.monetaryValue !== undefined) e.monetary_value = t.monetaryValue;
  if (t.closeDate) e.close_date = slashDate(t.closeDate);
  if (t.details !== undefined) e.details = t.details;
  if (t.priority !== undefined) e.priority = t.priority;
  if (t.winProbability !== undefined) e.win_probability = t.winProbability;
  if (t.assignee !== undefined && ctx.users.length) e.assignee_id = ctx.users[t.assignee % ctx.users.length];
  const custom: { custom_field_definition_id: string | number; value: unknown }[] = [];
  const { dropdown, multi_select: multi } = ctx.customFields;
  if (t.dropdownOption !== undefined && dropdown?.options.length) {
    custom.push({ custom_field_definition_id: dropdown.id, value: dropdown.options[t.dropdownOption % dropdown.options.length].id });
  }
  if (t.multiOptions?.length && multi?.options.length) {
    const ids = [...new Set(t.multiOptions.map((i) => multi.options[i % multi.options.length].id))];
    custom.push({ custom_field_definition_id: multi.id, value: ids });
  }
  if (custom.length) e.custom_fields = custom;
  switch (t.defect) {
    case 'no-name':
      delete e.name;
      break;
    case 'empty-name':
      e.name = '';
      break;
    case 'numeric-name':
      e.name = 4711;
      break;
    case 'unknown-pipeline':
      e.pipeline_id = ctx.unknownPipelineId;
      break;
    case 'text-monetary-value':
      e.monetary_value = 'a lot';
      break;
    case 'text-win-probability':
      e.win_probability = 'high';
      break;
    default:
      break;
  }
  return e;
}

export function describeTemplate(t: EntryTemplate): string {
  const parts = Object.entries(t)
    .filter(([k]) => k !== 'defect')
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return `${t.defect ? `dubious(${t.defect})` : 'valid'}{${parts.join(', ')}}`;
}
