/**
 * Repeats of a failure: a faulty server often breaks one thing everywhere (timestamps in
 * milliseconds break the contract of every record), and Playwright replaces its worker after
 * every failed test (about a second of CPU each), so a server with one such fault took six times
 * as long as a conformant one. Here the run remembers what each MUST failure was, its *kinds*:
 *
 * - a contract failure: each issue's code and message, numbers left out, the path too (the same
 *   problem in `date_created` and `activity_date` is one kind);
 * - any other failure: the rule of its test, its first line and its Expected/Received lines,
 *   numbers left out (a server that checks no credentials fails AUTH-3 on every endpoint the
 *   same way: one kind).
 *
 * A later test whose failure has only kinds that already failed a test of this run is a *repeat*:
 * it is held (annotation `failure`, with the whole error and the replay, so the conformance report
 * and the rule's verdict are exactly those of a failed test) and Playwright reports it as skipped,
 * naming the test that failed first, instead of failing it and replacing the worker. Every
 * distinct failure still fails a Playwright test at least once, and the run still fails.
 *
 * Shared by the run's workers through a small file per run and target (a new worker forgets its
 * memory), read only when a test fails, emptied by the global set-up (core/run-files.ts). `CRM_REPEATS=fail` turns
 * this off: every failure fails its Playwright test.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { runFile } from './run-files.js';

/** A failure's kinds, as recorded by the first test that had them. */
interface Seen { kinds: string[]; title: string }

/** The contract issues of the current test's last failed `toMatchContract` (set by the matcher). */
let contractFailure: { testId: string; message: string; kinds: string[] } | undefined;

/**
 * Normalizes numbers away: ids, timestamps, counts and seeds differ from test to test. HTTP
 * statuses after "got", "status" or "→" stay (404 and 500 are not the same failure).
 */
const numbersOut = (s: string) =>
  s.replace(/\b(got|status|→)(\s+)([1-5]\d\d)\b/g, (_, w: string, sp: string, d: string) => `${w}${sp}#${[...d].map((c) => 'abcdefghij'[Number(c)]).join('')}`).replace(/\d+/g, 'N');

/** Called by `toMatchContract` when a value does not match: the kinds of its issues. */
export function noteContractFailure(testId: string, message: string, issues: { code?: string; message: string }[]): void {
  contractFailure = { testId, message, kinds: [...new Set(issues.map((i) => `contract ${i.code ?? ''}: ${numbersOut(i.message)}`))] };
}

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/** The kinds of a failure of a test of `rule` (see the module comment). */
export function failureKinds(message: string, testId: string, rule: string): string[] {
  const text = stripAnsi(message);
  if (contractFailure?.testId === testId && text.includes(firstLine(contractFailure.message))) return contractFailure.kinds;
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const values = lines.filter((l) => /^(Expected|Received)( value| array| string)?:/.test(l)).slice(0, 2);
  return [[rule, ...[lines[0] ?? '', ...values].map(numbersOut)].join(' | ')];
}

const firstLine = (s: string) => stripAnsi(s).split('\n').map((l) => l.trim()).find(Boolean) ?? '';

const file = () => runFile('failures');

function seen(): Seen[] {
  try {
    return readFileSync(file(), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Seen);
  } catch { return []; }
}

/**
 * A failure of the test `title` with these kinds: the first test that failed with every one of
 * them (its title and the kind) when this is a repeat, else undefined after recording the kinds.
 */
export function repeatOf(kinds: string[], title: string): { title: string; kind: string } | undefined {
  const before = seen();
  const firsts = kinds.map((k) => before.find((s) => s.kinds.includes(k)));
  if (kinds.length && firsts.every(Boolean)) return { title: firsts[0]!.title, kind: kinds[0] };
  try { appendFileSync(file(), JSON.stringify({ kinds, title } satisfies Seen) + '\n'); } catch { /* best effort: the test fails as usual */ }
  return undefined;
}
