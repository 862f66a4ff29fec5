/**
 * Workers that load while the runner is still busy with its own start.
 *
 * Playwright starts its workers only once the runner has loaded the configuration, started the
 * reference server, run the global setup and loaded every spec file (some 1.5 s, on one core:
 * the other is mostly idle); then four workers load Playwright at once on two cores, about
 * 0.5 s of CPU each, and the first test begins about 1 s later. Here the runner (the
 * configuration, playwright.config.ts) starts those processes first ("zygotes",
 * scripts/worker-zygote.cjs): each loads Playwright at the lowest priority (nice 19), so that
 * it takes only the CPU the runner leaves. When Playwright then forks a worker
 * (`child_process.fork` of its `lib/worker/workerProcessEntry.js`), it gets a zygote instead:
 * the zygote is given back the runner's priority, takes the environment Playwright gave the
 * worker and runs the worker's entry, as the fork would have. A fork that does not match exactly
 * (another script, other stdio), or finds no zygote left, is Playwright's own.
 *
 * Only where the priority can be given back (root with CAP_SYS_NICE, or a nice limit that allows
 * it): that is tried on the first zygote before any other is started; where it fails, no zygote
 * is used (a worker left at nice 19 would yield every core to any other program). Only for a run
 * of the whole suite (no file, grep or project filter, no --ui, --list or --workers: those start
 * fewer workers, or others), unless CRM_PREFORK=1; CRM_PREFORK=0 turns it off. A zygote never
 * handed over is killed when the runner exits (and ends by itself when its IPC channel closes);
 * it keeps no event loop of the runner alive. Measured in README, Benchmark.
 */
'use strict';
const cp = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ZYGOTE = path.join(__dirname, 'worker-zygote.cjs');
/** The priority a zygote loads at: the lowest. */
const LOW = 19;
/** The stdio Playwright gives a worker (processHost.ts: output piped to the runner, an IPC channel). */
const WORKER_STDIO = ['ignore', 'pipe', 'pipe', 'ipc'];
/** Options of `playwright test` a run of the whole suite may have: none of them changes which workers start. */
const PLAIN_OPTIONS = /^(?:--reporter(?:=.*)?|--quiet|-x|--max-failures(?:=.*)?|--retries(?:=.*)?|--timeout(?:=.*)?|--global-timeout(?:=.*)?|--forbid-only|--fail-on-flaky-tests|--pass-with-no-tests|-c|--config(?:=.*)?)$/;
/** Options whose value is the next argument. */
const WITH_VALUE = new Set(['--reporter', '--max-failures', '--retries', '--timeout', '--global-timeout', '-c', '--config']);

/**
 * Whether a runner started with `argv` (process.argv after node and the CLI script) runs the
 * whole suite with the configured workers: `test` and only options of {@link PLAIN_OPTIONS}.
 * @param {string[]} argv
 */
function wholeSuiteRun(argv) {
  if (argv[0] !== 'test') return false;
  for (let i = 1; i < argv.length; i++) {
    if (!PLAIN_OPTIONS.test(argv[i])) return false;
    if (WITH_VALUE.has(argv[i])) i++;
  }
  return true;
}

/** Playwright's worker entry, or undefined where this version of Playwright has none there. */
function workerEntry() {
  try {
    const entry = path.join(path.dirname(require.resolve('playwright/package.json')), 'lib', 'worker', 'workerProcessEntry.js');
    return fs.existsSync(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets the priority of every thread of process `pid`: on Linux a priority is a thread's, and
 * Node's helper threads (the garbage collector's, the file system's) would keep the one they
 * were started with. Throws when not allowed.
 * @param {number} pid @param {number} value
 */
function renice(pid, value) {
  let tids;
  try { tids = fs.readdirSync(`/proc/${pid}/task`).map(Number); } catch { tids = [pid]; }
  for (const tid of tids) {
    try { os.setPriority(tid, value); } catch (err) { if (tid === pid || err.code !== 'ESRCH') throw err; }
  }
}

/** What this runner did with its zygotes (CRM_PREFORK_REPORT=<file>, for the self-test). */
const report = { started: 0, handedOver: 0, forkedByPlaywright: 0, pids: [], reason: undefined };

function writeReport() {
  const file = process.env.CRM_PREFORK_REPORT;
  if (!file) return;
  try { fs.writeFileSync(file, JSON.stringify(report)); } catch { /* the self-test says so */ }
}

/**
 * Starts `count` zygotes and routes Playwright's worker forks to them. Returns the report (the
 * zygotes started, or why none).
 * @param {number} count
 */
function prefork(count) {
  // Once per runner, however often the configuration is loaded.
  if (globalThis.__crmConformancePrefork) return globalThis.__crmConformancePrefork;
  globalThis.__crmConformancePrefork = report;
  /** @type {import('node:child_process').ChildProcess[]} */
  const pool = [];
  // Those never handed over end now: one still loading at the lowest priority on a busy machine
  // would read its end of the closed channel only once it has loaded.
  process.once('exit', () => {
    for (const z of pool) z.kill();
    writeReport();
  });
  const entry = workerEntry();
  if (!entry) return Object.assign(report, { reason: `no ${path.join('playwright', 'lib', 'worker', 'workerProcessEntry.js')} in this version of Playwright` });
  const base = os.getPriority(0);
  // The environment Playwright adds for its workers (WorkerHost), so that what the zygote loads
  // reads the same values as in a worker (colours are decided when Playwright's bundle loads).
  const env = { ...process.env, PLAYWRIGHT_TEST: '1', FORCE_COLOR: '1', DEBUG_COLORS: process.env.DEBUG_COLORS === undefined ? '1' : process.env.DEBUG_COLORS };
  const fork = cp.fork;
  const start = () => {
    const z = fork(ZYGOTE, { detached: false, env, stdio: WORKER_STDIO });
    try { renice(z.pid, LOW); } catch { /* loads at the runner's priority */ }
    // Not the runner's to wait for until handed over.
    z.unref(); z.channel?.unref(); z.stdout?.unref?.(); z.stderr?.unref?.();
    z.once('exit', () => { const i = pool.indexOf(z); if (i >= 0) pool.splice(i, 1); });
    z.on('error', () => { /* gone: Playwright forks its own */ });
    pool.push(z);
    report.started++;
    report.pids.push(z.pid);
    return z;
  };
  const first = start();
  try {
    // Can the priority be given back? Tried now, not at the handover.
    renice(first.pid, base);
    renice(first.pid, LOW);
  } catch {
    first.kill();
    return Object.assign(report, { reason: `this process may not give a process back its priority (nice ${LOW} → ${base}): workers start as Playwright starts them` });
  }
  for (let i = 1; i < count; i++) start();

  cp.fork = function forkWorker(modulePath, args, options) {
    const opts = Array.isArray(args) ? options : args;
    const matches = modulePath === entry && opts && opts.env && Array.isArray(opts.stdio) && opts.stdio.length === WORKER_STDIO.length
      && opts.stdio.every((s, i) => s === WORKER_STDIO[i]) && opts.execArgv === undefined && opts.execPath === undefined && opts.cwd === undefined;
    while (matches && pool.length) {
      const z = pool.shift();
      if (z.exitCode !== null || z.signalCode !== null || !z.connected) continue;
      try { renice(z.pid, base); } catch { z.kill(); continue; }
      z.ref(); z.channel?.ref(); z.stdout?.ref?.(); z.stderr?.ref?.();
      z.send({ crmZygote: { entry, env: opts.env } });
      report.handedOver++;
      return z;
    }
    if (modulePath === entry) report.forkedByPlaywright++;
    return fork.apply(this, arguments);
  };
  return report;
}

module.exports = { prefork, wholeSuiteRun, workerEntry };
