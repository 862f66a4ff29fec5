/**
 * `crm-conformance doctor`: in seconds, before any test, checks the configuration and the target
 * profile against the target and prints one line per check, each failed line with how to fix it:
 * credentials (header and Bearer: cli/doctor-credentials.ts), each fixture of the profile found
 * and of the right shape (cli/doctor-fixtures.ts), with writes allowed a probe project, the
 * receivers reachable from the target (a webhook round trip) and each extension answering
 * (cli/doctor-writes.ts), and the OAuth pages and login as the OAuth specs do them, for the
 * redirect_uri the run will send (in Chromium, up to the consent screen: FAIL when the suite
 * cannot log in; cli/doctor-oauth.ts). FAIL lines are fatal: `crm-conformance run` does not start
 * on one (its short form prints only what is not OK). WARN lines are not.
 *
 * Writes (one project, tagged `crm-conformance-<run id>` and `crm-conformance-doctor`, carrying a
 * value of every custom field of the profile; a task through the create_task extension; a
 * follow and unfollow; one webhook subscription, deleted again) only when writes are allowed.
 */
import { randomBytes } from 'node:crypto';
import { ApiClient, ConfigError, findChromium, loadConfig, type TargetConfig } from './suite.js';
import { Checks, type Line, type Status } from './doctor-checks.js';
import { checkCredentials } from './doctor-credentials.js';
import { checkFixtures } from './doctor-fixtures.js';
import { checkOAuth } from './doctor-oauth.js';
import { checkWrites } from './doctor-writes.js';

export type { Line, Status } from './doctor-checks.js';
export { WEBHOOK_DEADLINE_MS } from './doctor-writes.js';

export interface DoctorReport {
  lines: Line[];
  fatal: boolean;
  ms: number;
  target?: string;
  /** Records the doctor created (tagged crm-conformance-<run id> and crm-conformance-doctor). */
  created?: { path: string; id: unknown }[];
}

/** The configuration, or the lines that say why there is none. Writes not allowed ⇒ read-only checks. */
function configure(checks: Checks): { cfg: TargetConfig; writes: boolean } | undefined {
  try {
    const cfg = loadConfig();
    return { cfg, writes: cfg.allowWrites };
  } catch (first) {
    if (!(first instanceof ConfigError)) throw first;
    let err: ConfigError = first;
    if (/CRM_ALLOW_WRITES is not set/.test(err.message)) {
      process.env.CRM_ALLOW_WRITES = '1'; // this process only: the checks below stay read-only
      try {
        return { cfg: loadConfig(), writes: false };
      } catch (again) {
        if (!(again instanceof ConfigError)) throw again;
        err = again; // the second attempt's error is the one to report
      }
    }
    const message = err.message.replace(/^crm-conformance configuration error: /, '');
    const fix = /CRM_BASE_URL is not set/.test(message)
      ? 'set CRM_BASE_URL to your server (without CRM_BASE_URL, `crm-conformance run` tests the embedded reference server and needs no doctor)'
      : 'correct the variable or the profile named above';
    checks.add('configuration', 'fail', message, fix);
    return undefined;
  }
}

/** Whether the run may write: OK on loopback or with CRM_ALLOW_WRITES=1, else FAIL (the checks then stay read-only). */
function writesLine(checks: Checks, cfg: TargetConfig, writes: boolean): void {
  if (writes)
    checks.add(
      'writes allowed',
      'ok',
      cfg.loopback ? 'loopback target: writes allowed' : 'CRM_ALLOW_WRITES=1: the run may create records (tagged, listed in reports/created-records.json)',
    );
  else
    checks.add(
      'writes allowed',
      'fail',
      `${cfg.baseUrl} is not a loopback address and CRM_ALLOW_WRITES is not set: the suite refuses to run; the checks below do not write`,
      'set CRM_ALLOW_WRITES=1 once you accept that the run creates records on this account (each tagged crm-conformance-<run id>, listed in reports/created-records.json)',
    );
}

export async function runDoctor(): Promise<DoctorReport> {
  const started = Date.now();
  const checks = new Checks();
  const conf = configure(checks);
  if (!conf) return { lines: checks.lines, fatal: true, ms: Date.now() - started };
  const { cfg, writes } = conf;
  checks.add('configuration', 'ok', `target ${cfg.baseUrl}; profile ${cfg.profileSource}`);
  writesLine(checks, cfg, writes);
  const api = new ApiClient(undefined, { honour429: true });
  // Loading the browser module takes seconds: started now, awaited at the end.
  const browser = cfg.oauth.clientId
    ? findChromium(cfg.chromiumPath).catch((err: Error) => ({ path: undefined, searched: [`(lookup failed: ${err.message})`] }))
    : undefined;
  const client = await checkCredentials(checks, cfg, api);
  if (!client) return { lines: checks.lines, fatal: true, ms: Date.now() - started, target: cfg.baseUrl };
  const probe = { checks, cfg, client };
  const usable = await checkFixtures(probe);
  await checkWrites(probe, writes, usable);
  await checkOAuth(checks, cfg, api, browser);
  const created = api.recorder.created.filter((c) => c.path !== '/webhooks' && !c.path.endsWith('/follow'));
  return { lines: checks.lines, fatal: checks.lines.some((l) => l.status === 'fail'), ms: Date.now() - started, target: cfg.baseUrl, created };
}

const MARK: Record<Status, string> = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL', skip: 'skip' };

/** The table; the short form (start of a run) shows only what is not OK, and one summary line. */
export function formatReport(report: DoctorReport, options: { short?: boolean } = {}): string {
  const shown = options.short ? report.lines.filter((l) => l.status === 'fail' || l.status === 'warn') : report.lines;
  const width = Math.min(40, Math.max(0, ...shown.map((l) => l.check.length)));
  const out = shown.map((l) => `${MARK[l.status]}  ${l.check.padEnd(width)}  ${l.detail}${l.fix ? `\n${' '.repeat(width + 8)}fix: ${l.fix}` : ''}`);
  const count = (s: Status) => report.lines.filter((l) => l.status === s).length;
  out.push(
    `crm-conformance doctor${report.target ? ` (${report.target})` : ''}: ${count('ok')} ok, ${count('warn')} warning(s), ${count('fail')} failure(s), ${count('skip')} skipped in ${(report.ms / 1000).toFixed(1)} s${report.fatal ? ' — NOT READY' : ' — ready'}`,
  );
  return out.join('\n');
}

/** Set by `crm-conformance run` once its doctor passed, so that the run's global setup does not check again. */
export const DOCTOR_DONE_ENV = 'CRM_DOCTOR_DONE';

/**
 * The doctor's short form at the start of a run (for the suite's global setup): prints the lines
 * that are not OK and the summary, and throws when one is FAIL. Nothing to do for the embedded
 * reference server, or when `crm-conformance run` has just checked (CRM_DOCTOR_DONE=1).
 */
export async function preflight(): Promise<void> {
  if (process.env[DOCTOR_DONE_ENV] === '1' || process.env.CRM_EMBEDDED === '1') return;
  const report = await runDoctor();
  console.log(formatReport(report, { short: true }));
  if (report.fatal) throw new Error('crm-conformance: the run does not start: fix the FAIL lines above (`npx crm-conformance doctor` shows every check)');
}

export async function doctorCommand(args: string[]): Promise<number> {
  // A run id of its own: the tag of the probe records, and no state shared with other processes.
  process.env.CRM_RUN_ID ||= randomBytes(4).toString('hex');
  const report = await runDoctor();
  console.log(args.includes('--json') ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.fatal ? 1 : 0;
}
