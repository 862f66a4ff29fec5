/**
 * Runs once before the workers start: clears the previous run's verdict and Allure results, starts
 * the run-wide bulk limiter (specs/support/core/rate-limit.ts; workers find it through the
 * environment, and the teardown writes what it granted to bulk-schedule.json), prints what the
 * run targets, and probes the target (specs/support/core/preflight.ts):
 * when it is dead or answers nonsense, one banner says so before any test, and the tests skip
 * with its reason. The returned function is the global teardown.
 */
import { mkdirSync, rmSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { resolve } from 'node:path';
import { loadConfig, ROOT } from './core/config.js';
import { banner, PREFLIGHT_ENV, PREFLIGHT_FILE, runPreflight, writePreflight } from './core/preflight.js';
import { forgetRunFiles } from './core/run-files.js';
import { OUTCOMES_DIR_ENV } from './core/outcome-records.js';
import { INSTANCES_ENV } from './fixtures/instances.js';
import { BULK_SCHEDULE_FILE, COORDINATOR_ENV, marginFor, startBulkCoordinator, writeBulkSchedule } from './core/rate-limit.js';

/** What an earlier run left in the report directory that this run writes again: a verdict must be this run's own. */
const VERDICT_FILES = ['conformance.json', 'conformance.html', 'conformance-outcomes.json', 'created-records.json'];

/**
 * The report directory before the run: an earlier run's verdict is removed (this run writes its own
 * whatever reporters it has), the Allure results only when this run writes them again; and when no
 * conformance reporter runs (a `--reporter` flag replaced the configured ones), the workers write
 * each test's outcome for the global teardown to judge (reporting/verdict-fallback.ts).
 */
function prepareReportDir(out: string, reporters: FullConfig['reporter']): void {
  const has = (name: string) => reporters.some(([r]) => typeof r === 'string' && r.includes(name));
  for (const f of VERDICT_FILES) rmSync(resolve(out, f), { force: true });
  if (has('allure-reporter')) rmSync(resolve(out, 'allure-results'), { recursive: true, force: true });
  if (!has('conformance-reporter')) {
    const dir = resolve(out, '.outcomes');
    rmSync(dir, { recursive: true, force: true });
    process.env[OUTCOMES_DIR_ENV] = dir;
  } else delete process.env[OUTCOMES_DIR_ENV];
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const cfg = loadConfig();
  const out = resolve(ROOT, process.env.CRM_REPORT_DIR ?? 'reports');
  prepareReportDir(out, config.reporter);
  // A run id given again (CRM_RUN_ID) starts afresh: no latch, no failure seen, no delivery time learned.
  forgetRunFiles();
  const target = cfg.embedded ? `embedded reference server at ${cfg.baseUrl}` : cfg.baseUrl;
  console.log(
    `crm-conformance run ${cfg.runId}: target ${target}; profile ${cfg.profileSource}; records created by this run carry the tag crm-conformance-${cfg.runId}`,
  );
  // Before any test: can the target be judged at all? The workers read the result (skipReason()).
  // Not in a run of many instances (the fault matrix, fixtures/instances.ts): each test targets its
  // own instance, and the faults are meant to be judged by the tests.
  if (!process.env[INSTANCES_ENV]) {
    const preflight = await runPreflight(cfg);
    mkdirSync(out, { recursive: true });
    const preflightFile = resolve(out, PREFLIGHT_FILE);
    writePreflight(preflightFile, preflight);
    process.env[PREFLIGHT_ENV] = preflightFile;
    if (preflight.state !== 'alive') console.log(`\n${banner(preflight)}\n`);
  }
  // Bulk calls of all workers share one schedule: at most 3 per second across the run.
  const bulkCoordinator = await startBulkCoordinator(marginFor(cfg.loopback));
  process.env[COORDINATOR_ENV] = bulkCoordinator.url;
  return async () => {
    const schedules = bulkCoordinator.logs();
    await bulkCoordinator.close();
    // Every bulk call of the run and when it went (the limit kept, and what it cost the run).
    try {
      writeBulkSchedule(resolve(out, BULK_SCHEDULE_FILE), schedules);
    } catch (err) {
      console.error(`crm-conformance: ${BULK_SCHEDULE_FILE} not written: ${(err as Error).message}`);
    }
    forgetRunFiles();
  };
}
