/**
 * Speed of the suite against the embedded reference server:
 *
 *     npm run bench                       # 3 runs of the default suite, then the heavy cap spec
 *     npm run bench -- --runs 5 --workers 4 --no-heavy
 *
 * Each run is `npx playwright test` as a user runs it (default reporters, own report directory
 * reports/runs/bench-<n>). Prints the median wall time, the start-up (spawn → first test), the
 * requests sent (counted from every test's recorded exchanges), requests per second, time per
 * area (sum of test durations); then runs specs/search/cap.heavy.spec.ts with CRM_HEAVY=1 and
 * prints its seeding rate. Writes reports/bench.json and prints a Markdown table for the README.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { OutcomeFile } from '../reporting/conformance-reporter.js';
import { ROOT, runPlaywright } from '../selftest/helpers.js';

interface RunStats {
  run: number;
  exitCode: number | null;
  wallMs: number;
  /** Process spawn → first test started. */
  startupMs?: number;
  /** Last test ended → process exited (reporters, teardown). */
  shutdownMs?: number;
  workerProcesses?: number;
  /** Busy share of the worker slots while tests ran. */
  utilization?: number;
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  requests: number;
  requestsPerSecond: number;
  /** Sum of test durations per area (specs/<area>/), ms. */
  areas: Record<string, { ms: number; tests: number; requests: number }>;
  slowest: { title: string; file: string; ms: number; requests: number }[];
  loadBefore: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Timeline {
  /** Earliest test start (epoch ms). */
  first: number;
  /** Latest test end (epoch ms). */
  last: number;
  /** Worker processes Playwright started (one per test type and after each failure). */
  workerProcesses: number;
  /** Share of worker-slot time spent running tests between the first start and the last end. */
  utilization: number;
}

/** From Playwright's results.json: when tests ran, on how many worker processes, how busy the slots were. */
function timeline(resultsJson: string): Timeline | undefined {
  if (!existsSync(resultsJson)) return undefined;
  const runs: { start: number; end: number; worker: number }[] = [];
  const walk = (suite: { specs?: { tests: { results: { startTime: string; duration: number; workerIndex: number }[] }[] }[]; suites?: unknown[] }) => {
    for (const spec of suite.specs ?? []) for (const t of spec.tests) for (const r of t.results) {
      const start = Date.parse(r.startTime);
      if (Number.isFinite(start)) runs.push({ start, end: start + r.duration, worker: r.workerIndex });
    }
    for (const s of (suite.suites ?? []) as (typeof suite)[]) walk(s);
  };
  // Worker slots of the run: the API lane's workers and one for each other lane (playwright.config.ts).
  let slots = 1;
  try {
    const json = JSON.parse(readFileSync(resultsJson, 'utf8'));
    slots = json.config?.metadata?.actualWorkers ?? json.config?.workers ?? 1;
    for (const s of json.suites ?? []) walk(s);
  } catch { return undefined; }
  if (!runs.length) return undefined;
  const first = Math.min(...runs.map((r) => r.start));
  const last = Math.max(...runs.map((r) => r.end));
  const busy = runs.reduce((s, r) => s + (r.end - r.start), 0);
  return { first, last, workerProcesses: new Set(runs.filter((r) => r.worker >= 0).map((r) => r.worker)).size, utilization: busy / (slots * Math.max(1, last - first)) };
}

async function runOnce(n: number, env: Record<string, string>, args: string[]): Promise<RunStats> {
  const dir = `reports/runs/bench-${n}`;
  const loadBefore = loadavg()[0];
  const spawnedAt = Date.now();
  const res = await runPlaywright(args, { CRM_REPORT_DIR: dir, ...env });
  const outcomesFile = resolve(ROOT, dir, 'conformance-outcomes.json');
  if (!existsSync(outcomesFile)) throw new Error(`run ${n} wrote no ${dir}/conformance-outcomes.json (exit ${res.code})\n${res.stdout.slice(-2000)}${res.stderr.slice(-2000)}`);
  const { outcomes } = JSON.parse(readFileSync(outcomesFile, 'utf8')) as OutcomeFile;
  const areas: RunStats['areas'] = {};
  for (const o of outcomes) {
    const area = o.file.split('/')[1] ?? o.file;
    const a = (areas[area] ??= { ms: 0, tests: 0, requests: 0 });
    a.ms += o.durationMs;
    a.tests++;
    a.requests += o.requests ?? 0;
  }
  const requests = outcomes.reduce((s, o) => s + (o.requests ?? 0), 0);
  const tl = timeline(resolve(ROOT, dir, 'results.json'));
  const failed = outcomes.filter((o) => o.status !== 'skipped' && o.status !== o.expectedStatus).length;
  return {
    run: n,
    exitCode: res.code,
    wallMs: res.ms,
    startupMs: tl ? tl.first - spawnedAt : undefined,
    shutdownMs: tl ? spawnedAt + res.ms - tl.last : undefined,
    workerProcesses: tl?.workerProcesses,
    utilization: tl ? Math.round(tl.utilization * 100) / 100 : undefined,
    tests: outcomes.length,
    passed: outcomes.filter((o) => o.status === 'passed').length,
    failed,
    skipped: outcomes.filter((o) => o.status === 'skipped').length,
    requests,
    requestsPerSecond: Math.round(requests / (res.ms / 1000)),
    areas,
    slowest: [...outcomes].sort((a, b) => b.durationMs - a.durationMs).slice(0, 8).map((o) => ({ title: o.title.slice(0, 90), file: o.file, ms: o.durationMs, requests: o.requests ?? 0 })),
    loadBefore,
  };
}

async function heavy(env: Record<string, string>) {
  const spec = 'specs/search/cap.heavy.spec.ts';
  if (!existsSync(resolve(ROOT, spec))) return { ran: false as const, reason: `${spec} does not exist` };
  const dir = 'reports/runs/bench-heavy';
  const res = await runPlaywright([spec], { CRM_REPORT_DIR: dir, CRM_HEAVY: '1', CRM_REPORTERS: 'minimal', ...env }, 20 * 60_000);
  const file = resolve(ROOT, dir, 'conformance-outcomes.json');
  const outcomes = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as OutcomeFile).outcomes : [];
  const note = outcomes.flatMap((o) => o.notes).find((n) => /seeded \d+ projects in [\d.]+ s/.test(n)) ?? /(\d+) projects created in ([\d.]+) s/.exec(res.stdout)?.[0];
  const m = note ? /(\d+) projects (?:created )?in ([\d.]+) s/.exec(note.replace('seeded ', '')) : null;
  const seeded = m ? Number(m[1]) : undefined;
  const seedSeconds = m ? Number(m[2]) : undefined;
  return {
    ran: true as const,
    exitCode: res.code,
    wallMs: res.ms,
    status: outcomes[0]?.status ?? 'no outcome',
    seeded,
    seedSeconds,
    seedRatePerSecond: seeded && seedSeconds ? Math.round(seeded / seedSeconds) : undefined,
    error: outcomes[0]?.error?.split('\n')[0],
  };
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
  const runs = Number(opt('--runs') ?? 3);
  const env: Record<string, string> = {};
  if (opt('--workers')) env.CRM_WORKERS = opt('--workers')!;
  const pwArgs = args.filter((a, i) => !a.startsWith('--') && !['--runs', '--workers'].includes(args[i - 1]));
  console.log(`bench: ${runs} run(s) of the default suite against the reference server${env.CRM_WORKERS ? ` with ${env.CRM_WORKERS} workers` : ''} (${cpus().length} CPUs, load ${loadavg()[0].toFixed(1)})`);
  const results: RunStats[] = [];
  for (let i = 1; i <= runs; i++) {
    const r = await runOnce(i, env, pwArgs);
    results.push(r);
    console.log(`  run ${i}: ${secs(r.wallMs)} wall (start-up ${r.startupMs !== undefined ? secs(r.startupMs) : '?'}, after the last test ${r.shutdownMs !== undefined ? secs(r.shutdownMs) : '?'}), ${r.tests} tests (${r.failed} failed), ${r.requests} requests, ${r.requestsPerSecond} req/s, ${r.workerProcesses ?? '?'} worker processes, slots ${r.utilization !== undefined ? Math.round(r.utilization * 100) : '?'}% busy, exit ${r.exitCode}, load before ${r.loadBefore.toFixed(1)}`);
  }
  const mid = results.find((r) => r.wallMs === median(results.map((x) => x.wallMs))) ?? [...results].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(results.length / 2)];
  const summary = {
    medianWallMs: median(results.map((r) => r.wallMs)),
    medianStartupMs: median(results.map((r) => r.startupMs ?? 0)),
    requests: mid.requests,
    requestsPerSecond: Math.round(mid.requests / (median(results.map((r) => r.wallMs)) / 1000)),
    tests: mid.tests,
  };
  console.log(`\nmedian: ${secs(summary.medianWallMs)} wall, start-up ${secs(summary.medianStartupMs)}, ${summary.requests} requests, ${summary.requestsPerSecond} req/s, ${summary.tests} tests`);
  console.log('time per area (sum of test durations, median run):');
  for (const [area, a] of Object.entries(mid.areas).sort((x, y) => y[1].ms - x[1].ms)) console.log(`  ${area.padEnd(16)} ${secs(a.ms).padStart(8)}  ${String(a.tests).padStart(4)} tests  ${String(a.requests).padStart(6)} requests`);
  console.log('slowest tests (median run):');
  for (const s of mid.slowest) console.log(`  ${secs(s.ms).padStart(7)}  ${String(s.requests).padStart(5)} req  ${s.file}  ${s.title}`);

  const heavyResult = args.includes('--no-heavy') ? { ran: false as const, reason: '--no-heavy' } : await heavy(env);
  if (heavyResult.ran) console.log(`\nheavy cap spec: ${secs(heavyResult.wallMs)} wall, ${heavyResult.status}; seeded ${heavyResult.seeded ?? '?'} projects in ${heavyResult.seedSeconds ?? '?'} s (${heavyResult.seedRatePerSecond ?? '?'}/s)${heavyResult.error ? `; ${heavyResult.error}` : ''}`);
  else console.log(`\nheavy cap spec not run: ${heavyResult.reason}`);

  const targets = {
    defaultRunWall: { target: '≤ 15 s', met: summary.medianWallMs <= 15_000 },
    defaultRunRequests: { target: '≥ 5,000', met: summary.requests >= 5000 },
    heavyWall: { target: '≤ 30 s', met: heavyResult.ran ? heavyResult.wallMs <= 30_000 : undefined },
  };
  const out = { date: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version }, summary, targets, runs: results, heavy: heavyResult };
  mkdirSync(resolve(ROOT, 'reports'), { recursive: true });
  writeFileSync(resolve(ROOT, 'reports/bench.json'), JSON.stringify(out, null, 2));
  const yes = (b: boolean | undefined) => (b === undefined ? 'n/a' : b ? 'met' : 'not met');
  console.log(`\nreports/bench.json written. For the README:\n`);
  console.log(`| Measure (${cpus().length} CPUs, ${runs} runs, median) | Value | Target |`);
  console.log('|---|---|---|');
  console.log(`| Default suite, wall time | ${secs(summary.medianWallMs)} | ≤ 15 s (${yes(targets.defaultRunWall.met)}) |`);
  console.log(`| Start-up (spawn → first test) | ${secs(summary.medianStartupMs)} | |`);
  console.log(`| Tests | ${summary.tests} | |`);
  console.log(`| Requests sent | ${summary.requests.toLocaleString('en')} | ≥ 5,000 (${yes(targets.defaultRunRequests.met)}) |`);
  console.log(`| Requests per second | ${summary.requestsPerSecond} | |`);
  if (heavyResult.ran) {
    console.log(`| Heavy cap spec (100,001 projects), wall time | ${secs(heavyResult.wallMs)} | ≤ 30 s (${yes(targets.heavyWall.met)}) |`);
    console.log(`| Heavy cap spec, seeding rate | ${heavyResult.seedRatePerSecond?.toLocaleString('en') ?? '?'} projects/s | |`);
  }
}

await main();
