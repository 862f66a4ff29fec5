/**
 * Runs once before the workers start: cleans the Allure results of the previous run, starts
 * the run-wide bulk limiter (specs/support/core/rate-limit.ts; workers find it through the
 * environment) and prints what the run targets. The returned function is the global teardown.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, ROOT } from './core/config.js';
import { COORDINATOR_ENV, marginFor, startBulkCoordinator } from './core/rate-limit.js';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const cfg = loadConfig();
  const out = resolve(ROOT, process.env.CRM_REPORT_DIR ?? 'reports');
  rmSync(resolve(out, 'allure-results'), { recursive: true, force: true });
  const target = cfg.embedded ? `embedded reference server at ${cfg.baseUrl}` : cfg.baseUrl;
  console.log(`crm-conformance run ${cfg.runId}: target ${target}; profile ${cfg.profileSource}; records created by this run carry the tag crm-conformance-${cfg.runId}`);
  // Bulk calls of all workers share one schedule: at most 3 per second across the run.
  const bulkCoordinator = await startBulkCoordinator(marginFor(cfg.loopback));
  process.env[COORDINATOR_ENV] = bulkCoordinator.url;
  return async () => {
    await bulkCoordinator.close();
  };
}
