/**
 * Repeats of a failure: a faulty server often breaks one thing everywhere (timestamps in
 * milliseconds break the contract of every record), and Playwright replaces its worker after
 * every failed test (about a second of CPU each), so a server with one such fault took six times
 * as long as a conformant one. Here the run remembers what each MUST failure was, its *kinds*:
 *
 * - a contract failure: each issue's code and message, numbers left out, the path too (the same
 *   problem in `date_created` and `activity_date` is one kind);
 * - any other failure: its first line, its Expected/Received lines and the request it names
 *   (method and path, ids left out).
 *
 * A later test whose failure has only kinds that already failed a test of this run is a *repeat*:
 * it is held (annotation `failure`, with the whole error and the replay, so the conformance report
 * and the rule's verdict are exactly those of a failed test) and Playwright reports it as skipped,
 * naming the test that failed first, instead of failing it and replacing the worker. Every
 * distinct failure still fails a Playwright test at least once, and the run still fails.
 *
 * Shared by the run's workers through a small file per run and target (a new worker forgets its
 * memory), read only when a test fails, emptied by the global set-up. `CRM_REPEATS=fail` turns
 * this off: every failure fails its Playwright test.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config.js';

/** A failure's kinds, as recorded by the first test that had them. */
interface Seen { kinds: string[]; title: string }

/** The contract issues of the current test's last failed `toMatchContract` (set by the matcher). */
let contractFailure: { testId: string; message: string; kinds: string[] } | undefined;

/** Normalizes numbers away: ids, timestamps, counts and seeds differ from test to test. */
const numbersOut = (s: string) => s.replace(/\d+/g, 'N');

/** Called by `toMatchContract` when a value does not match: the kinds of its issues. */
export function noteContractFailure(testId: string, message: string, issues: { code?: string; message: string }[]): void {
  contractFailure = { testId, message, kinds: [...new Set(issues.map((i) => `contract ${i.code ?? ''}: ${numbersOut(i.message)}`))] };
}

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/** The kinds of a failure (see the module comment). */
export function failureKinds(message: string, testId: string): string[] {
  const text = stripAnsi(message);
  if (contractFailure?.testId === testId && text.includes(firstLine(contractFailure.message))) return contractFailure.kinds;
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const head = numbersOut(lines[0] ?? '');
  const values = lines.filter((l) => /^(Expected|Received)( value| array| string)?:/.test(l)).slice(0, 2).map(numbersOut);
  const request = lines.map((l) => /^(GET|POST|PUT|DELETE|PATCH) (\S+) →/.exec(l)).find(Boolean);
  const where = request ? `${request[1]} ${numbersOut(pathOf(request[2]))}` : '';
  return [[head, ...values, where].filter(Boolean).join(' | ')];
}

const firstLine = (s: string) => stripAnsi(s).split('\n').map((l) => l.trim()).find(Boolean) ?? '';
function pathOf(url: string): string {
  try { return new URL(url).pathname; } catch { return url; }
}

/** The run's record of failures, per target (the fault matrix tests many targets in one run). */
function file(): string {
  const cfg = loadConfig();
  return join(tmpdir(), `crm-conformance-${cfg.runId}-${createHash('sha256').update(cfg.baseUrl).digest('hex').slice(0, 8)}.failures.jsonl`);
}

/** Forgets the failures of an earlier run with the same run id (the global set-up, before any test). */
export function forgetFailures(): void {
  rmSync(file(), { force: true });
}

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
