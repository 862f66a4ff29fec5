/**
 * The known-failure baseline (CRM_EXPECTATIONS): a JSON list of entries, each naming a rule or one
 * test by its full title, with the reason its failure is expected; such a failure does not fail
 * the run (fixtures/rule.ts). An entry may carry an expiry date and an issue link: from the day
 * after `expires` it counts as no entry (the reports list it as expired). Read by parseConfig
 * (core/config.ts).
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { hasRule } from '../../../rules/index.js';
import { ConfigError, readSettingJson } from './config-file.js';

/**
 * One entry of the known-failure baseline (CRM_EXPECTATIONS): the tests of a rule, or one test
 * by its full title, are expected to fail; they do not fail the run.
 */
export const Expectation = z
  .strictObject({
    rule: z
      .string()
      .regex(/^[A-Z]+-\d+$/, 'must be a rule id such as UPSERT-4')
      .optional(),
    title: z.string().min(1, 'must not be empty').optional(),
    reason: z.string().trim().min(1, 'must say why the failure is expected'),
    /** The last day (UTC) the entry holds; from the next day it counts as no entry. */
    expires: z.iso.date('must be a date YYYY-MM-DD (the last day the entry holds)').optional(),
    /** Where the gap is tracked (shown beside the reason). */
    issue: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL of the issue that tracks the gap' }).optional(),
  })
  .refine((e) => (e.rule === undefined) !== (e.title === undefined), 'name either "rule" or "title" (exactly one)');
export type Expectation = z.infer<typeof Expectation>;
const ExpectationList = z.array(Expectation);

/** An entry whose `expires` day is before `today` (YYYY-MM-DD, UTC). */
export const isExpired = (e: Expectation, today: string) => e.expires !== undefined && e.expires < today;

/** An entry as the reports name it: `rule UPSERT-4` or `title "…"`. */
export const describeExpectation = (e: Pick<Expectation, 'rule' | 'title'>) => (e.title !== undefined ? `title "${e.title}"` : `rule ${e.rule}`);

/**
 * Reads and validates the known-failure baseline named by CRM_EXPECTATIONS: the entries that hold
 * (`expectations`) and those past their expiry date (`expired`), which count as no entry.
 */
export function loadExpectations(
  path: string,
  cwd: string = process.cwd(),
  today: string = new Date().toISOString().slice(0, 10),
): { expectations: Expectation[]; expired: Expectation[]; source: string } {
  const file = resolve(cwd, path);
  const parsed = ExpectationList.safeParse(readSettingJson('CRM_EXPECTATIONS', file));
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') || '(value)'}: ${i.message}`,
    );
    throw new ConfigError(`CRM_EXPECTATIONS: ${file} is not a list of { "rule" | "title", "reason", "expires"?, "issue"? }: ${issues.join('; ')}`);
  }
  const unknown = parsed.data.map((e, i) => ({ e, i })).filter(({ e }) => e.rule && !hasRule(e.rule));
  if (unknown.length) throw new ConfigError(`CRM_EXPECTATIONS: ${file}: ${unknown.map(({ e, i }) => `[${i}].rule: unknown rule "${e.rule}"`).join('; ')}`);
  return { expectations: parsed.data.filter((e) => !isExpired(e, today)), expired: parsed.data.filter((e) => isExpired(e, today)), source: file };
}
