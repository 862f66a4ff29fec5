/** Helpers for the project's own tests. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import type { OutcomeFile } from '../reporting/conformance-reporter.js';
import type { TestOutcome } from '../reporting/verdict.js';
import { ROOT } from '../specs/support/core/config.js';

export { ROOT };

const scratch = new Set<string>();
/** A fresh directory under the temporary directory, removed when the test process exits. */
export function scratchDir(prefix: string): string {
  if (scratch.size === 0)
    process.once('exit', () => {
      for (const d of scratch) rmSync(d, { recursive: true, force: true });
    });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.add(dir);
  return dir;
}

/** Environment without any CRM_ or REFERENCE_ variable of the caller. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CRM_') && !k.startsWith('REFERENCE_')) env[k] = v;
  return { ...env, ...extra };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  out: string;
  ms: number;
}

/**
 * Runs a command and collects its output; resolves when it ends (rejects only when it cannot be
 * started). `env` is the whole environment (default: this one); after `timeoutMs` it is killed;
 * `onSpawn` is told its pid.
 */
export function runProcess(
  command: string,
  args: string[],
  o: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; onSpawn?: (pid: number) => void } = {},
): Promise<RunResult> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: o.cwd ?? ROOT, env: o.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) o.onSpawn?.(child.pid);
    let stdout = '';
    let stderr = '';
    let out = '';
    child.stdout.on('data', (d) => ((stdout += d), (out += d)));
    child.stderr.on('data', (d) => ((stderr += d), (out += d)));
    const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), o.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, out, ms: Date.now() - started });
    });
  });
}

/**
 * Runs `npx playwright test …` with a clean environment; resolves when it ends. `nodeArgs`: options
 * of the runner's Node (`--cpu-prof`, which its workers inherit); `onSpawn`: told the runner's pid.
 */
export function runPlaywright(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 600_000,
  options: { nodeArgs?: string[]; onSpawn?: (pid: number) => void; root?: string; node?: string } = {},
): Promise<RunResult> {
  // `root`: another checkout of the suite (bench:ab --a-checkout), run with its own Playwright; `node`: another Node (bench:ab --a-node).
  const root = options.root ?? ROOT;
  return runProcess(options.node ?? process.execPath, [...(options.nodeArgs ?? []), resolve(root, 'node_modules/@playwright/test/cli.js'), 'test', ...args], {
    cwd: root,
    env: cleanEnv({ CI: '', ...env }),
    timeoutMs,
    onSpawn: options.onSpawn,
  });
}

/** Runs the `crm-conformance` command of this checkout (what `npx crm-conformance` runs) with a clean environment. */
export function runCli(args: string[], env: Record<string, string>, o: { cwd?: string; timeoutMs?: number } = {}): Promise<RunResult> {
  return runProcess(process.execPath, [resolve(ROOT, 'cli/bin.mjs'), ...args], { cwd: o.cwd, env: cleanEnv({ CI: '', ...env }), timeoutMs: o.timeoutMs });
}

/** A suite of a Playwright JSON report (`--reporter=json`, or a run's results.json), with the spec shape the caller reads. */
export interface ReportSuite<S> {
  specs?: S[];
  suites?: ReportSuite<S>[];
}

/** Every spec of a Playwright JSON report, its suites flattened, in the report's order. */
export function specsOf<S>(report: { suites?: ReportSuite<S>[] }): S[] {
  const out: S[] = [];
  const walk = (suite: ReportSuite<S>) => {
    out.push(...(suite.specs ?? []));
    for (const c of suite.suites ?? []) walk(c);
  };
  for (const s of report.suites ?? []) walk(s);
  return out;
}

/** The JSON report a run printed (`--reporter=json`); fails naming the run, with its output's end, when there is none. */
export function printedReport<T>(res: RunResult, name: string): T {
  const start = res.stdout.search(/^\{/m);
  if (start < 0) throw new Error(`${name}: no JSON report from the run (exit ${res.code}):\n${res.stdout.slice(-2000)}${res.stderr.slice(-2000)}`);
  return JSON.parse(res.stdout.slice(start)) as T;
}

export interface ListedTest {
  title: string;
  file: string;
  line: number;
  tags: string[];
  rules: string[];
}

/** The tests Playwright would run, with their titles, tags and locations. */
export function listTests(): ListedTest[] {
  const res = spawnSync(process.execPath, [resolve(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--list', '--reporter=json'], {
    cwd: ROOT,
    env: cleanEnv(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`playwright --list failed: ${res.stderr}`);
  const json = JSON.parse(res.stdout.slice(res.stdout.indexOf('{')));
  type Spec = { title: string; file: string; line: number; tags: string[]; tests: { annotations: { type: string; description?: string }[] }[] };
  return specsOf<Spec>(json).map((s) => ({
    title: s.title,
    file: `specs/${s.file}`,
    line: s.line,
    tags: s.tags.map((t) => t.replace(/^@/, '')),
    rules: (s.tests[0]?.annotations ?? []).filter((a) => a.type === 'rule').map((a) => a.description ?? ''),
  }));
}

/** A JSON file, by its path from the checkout's root or an absolute one. */
export function readJson<T = unknown>(path: string): T {
  return JSON.parse(readFileSync(resolve(ROOT, path), 'utf8')) as T;
}

/**
 * The test outcomes a run wrote into its report directory, or undefined when it wrote none. The
 * file's name is OUTCOMES_FILE of reporting/conformance-reporter.ts, written out here: importing
 * it would load the reporter into every self-test.
 */
export function readOutcomes(reportDir: string): TestOutcome[] | undefined {
  const file = resolve(ROOT, reportDir, 'conformance-outcomes.json');
  return existsSync(file) ? readJson<OutcomeFile>(file).outcomes : undefined;
}

/**
 * The records of a catalog of rules/ (rules.json, choices.json) as written, each asserted valid
 * against `schema` and with its keys in the schema's order.
 */
export function assertCatalogFile(path: string, schema: z.ZodObject): Record<string, unknown>[] {
  const raw = readJson<Record<string, unknown>[]>(path);
  assert.ok(Array.isArray(raw), `${path} is a list of records`);
  const order = Object.keys(schema.shape);
  for (const [i, record] of raw.entries()) {
    const parsed = schema.safeParse(record);
    assert.ok(parsed.success, `${path} record ${i} (${String(record.id)}): ${parsed.success ? '' : parsed.error.message}`);
    const keys = Object.keys(record);
    assert.deepEqual(
      keys,
      order.filter((k) => keys.includes(k)),
      `${path} record ${i} (${String(record.id)}): keys in the order ${order.join(', ')}`,
    );
  }
  return raw;
}
