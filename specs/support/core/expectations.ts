/**
 * The known-failure baseline (CRM_EXPECTATIONS): a JSON list of entries, each naming a rule or one
 * test by its full title, with the reason its failure is expected; such a failure does not fail
 * the run (fixtures/rule.ts). Read by parseConfig (core/config.ts).
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
  })
  .refine((e) => (e.rule === undefined) !== (e.title === undefined), 'name either "rule" or "title" (exactly one)');
export type Expectation = z.infer<typeof Expectation>;
const ExpectationList = z.array(Expectation);

/** Reads and validates the known-failure baseline named by CRM_EXPECTATIONS. */
export function loadExpectations(path: string, cwd: string = process.cwd()): { expectations: Expectation[]; source: string } {
  const file = resolve(cwd, path);
  const parsed = ExpectationList.safeParse(readSettingJson('CRM_EXPECTATIONS', file));
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') || '(value)'}: ${i.message}`,
    );
    throw new ConfigError(`CRM_EXPECTATIONS: ${file} is not a list of { "rule" | "title", "reason" }: ${issues.join('; ')}`);
  }
  const unknown = parsed.data.map((e, i) => ({ e, i })).filter(({ e }) => e.rule && !hasRule(e.rule));
  if (unknown.length) throw new ConfigError(`CRM_EXPECTATIONS: ${file}: ${unknown.map(({ e, i }) => `[${i}].rule: unknown rule "${e.rule}"`).join('; ')}`);
  return { expectations: parsed.data, source: file };
}
