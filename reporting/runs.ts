/**
 * A finished run as the diff, the side-by-side page and the CI summary read it: a small adapter
 * over `conformance.json` (reporting/verdict.ts, `ConformanceReport`). It reads only the fields it
 * needs and tolerates any other, so a report of another version of the suite (fields added, a rule
 * test status it does not know) still reads; what it cannot read is a {@link RunReadError}
 * naming the file and the fix.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { hasRule, getRule } from '../rules/index.js';
import { ROOT } from '../specs/support/core/config.js';
import { command } from '../specs/support/core/replay.js';

/** This installation's version of the suite (package.json), recorded in every conformance.json. */
export function suiteVersion(root: string = ROOT): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** What a rule's verdict lets a reader conclude: it passed, warned, failed, or nothing (SKIP, UNTESTED, not judged, blocked). */
export type RuleState = 'pass' | 'warn' | 'fail' | 'unjudged';

export interface RuleView {
  id: string;
  level: string;
  area: string;
  /** The rule in the suite's words (the report's `text`). */
  text: string;
  /** The spec's own sentence, from the catalog of this installation when it knows the rule. */
  quote?: string;
  /**
   * The verdict as the report wrote it (PASS, FAIL, …, or one this version does not know);
   * `NOT JUDGED` when every test of the rule was kept from judging it.
   */
  verdict: string;
  state: RuleState;
  /** A failure the known-failure baseline lists. */
  known: boolean;
  /** The report's first reason, on one line. */
  reason?: string;
  /** The first failed or warned test (file and line), for an annotation. */
  where?: { file: string; line: number };
}

export interface RunView {
  /** What the run is called in a diff or a column: `label=` of the command line, else its directory's name. */
  label: string;
  /** The conformance.json read. */
  file: string;
  target: string;
  suiteVersion?: string;
  verdict: string;
  verdictLine: string;
  /** Why the verdict is INCONCLUSIVE or rests on the preflight. */
  verdictReason?: string;
  generatedAt?: string;
  runId?: string;
  depth?: string;
  /** A shard alone, or a merge missing shards: why the verdict covers part of the suite. */
  partial?: string;
  rules: Map<string, RuleView>;
  /** The baseline's entries whose failure no longer happens, and those expired (when the report says). */
  stale: string[];
  expired: string[];
}

export class RunReadError extends Error {}

const Test = z.looseObject({
  status: z.string(),
  title: z.string().optional(),
  file: z.string().optional(),
  line: z.number().optional(),
  failedOn: z.array(z.string()).optional(),
  blockedBy: z.union([z.string(), z.array(z.string())]).optional(),
});
const Rule = z.looseObject({
  id: z.string(),
  level: z.string(),
  area: z.string().optional(),
  text: z.string().optional(),
  verdict: z.string(),
  known: z.boolean().optional(),
  reasons: z.array(z.string()).optional(),
  tests: z.array(Test).optional(),
});
const Report = z.looseObject({
  target: z.string().optional(),
  verdict: z.string(),
  verdictLine: z.string().optional(),
  verdictReason: z.string().optional(),
  generatedAt: z.string().optional(),
  runId: z.string().optional(),
  depth: z.string().optional(),
  partial: z.string().optional(),
  suiteVersion: z.string().optional(),
  rules: z.array(Rule),
  expectations: z
    .looseObject({
      stale: z.array(z.looseObject({ entry: z.string() })).optional(),
      expired: z.array(z.looseObject({ entry: z.string() })).optional(),
    })
    .optional(),
});

const FAILED_TESTS = new Set(['failed', 'known-failure', 'warned']);

/** One line of at most `max` characters. */
export function oneLine(s: string, max = 200): string {
  const flat = s
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function stateOf(r: z.infer<typeof Rule>): RuleState {
  const tests = r.tests ?? [];
  // Every test of the rule was kept from judging it (`not-judged`: it failed on another rule first; `blocked`): nothing is known.
  if (tests.length && tests.every((t) => t.status === 'not-judged' || t.status === 'blocked')) return 'unjudged';
  if (r.verdict === 'PASS') return 'pass';
  if (r.verdict === 'WARN') return 'warn';
  if (r.verdict === 'FAIL') return 'fail';
  return 'unjudged';
}

/** Why a rule was not judged, from its tests, when the report gives no reason. */
function unjudgedReason(r: z.infer<typeof Rule>): string | undefined {
  const t = (r.tests ?? []).find((x) => x.blockedBy || x.failedOn?.length);
  if (!t) return undefined;
  const by = [t.blockedBy ?? t.failedOn ?? []].flat().join(', ');
  return oneLine(`not judged: "${t.title ?? 'its test'}" was ${t.blockedBy ? 'blocked by' : 'stopped by a failure on'} ${by}`);
}

/** `name=path` names a run; a plain path is named after its directory. */
export function splitLabel(arg: string): { label?: string; path: string } {
  const m = /^([^=/\\]+)=(.+)$/.exec(arg);
  return m && !existsSync(arg) ? { label: m[1], path: m[2] } : { path: arg };
}

/** Reads a run: a report directory (holding conformance.json) or a conformance.json file. */
export function readRun(arg: string, cwd: string = process.cwd()): RunView {
  const { label, path } = splitLabel(arg);
  const given = resolve(cwd, path);
  if (!existsSync(given)) throw new RunReadError(`${path}: no such file or directory (give a report directory, such as reports/, or its conformance.json)`);
  const file = statSync(given).isDirectory() ? join(given, 'conformance.json') : given;
  if (!existsSync(file))
    throw new RunReadError(
      `${path}: holds no conformance.json: is it the report directory (CRM_REPORT_DIR) of a finished run? The shards of a run are merged first (${command('merge', '<shard dirs>')})`,
    );
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new RunReadError(`${relative(cwd, file) || file}: not JSON (${(err as Error).message})`);
  }
  const parsed = Report.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RunReadError(
      `${relative(cwd, file) || file}: not a conformance report (conformance.json of crm-conformance): ${issue.path.join('.') || '(top)'}: ${issue.message}`,
    );
  }
  const r = parsed.data;
  const rules = new Map<string, RuleView>();
  for (const rule of r.rules) {
    const bad = (rule.tests ?? []).find((t) => FAILED_TESTS.has(t.status) && t.file);
    const state = stateOf(rule);
    const reason = rule.reasons?.find((x) => x.trim()) ?? (state === 'unjudged' ? unjudgedReason(rule) : undefined);
    rules.set(rule.id, {
      id: rule.id,
      level: rule.level,
      area: rule.area ?? rule.id.replace(/-\d+$/, '').toLowerCase(),
      text: rule.text ?? (hasRule(rule.id) ? getRule(rule.id).text : ''),
      ...(hasRule(rule.id) && getRule(rule.id).quote ? { quote: getRule(rule.id).quote } : {}),
      // A verdict its tests did not reach (all of them blocked or not judged) is no verdict.
      verdict: state === 'unjudged' && ['PASS', 'FAIL', 'WARN'].includes(rule.verdict) ? 'NOT JUDGED' : rule.verdict,
      state,
      known: rule.known === true,
      ...(reason ? { reason: oneLine(reason) } : {}),
      ...(bad?.file ? { where: { file: bad.file, line: bad.line ?? 1 } } : {}),
    });
  }
  const dir = dirname(file);
  const named = basename(file) === 'conformance.json' ? basename(dir) : basename(file).replace(/\.json$/, '');
  return {
    label: label ?? named,
    file,
    target: r.target ?? 'unknown target',
    ...(r.suiteVersion ? { suiteVersion: r.suiteVersion } : {}),
    verdict: r.verdict,
    verdictLine: r.verdictLine ?? r.verdict,
    ...(r.verdictReason ? { verdictReason: oneLine(r.verdictReason, 400) } : {}),
    ...(r.generatedAt ? { generatedAt: r.generatedAt } : {}),
    ...(r.runId ? { runId: r.runId } : {}),
    ...(r.depth ? { depth: r.depth } : {}),
    ...(r.partial ? { partial: r.partial } : {}),
    rules,
    stale: (r.expectations?.stale ?? []).map((s) => s.entry),
    expired: (r.expectations?.expired ?? []).map((s) => s.entry),
  };
}

/** `0.1.0`, or `version unknown` for a report written before conformance.json recorded it. */
export const versionOf = (run: RunView) => run.suiteVersion ?? 'version unknown';
