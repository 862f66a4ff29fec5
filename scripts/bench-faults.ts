/**
 * Every fault of the reference server's catalog, timed as the faulty-server row of `npm run bench`
 * times one: the whole suite as a user runs it (default reporters), with the fault on. A
 * conformant run comes first and after every 12th fault; a fault's ratio is its wall time over
 * the mean of the conformant runs before and after it, so the machine's drifting load cancels out.
 *
 *     npm run bench:faults                    # every fault (about 45 minutes on 2 CPUs)
 *     npm run bench:faults -- name1 name2     # some
 *     npm run bench:faults -- --again         # those the last survey found over ×1.5, again
 *
 * Measuring some faults keeps the other rows of the last survey (each row has its date).
 * Writes reports/bench-faults.json, worst ratio first, with the date and the load; `npm run
 * bench` then measures that worst fault back to back in its faulty-server row.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { faultCatalog } from '../reference/server.js';
import { ROOT } from '../specs/support/core/config.js';
import { runOnce, secs, type RunStats } from './bench.js';

const EVERY = 12;

interface Row {
  fault: string;
  date: string;
  wallMs: number;
  conformantWallMs: number;
  ratio: number;
  failed: number;
  repeats: number;
  workerProcesses?: number;
  requests: number;
  verdict?: string;
  exitCode: number | null;
  loadBefore: number;
}
const FILE = resolve(ROOT, 'reports/bench-faults.json');
const last: Row[] = existsSync(FILE)
  ? ((f: { date: string; faults: Row[] }) => f.faults.map((r) => ({ ...r, date: r.date ?? f.date })))(JSON.parse(readFileSync(FILE, 'utf8')))
  : [];
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (process.argv.includes('--again')) names.push(...last.filter((r) => r.ratio > 1.5).map((r) => r.fault));
if (process.argv.includes('--again') && !names.length) {
  console.log('bench:faults --again: the last survey has no fault over ×1.5');
  process.exit(0);
}
const catalog = faultCatalog();
const faults = names.length ? catalog.filter((f) => names.includes(f.name)) : catalog;
const unknown = names.filter((n) => !catalog.some((f) => f.name === n));
if (unknown.length) throw new Error(`unknown faults: ${unknown.join(', ')}`);

async function main(): Promise<void> {
  const loadAtStart = loadavg().map((x) => Math.round(x * 100) / 100);
  console.log(`bench:faults: ${faults.length} faults, whole suite each, a conformant run every ${EVERY} (${cpus().length} CPUs, load ${loadAtStart[0]})`);
  const conformant: { at: number; run: RunStats }[] = [];
  const measured: { index: number; fault: string; run: RunStats }[] = [];
  const baseline = async (at: number) => {
    const run = await runOnce(`faults-conformant-${at}`, { REFERENCE_FAULTS: '' }, []);
    conformant.push({ at, run });
    console.log(`  conformant: ${secs(run.wallMs)} (load ${run.loadBefore.toFixed(1)})`);
  };
  await baseline(0);
  for (const [i, f] of faults.entries()) {
    const run = await runOnce(`faults-${f.name}`, { REFERENCE_FAULTS: f.name }, []);
    measured.push({ index: i + 1, fault: f.name, run });
    console.log(
      `  [${String(i + 1).padStart(3)}/${faults.length}] ${f.name.padEnd(40)} ${secs(run.wallMs).padStart(8)}  ${run.failed} failed (${run.repeats} held), ${run.workerProcesses ?? '?'} workers, ${run.verdict}`,
    );
    if ((i + 1) % EVERY === 0 || i + 1 === faults.length) await baseline(i + 1);
  }

  /** The mean wall time of the conformant runs just before and just after the fault's run. */
  const around = (index: number) => {
    const before = [...conformant].reverse().find((c) => c.at < index) ?? conformant[0];
    const after = conformant.find((c) => c.at >= index) ?? before;
    return (before.run.wallMs + after.run.wallMs) / 2;
  };
  const today = new Date().toISOString();
  const fresh: Row[] = measured.map((m) => {
    const base = around(m.index);
    return {
      fault: m.fault,
      date: today,
      wallMs: m.run.wallMs,
      conformantWallMs: Math.round(base),
      ratio: Math.round((m.run.wallMs / base) * 100) / 100,
      failed: m.run.failed,
      repeats: m.run.repeats,
      workerProcesses: m.run.workerProcesses,
      requests: m.run.requests,
      verdict: m.run.verdict,
      exitCode: m.run.exitCode,
      loadBefore: m.run.loadBefore,
    };
  });
  // Rows of faults not measured this time stay as the last survey measured them (faults no longer in the catalog go).
  const rows = [...fresh, ...last.filter((r) => catalog.some((f) => f.name === r.fault) && !fresh.some((f) => f.fault === r.fault))].sort(
    (a, b) => b.ratio - a.ratio,
  );
  const over = rows.filter((r) => r.ratio > 1.5);
  const out = {
    date: new Date().toISOString(),
    load: { atStart: loadAtStart, atEnd: loadavg().map((x) => Math.round(x * 100) / 100) },
    machine: { cpus: cpus().length, node: process.version },
    summary: { faults: rows.length, worst: rows[0], over1_5: over.map((r) => r.fault), conformantWallMs: conformant.map((c) => c.run.wallMs) },
    faults: rows,
  };
  mkdirSync(resolve(ROOT, 'reports'), { recursive: true });
  writeFileSync(FILE, JSON.stringify(out, null, 2));
  console.log(`\nworst first (ratio to the conformant runs around it):`);
  for (const r of rows.slice(0, 15))
    console.log(
      `  ×${r.ratio.toFixed(2)}  ${r.fault.padEnd(40)} ${secs(r.wallMs).padStart(8)}  ${r.failed} failed, ${r.repeats} held  (${r.date.slice(0, 16)})`,
    );
  console.log(
    `\n${rows.length} faults: ${over.length ? `${over.length} over ×1.5 (${over.map((r) => r.fault).join(', ')})` : 'every one within ×1.5'} of the conformant run; reports/bench-faults.json written.`,
  );
}

void main();
