/**
 * `crm-conformance run`: `playwright test` with the packaged configuration, Playwright's own
 * flags passed through (`--grep @UPSERT-4`, `--shard=1/3`, `--project api`, …), reports under
 * the caller's working directory (CRM_REPORT_DIR, default ./reports). Before any test the
 * doctor's short form checks the target; a FAIL line stops the run (`--no-doctor` skips it).
 * With no CRM_BASE_URL the configuration starts the embedded reference server, and there is
 * nothing to check beforehand. `--depth quick|standard|deep` sets CRM_DEPTH (specs/support/core/settings.ts).
 *
 * `crm-conformance merge` and `crm-conformance report`: `reporting/merge.ts` and
 * `reporting/allure.ts` from the caller's working directory.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runnableSuite } from './materialize.js';
import { ROOT } from './suite.js';
import { DOCTOR_DONE_ENV, formatReport, runDoctor } from './doctor.js';

/** The caller's report directory, profile and baseline, as absolute paths (Playwright runs from the suite's directory). */
export function suiteEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  out.CRM_REPORT_DIR = resolve(process.cwd(), env.CRM_REPORT_DIR || 'reports');
  if (env.CRM_PROFILE) out.CRM_PROFILE = resolve(process.cwd(), env.CRM_PROFILE);
  if (env.CRM_EXPECTATIONS) out.CRM_EXPECTATIONS = resolve(process.cwd(), env.CRM_EXPECTATIONS);
  return out;
}

function spawnNode(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: process.cwd(), env, stdio: 'inherit' });
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      done(code ?? (signal ? 1 : 0));
    });
  });
}

/** `--depth <d>` or `--depth=<d>` taken out of the arguments: the depth (CRM_DEPTH), and the rest for Playwright. */
export function depthOption(args: string[]): { depth?: string; rest: string[] } {
  const rest: string[] = [];
  let depth: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--depth') depth = args[++i] ?? '';
    else if (a.startsWith('--depth=')) depth = a.slice('--depth='.length);
    else rest.push(a);
  }
  return { depth, rest };
}

export async function run(args: string[]): Promise<number> {
  const { depth, rest } = depthOption(args);
  // The configuration checks the value (quick, standard or deep) with every other setting.
  if (depth !== undefined) process.env.CRM_DEPTH = depth;
  const skipDoctor = rest.includes('--no-doctor');
  const pwArgs = rest.filter((a) => a !== '--no-doctor');
  if (pwArgs[0] === 'test') pwArgs.shift();
  const listing = pwArgs.includes('--list') || pwArgs.includes('--help') || pwArgs.includes('-h');
  // One run id for the doctor's probe records and the run's own (tag crm-conformance-<run id>).
  process.env.CRM_RUN_ID ||= randomBytes(4).toString('hex');
  if (process.env.CRM_BASE_URL && !skipDoctor && !listing) {
    const report = await runDoctor();
    console.log(formatReport(report, { short: true }));
    // Every line and the records the doctor created, beside the run's reports.
    const out = suiteEnv().CRM_REPORT_DIR!;
    mkdirSync(out, { recursive: true });
    writeFileSync(resolve(out, 'doctor.json'), `${JSON.stringify(report, null, 2)}\n`);
    if (report.fatal) {
      console.error(
        'crm-conformance: the run does not start: fix the FAIL lines above (`crm-conformance doctor` shows every check; `--no-doctor` starts anyway).',
      );
      return 2;
    }
  }
  const env = suiteEnv();
  env[DOCTOR_DONE_ENV] = '1'; // checked above, or skipped on purpose: the run's global setup does not check again
  const cli = require.resolve('@playwright/test/cli');
  return spawnNode([cli, 'test', '--config', resolve(runnableSuite(ROOT), 'playwright.config.ts'), ...pwArgs], env);
}

/** A script of reporting/ on the caller's report directories (from their working directory). */
function runReporting(script: string, args: string[]): Promise<number> {
  return spawnNode(['--import', require.resolve('tsx'), resolve(ROOT, 'reporting', script), ...args], suiteEnv());
}

export const runMerge = (args: string[]): Promise<number> => runReporting('merge.ts', args);

/** `crm-conformance report [dir]`: reporting/allure.ts, the Allure report as one HTML file. */
export const runReport = (args: string[]): Promise<number> => runReporting('allure.ts', args);
