/**
 * Runs once before the workers start: cleans the Allure results of the previous run and
 * prints what the run targets.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, ROOT } from './config.js';

export default async function globalSetup(): Promise<void> {
  const cfg = loadConfig();
  const out = resolve(ROOT, process.env.CRM_REPORT_DIR ?? 'reports');
  rmSync(resolve(out, 'allure-results'), { recursive: true, force: true });
  const target = cfg.embedded ? `embedded reference server at ${cfg.baseUrl}` : cfg.baseUrl;
  console.log(`crm-conformance run ${cfg.runId}: target ${target}; profile ${cfg.profileSource}; records created by this run carry the tag crm-conformance-${cfg.runId}`);
}
