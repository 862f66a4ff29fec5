/**
 * Flakiness check: runs the suite N times in a row against the embedded reference server.
 *
 *     npm run repeat -- 20                    # the whole suite 20 times
 *     npm run repeat -- 10 specs/leads        # some specs 10 times
 *
 *     CRM_PROFILE=p.json CRM_EMBEDDED=1 REFERENCE_LIVE=200 npm run repeat -- 10   # a profile shape, others busy
 *
 * Each run has its own report directory (reports/runs/repeat-<n>) and uses the minimal reporters;
 * it takes these settings of the caller: CRM_WORKERS, CRM_FC_RUNS, CRM_DEPTH, CRM_PROFILE (with
 * CRM_EMBEDDED=1), REFERENCE_VARIANT, REFERENCE_CHOICES, REFERENCE_LIVE, REFERENCE_LIVE_SEED.
 * Prints passes and failures per run and, for every test that failed or warned in some runs but
 * not in others, how often and the first line of its first failure. Writes reports/repeat.json.
 * Exit status 1 when any run failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { failed } from '../reporting/verdict.js';
import { readOutcomes } from '../reporting/outcomes.js';
import { ROOT } from '../specs/support/core/config.js';
import { runPlaywright } from '../specs/support/core/suite-run.js';

const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 10);
const pwArgs = args.filter((a) => !/^\d+$/.test(a));
const env: Record<string, string> = { CRM_REPORTERS: 'minimal' };
for (const k of [
  'CRM_WORKERS',
  'CRM_FC_RUNS',
  'CRM_DEPTH',
  'CRM_PROFILE',
  'CRM_EMBEDDED',
  'REFERENCE_VARIANT',
  'REFERENCE_CHOICES',
  'REFERENCE_LIVE',
  'REFERENCE_LIVE_SEED',
])
  if (process.env[k]) env[k] = process.env[k]!;

interface Bad {
  title: string;
  file: string;
  line: number;
  runs: number[];
  kind: 'failed' | 'warned';
  first: string;
}
const bad = new Map<string, Bad>();
const runs: { run: number; exitCode: number | null; ms: number; tests: number; failed: number; warned: number }[] = [];
async function main(): Promise<void> {
  console.log(`repeat: ${n} run(s) of ${pwArgs.length ? pwArgs.join(' ') : 'the whole suite'} against the reference server`);
  for (let i = 1; i <= n; i++) {
    const dir = `reports/runs/repeat-${i}`;
    const res = await runPlaywright(pwArgs, { CRM_REPORT_DIR: dir, ...env });
    const outcomes = readOutcomes(dir) ?? [];
    let f = 0;
    let w = 0;
    for (const o of outcomes) {
      const kind = failed(o) ? 'failed' : o.warnings.length ? 'warned' : undefined;
      if (!kind) continue;
      if (kind === 'failed') f++;
      else w++;
      const key = `${o.file}:${o.line} ${o.title}`;
      const b = bad.get(key) ?? {
        title: o.title,
        file: o.file,
        line: o.line,
        runs: [],
        kind,
        first: (o.error ?? o.warnings[0] ?? o.status).split('\n')[0].slice(0, 200),
      };
      b.runs.push(i);
      bad.set(key, b);
    }
    runs.push({ run: i, exitCode: res.code, ms: res.ms, tests: outcomes.length, failed: f, warned: w });
    const note = outcomes.length ? '' : ` — no outcome file: ${res.stderr.trim().split('\n').slice(-2).join(' ')}`;
    console.log(
      `  run ${String(i).padStart(2)}: ${res.code === 0 ? 'pass' : 'FAIL'} in ${(res.ms / 1000).toFixed(1)} s — ${outcomes.length} tests, ${f} failed, ${w} warned${note}`,
    );
  }
  const passed = runs.filter((r) => r.exitCode === 0).length;
  console.log(`\n${passed} of ${n} runs passed, ${n - passed} failed.`);
  if (bad.size) {
    console.log('Tests that failed or warned in some runs:');
    for (const b of [...bad.values()].sort((x, y) => y.runs.length - x.runs.length)) {
      console.log(`  ${b.runs.length}/${n} ${b.kind}: ${b.title} (${b.file}:${b.line}) — runs ${b.runs.join(', ')}\n      ${b.first}`);
    }
  } else console.log('No test failed or warned in any run.');
  mkdirSync(resolve(ROOT, 'reports'), { recursive: true });
  writeFileSync(
    resolve(ROOT, 'reports/repeat.json'),
    JSON.stringify({ date: new Date().toISOString(), runs: n, passed, args: pwArgs, perRun: runs, unstable: [...bad.values()] }, null, 2),
  );
  process.exit(passed === n ? 0 : 1);
}

void main();
