/**
 * Where the CPU of one run goes, with profiles:
 *
 *     npm run bench:profile                          # the default run against the reference server
 *     npm run bench:profile -- specs/search          # Playwright's arguments, as for the suite
 *     REFERENCE_FAULTS=webhook-none-sent npm run bench:profile
 *
 * One run as `npx playwright test` (default reporters, its own report directory
 * reports/runs/profile), with V8's CPU profiler in every Node process of ours: the runner and its
 * workers (`node --cpu-prof`, which Playwright's workers inherit) and, against the embedded
 * reference, the reference server (CRM_REFERENCE_CPU_PROF: playwright.config.ts starts it under
 * the profiler and stops it with SIGTERM so that it writes its profile). Every process of the run,
 * Chromium's included, has its own CPU read from /proc meanwhile (scripts/proc-tree.ts).
 *
 * Writes the profiles to reports/profile/cpu/ (open one in Chrome DevTools' Performance panel or
 * speedscope), reports/profile/summary.json, and prints a Markdown table: per process, its CPU
 * from /proc, the time V8 sampled it busy, and where that went by mechanism and by package
 * (scripts/profile-summary.ts). The profiler costs time itself (some 10-20 %): this run is for
 * shares, the bench (`npm run bench`) for times. CRM_* and REFERENCE_* variables pass through.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { ROOT } from '../specs/support/core/config.js';
import { runPlaywright } from '../specs/support/core/suite-run.js';
import { REDACTED, replaceSecrets } from '../specs/support/core/redact.js';
import { isSecretSetting } from './bench-ab.js';
import { secs } from './bench.js';
import { cpuByRole, watchTree, type ProcCpu } from './proc-tree.js';
import { summarizeProfile, type CpuProfile, type ProfileSummary } from './profile-summary.js';

const OUT = resolve(ROOT, 'reports/profile');
const CPU_DIR = join(OUT, 'cpu');
const s2 = (ms: number | undefined) => (ms === undefined ? '–' : secs(ms, 2));
/** The mechanisms shown as columns, in this order. */
const COLUMNS = ['loading code', 'stack traces (step locations)', 'runner-worker messages', 'reporters', 'HTTP client', 'HTTP server', 'garbage collector'];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(CPU_DIR, { recursive: true });
  const passed = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => /^(CRM|REFERENCE)_/.test(k) && v !== undefined)) as Record<string, string>;
  const embedded = !passed.CRM_BASE_URL;
  const load = loadavg()[0];
  console.log(
    `bench:profile: one run${args.length ? ` of ${args.map(withoutSecrets).join(' ')}` : ''} ${embedded ? 'against the reference server' : `against ${passed.CRM_BASE_URL}`}, every Node process under V8's profiler (${cpus().length} CPUs, load ${load.toFixed(1)})`,
  );
  let tree: ReturnType<typeof watchTree>;
  const res = await runPlaywright(
    args,
    { ...passed, CRM_REPORT_DIR: 'reports/runs/profile', ...(embedded ? { CRM_REFERENCE_CPU_PROF: CPU_DIR } : {}) },
    30 * 60_000,
    {
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${CPU_DIR}`],
      onSpawn: (pid) => (tree = watchTree(pid)),
    },
  );
  const procs = tree?.stop() ?? [];
  const summaries = readdirSync(CPU_DIR)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .map((f) => summarizeProfile(JSON.parse(readFileSync(join(CPU_DIR, f), 'utf8')) as CpuProfile, f));
  const playwrightLine = /\d+ passed[^\n]*|\d+ failed[^\n]*/.exec(res.stdout)?.[0];
  const report = {
    date: new Date().toISOString(),
    load: { atStart: load, atEnd: loadavg()[0] },
    machine: { cpus: cpus().length, node: process.version },
    args: args.map(withoutSecrets),
    exitCode: res.code,
    wallMs: res.ms,
    cpuByRole: cpuByRole(procs),
    processes: procs.map((p) => ({ ...p, cmd: withoutSecrets(p.cmd) })),
    profiles: summaries,
  };
  writeFileSync(join(OUT, 'summary.json'), JSON.stringify(report, null, 1));
  console.log(table(summaries, procs, res.ms));
  console.log(
    `\nrun: ${s2(res.ms)} wall under the profiler, exit ${res.code}${playwrightLine ? ` (${playwrightLine.trim()})` : ''}; load ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
  );
  console.log(
    'how to read it: "CPU (/proc)" is each process\'s own CPU; "sampled busy" is V8\'s, which on a busy machine counts time a process waited for a CPU (in a syscall, say) and is slowed by the profiler itself, most in code loading: read its shares, and the bench for times',
  );
  console.log(
    `profiles: ${relative(ROOT, CPU_DIR)}/ (Chrome DevTools → Performance → load, or speedscope); summary: ${relative(ROOT, join(OUT, 'summary.json'))}`,
  );
  if (res.code !== 0 && res.code !== 1) process.exitCode = 1;
}

/**
 * A command line as the summary keeps it: the values of secret variables of this environment
 * (tokens, secrets, passwords, the OAuth client secret) redacted as the suite redacts a configured
 * secret, should one ever be passed as an argument. (The suite's own `redactText` needs the run's
 * configuration, which is loaded only inside Playwright.)
 */
function withoutSecrets(cmd: string): string {
  const secrets = Object.entries(process.env).filter((e): e is [string, string] => isSecretSetting(e[0]) && !!e[1]);
  return replaceSecrets(
    cmd,
    secrets.map(([, v]) => [v, REDACTED]),
  );
}

/** The Markdown table: one row per profiled process, then the processes without a profile by role. */
function table(summaries: ProfileSummary[], procs: ProcCpu[], wallMs: number): string {
  const cpuOf = new Map(procs.map((p) => [p.pid, p.cpuMs]));
  const share = (ms: number | undefined, of: number) => (ms ? `${s2(ms)} (${Math.round((100 * ms) / Math.max(1, of))} %)` : '–');
  const rows = [
    `| Process | CPU (/proc) | Sampled busy | ${COLUMNS.join(' | ')} | Packages (self time) |`,
    `|---|---|---|${COLUMNS.map(() => '---').join('|')}|---|`,
  ];
  const order = ['runner', 'runner loader thread', 'worker', 'reference', 'other'];
  for (const s of [...summaries].sort((a, b) => order.indexOf(a.part) - order.indexOf(b.part) || b.busyMs - a.busyMs)) {
    const cpu = s.thread ? undefined : cpuOf.get(s.pid ?? -1);
    const top = Object.entries(s.packages)
      .slice(0, 5)
      .map(([k, v]) => `${k} ${s2(v)}`)
      .join(', ');
    rows.push(
      `| ${s.part} ${s.pid ?? ''}${s.thread ? ` thread ${s.thread}` : ''} (${s2(s.wallMs)}) | ${s.thread ? '(in its process)' : s2(cpu)} | ${s2(s.busyMs)} | ${COLUMNS.map((c) => share(s.mechanisms[c], s.busyMs)).join(' | ')} | ${top} |`,
    );
  }
  const profiled = new Set(summaries.map((s) => s.pid));
  const rest = cpuByRole(procs.filter((p) => !profiled.has(p.pid)));
  for (const [role, v] of Object.entries(rest).sort((a, b) => b[1].ms - a[1].ms)) {
    if (role === 'chromium' || v.ms === 0) continue;
    rows.push(`| ${role} (${v.processes} process${v.processes > 1 ? 'es' : ''}, no profile) | ${s2(v.ms)} | | ${COLUMNS.map(() => '').join(' | ')} | |`);
  }
  const all = procs.reduce((t, p) => t + p.cpuMs, 0);
  rows.push(`| **every process of the run** | **${s2(all)}** in ${s2(wallMs)} | | ${COLUMNS.map(() => '').join(' | ')} | |`);
  return rows.join('\n');
}

void main();
