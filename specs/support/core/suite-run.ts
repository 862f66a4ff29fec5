/**
 * The suite (or another command) run as a child process, as a user runs it, for the tooling:
 * scripts/ (bench, calibrate, repeat, …), rules/write-list.ts (the tests `playwright test --list`
 * finds) and selftest/ (through selftest/helpers.ts). Specs and workers never load it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './config.js';

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
