/**
 * Which tests kill each of quick's blind spots (`npm run mutants -- --kills`, scripts/mutants.ts):
 * StrykerJS judges a mutant by one suite run that stops at its first failure, so it says that the
 * suite kills it, not which tests do. For a selection of quick that keeps what standard catches
 * (scripts/quick-selection.ts), each blind spot (standard kills it, quick does not) is made again
 * here, by hand: the mutant's replacement written into a copy of the checkout (a sandbox under
 * reports/, as StrykerJS's), and the spec files that reach its file run at standard depth, strict,
 * to the end. Every test that fails (a SHOULD too: strict) kills it. The result is data,
 * scripts/quick-kills.json, committed: the selection covers each mutant by one of its killers.
 *
 * A mutant is found in today's code by the text around it (its lines in the source StrykerJS
 * mutated): a mutant whose lines have changed since is reported and left out, to be judged again.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OutcomeFile } from '../reporting/conformance-reporter.js';
import { ROOT } from '../specs/support/core/config.js';
import { cleanEnv, runProcess } from '../specs/support/core/suite-run.js';
import { originalText, type ReportMutant } from './mutants-plan.js';

/** The committed kill data the quick selection reads. */
export const QUICK_KILLS_FILE = 'scripts/quick-kills.json';

export interface KilledMutant {
  /** `file:line:column mutator: original → replacement`, as reports/mutation-standard/blind-spots.txt names it. */
  mutant: string;
  /** The tests that fail against it at standard depth, strict. */
  killedBy: { file: string; title: string }[];
  /** The commit it was made against (entries of earlier runs keep theirs). */
  commit?: string;
}

export interface QuickKills {
  note: string;
  /** The commit of the last run that measured mutants, and when. */
  commit: string;
  date: string;
  mutants: KilledMutant[];
}

export const readQuickKills = (): QuickKills | undefined =>
  existsSync(join(ROOT, QUICK_KILLS_FILE)) ? (JSON.parse(readFileSync(join(ROOT, QUICK_KILLS_FILE), 'utf8')) as QuickKills) : undefined;

/** A mutant's name: its place, mutator, original text and replacement. */
export const mutantName = (file: string, source: string, m: ReportMutant) =>
  `${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName}: ${originalText(source, m).replace(/\s+/g, ' ').slice(0, 80)} → ${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 60)}`;

/** Offset of a 1-based line and column in `text`. */
function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) at = text.indexOf('\n', at) + 1;
  return at + column - 1;
}

/**
 * `today` with the mutant of `then` (the source StrykerJS mutated) applied: the mutant's whole lines
 * are looked for in `today` (the occurrence nearest the old place), and the replacement written at
 * the same offset within them. undefined when its lines are not in `today` any more.
 */
export function applyMutant(then: string, today: string, m: ReportMutant): string | undefined {
  const start = offsetOf(then, m.location.start.line, m.location.start.column);
  const end = offsetOf(then, m.location.end.line, m.location.end.column);
  const blockStart = then.lastIndexOf('\n', start - 1) + 1;
  const nl = then.indexOf('\n', end);
  const blockEnd = nl < 0 ? then.length : nl;
  const block = then.slice(blockStart, blockEnd);
  let best: number | undefined;
  for (let i = today.indexOf(block); i >= 0; i = today.indexOf(block, i + 1))
    if (best === undefined || Math.abs(i - blockStart) < Math.abs(best - blockStart)) best = i;
  if (best === undefined) return undefined;
  const at = best + (start - blockStart);
  return today.slice(0, at) + spliced(m) + today.slice(at + (end - start));
}

/**
 * A mutant's replacement as StrykerJS switches it in: an expression stands as one operand, so it is
 * put in parentheses (`a && b && c` with its `a && b` made `a || b` is `(a || b) && c`; spliced bare
 * it would read `a || (b && c)`, another mutant). A block or an emptied statement stays as it is.
 */
function spliced(m: ReportMutant): string {
  const r = m.replacement ?? '';
  return m.mutatorName === 'BlockStatement' || r.trim() === ';' || r.trim() === '' ? r : `(${r})`;
}

/** A copy of the checkout's tracked files (as they are in the working tree) under reports/, with no node_modules: packages resolve from the checkout's. */
export function makeSandbox(): string {
  const dir = join(ROOT, 'reports/.mutant-kills');
  rmSync(dir, { recursive: true, force: true });
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue;
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(ROOT, f), join(dir, f));
  }
  return dir;
}

/**
 * The tests that fail when `file` of the sandbox reads `mutated`: `specs` (all when undefined) at
 * standard depth, strict, every test run. The file is put back after.
 */
export async function killersOf(sandbox: string, file: string, mutated: string, specs: string[] | undefined): Promise<{ file: string; title: string }[]> {
  const path = join(sandbox, file);
  const original = readFileSync(path, 'utf8');
  const reportDir = 'reports/kills-run';
  writeFileSync(path, mutated);
  try {
    const res = await runProcess(process.execPath, [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', ...(specs ?? [])], {
      cwd: sandbox,
      env: cleanEnv({ CRM_DEPTH: 'standard', CRM_STRICT: '1', CRM_REPORTERS: 'minimal', CRM_REPORT_DIR: reportDir, CI: '' }),
      timeoutMs: 20 * 60_000,
    });
    const outcomesFile = join(sandbox, reportDir, 'conformance-outcomes.json');
    if (!existsSync(outcomesFile)) throw new Error(`the run against ${file}'s mutant wrote no outcomes (exit ${res.code}): ${res.out.slice(-2000)}`);
    const { outcomes } = JSON.parse(readFileSync(outcomesFile, 'utf8')) as OutcomeFile;
    return outcomes.filter((o) => o.status !== 'passed' && o.status !== 'skipped').map((o) => ({ file: o.file, title: o.title }));
  } finally {
    writeFileSync(path, original);
    rmSync(join(sandbox, reportDir), { recursive: true, force: true });
  }
}
