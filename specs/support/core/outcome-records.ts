/**
 * A test's outcome, written by the worker (fixtures/test.ts, the `api` fixture's teardown) when the run has no conformance reporter: a `--reporter`
 * flag on the command line replaces the configured reporters, and the run must still end with its
 * verdict. The global set-up sees the reporters and names a directory (CRM_VERDICT_OUTCOMES); each
 * worker appends one record per test there, and the global teardown (reporting/verdict-fallback.ts)
 * judges the run from them as the reporter would have.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the writer reads of Playwright's TestInfo (no Playwright import in core/). */
interface InfoLike {
  testId: string;
  title: string;
  file: string;
  line: number;
  project: { name: string };
  status?: string;
  expectedStatus: string;
  errors: { message?: string; value?: string }[];
  annotations: { type: string; description?: string }[];
  attachments: { name: string; contentType: string; path?: string; body?: Buffer }[];
}

export const OUTCOMES_DIR_ENV = 'CRM_VERDICT_OUTCOMES';

/** What the teardown needs of a test and its result (the reporter's TestCase and TestResult, as far as it reads them). */
export interface OutcomeRecord {
  testId: string;
  title: string;
  file: string;
  line: number;
  project: string;
  status: string;
  expectedStatus: string;
  durationMs: number;
  errors: { message?: string }[];
  annotations: { type: string; description?: string }[];
  attachments: { name: string; contentType: string; path?: string; body?: string }[];
}

/** Appends the running test's record (when the run asked for them). */
export function writeOutcomeRecord(testInfo: InfoLike, startedAt: number, env: NodeJS.ProcessEnv = process.env): void {
  const dir = env[OUTCOMES_DIR_ENV];
  if (!dir) return;
  const record: OutcomeRecord = {
    testId: testInfo.testId,
    title: testInfo.title,
    file: testInfo.file,
    line: testInfo.line,
    project: testInfo.project.name,
    status: testInfo.status ?? 'passed',
    expectedStatus: testInfo.expectedStatus,
    durationMs: Date.now() - startedAt,
    errors: testInfo.errors.map((e) => ({ message: e.message ?? e.value })),
    annotations: testInfo.annotations.map((a) => ({ type: a.type, description: a.description })),
    attachments: testInfo.attachments.map((a) => ({
      name: a.name,
      contentType: a.contentType,
      ...(a.path ? { path: a.path } : {}),
      ...(a.body ? { body: a.body.toString('utf8') } : {}),
    })),
  };
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `worker-${process.pid}.jsonl`), JSON.stringify(record) + '\n');
}

/** Every record of a directory (the workers' files), the last record of a test winning. */
export function readOutcomeRecords(dir: string, files: string[]): OutcomeRecord[] {
  const byId = new Map<string, OutcomeRecord>();
  for (const f of files) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line) as OutcomeRecord;
        byId.set(r.testId, r);
      } catch {
        /* a half-written last line of a worker that was stopped */
      }
    }
  }
  return [...byId.values()];
}
