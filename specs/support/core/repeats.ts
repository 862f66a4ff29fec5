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
 * naming the test that failed first, instead of failing it and replacing the worker. A server
 * with many distinct problems (criteria combined with OR break a dozen rules) would still cost a
 * worker each: once a run shows {@link SHOWN_FAILURES} failed tests in Playwright's reports, every
 * further failure is held the same way. Until then every distinct failure fails a Playwright
 * test, and the run fails either way.
 *
 * Shared by the run's workers through a small file per run and target (a new worker forgets its
 * memory), read only when a test fails, emptied by the global set-up (core/run-files.ts). `CRM_REPEATS=fail` turns
 * this off: every failure fails its Playwright test.
 */
import { readFileSync } from 'node:fs';
import { stripAnsi } from './redact.js';
import { runFile, writeRunFile } from './run-files.js';

/** A failure's kinds, as recorded by the first test that had them. */
interface Seen {
  kinds: string[];
  title: string;
  held?: boolean;
}

/** The contract issues of the current test's last failed `toMatchContract` (set by the matcher). */
let contractFailure: { testId: string; message: string; kinds: string[] } | undefined;

/**
 * Normalizes numbers away: ids, timestamps, counts and seeds differ from test to test, and so do
 * the words that carry digits: identifiers a server writes as strings (`lead_8f3a2c`, a UUID, the
 * spec leaves them open), the suite's namespaced names (`cc1a2bw0t7f3e9 bulk 1`), dates. Each such
 * word becomes N. HTTP statuses after "got", "status" or "→" stay (404 and 500 are not the same
 * failure).
 */
const numbersOut = (s: string) =>
  s
    .replace(/\b(got|status|→)(\s+)([1-5]\d\d)\b/g, (_, w: string, sp: string, d: string) => `${w}${sp}#${[...d].map((c) => 'abcdefghij'[Number(c)]).join('')}`)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, 'N')
    .replace(/[\w-]*\d[\w-]*/g, 'N');

/** Called by `toMatchContract` when a value does not match: the kinds of its issues. */
export function noteContractFailure(testId: string, message: string, issues: { code?: string; message: string }[]): void {
  contractFailure = { testId, message, kinds: [...new Set(issues.map((i) => `contract ${i.code ?? ''}: ${numbersOut(i.message)}`))] };
}

/** The kinds of a failure of a test of `rule` (see the module comment). */
export function failureKinds(message: string, testId: string, rule: string): string[] {
  const text = stripAnsi(message);
  if (contractFailure?.testId === testId && text.includes(firstLine(contractFailure.message))) return contractFailure.kinds;
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const values = lines.filter((l) => /^(Expected|Received)( value| array| string)?:/.test(l)).slice(0, 2);
  return [[rule, ...[lines[0] ?? '', ...values].map(numbersOut)].join(' | ')];
}

const firstLine = (s: string) =>
  stripAnsi(s)
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean) ?? '';

const file = () => runFile('failures');

function seen(): Seen[] {
  try {
    return readFileSync(file(), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Seen);
  } catch {
    return [];
  }
}

/** Failed tests a run shows in Playwright's reports before it holds every further failure. */
export const SHOWN_FAILURES = 10;

/** Why a failure is held, and the test it refers to. */
export interface Hold {
  why: string;
  firstTitle: string;
  repeat: boolean;
}

/**
 * A MUST failure of the test `title` with these kinds: held when it is a repeat (an earlier test
 * failed with every one of its kinds), or when the run already shows {@link SHOWN_FAILURES}
 * failed tests in Playwright's reports (a server with many distinct problems: each is in the
 * conformance report, and each would cost a new worker); otherwise recorded and undefined.
 */
export function holdFailure(kinds: string[], title: string): Hold | undefined {
  const before = seen();
  const firsts = kinds.map((k) => before.find((s) => s.kinds.includes(k)));
  const shown = before.filter((s) => !s.held);
  let hold: Hold | undefined;
  if (kinds.length && firsts.every(Boolean))
    hold = { repeat: true, firstTitle: firsts[0]!.title, why: `a repeat of the failure of "${firsts[0]!.title}" (${kinds[0].slice(0, 200)})` };
  else if (shown.length >= SHOWN_FAILURES)
    hold = {
      repeat: false,
      firstTitle: shown[0].title,
      why: `the run already shows ${shown.length} failed tests in Playwright's reports (the first: "${shown[0].title}"), and holds the further ones`,
    };
  // Recorded even when held, so that its repeats name it.
  try {
    writeRunFile('failures', JSON.stringify({ kinds, title, ...(hold ? { held: true } : {}) } satisfies Seen) + '\n', 'append');
  } catch {
    /* best effort: the test fails as usual */
  }
  return hold;
}
