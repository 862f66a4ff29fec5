/**
 * Builds the Allure report as one self-contained HTML file that opens offline:
 *
 *     npm run report                      # reports/allure-results → reports/allure-report/index.html
 *     npm run report -- reports/runs/x    # another report directory (CRM_REPORT_DIR)
 *
 * Tests are grouped by area (epic), endpoint (feature) and rule (story). Allure Awesome inlines
 * everything except a Google Analytics tag; it is removed, so opening a report never contacts
 * anyone (reports can name the target).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { ROOT } from '../specs/support/core/config.js';

/** Removes the analytics tag Allure Awesome adds to every report. */
export function stripAnalytics(html: string): string {
  return html
    .replace(/<script[^>]*src="https:\/\/www\.googletagmanager\.com\/[^"]*"[^>]*><\/script>/g, '')
    .replace(/<script>\s*window\.dataLayer[\s\S]*?<\/script>/g, '');
}

export interface AllureBuild {
  ok: boolean;
  file: string;
  output: string;
  ms: number;
}

/** `allure awesome <results…> -o <outDir> --single-file`, then strips the analytics tag. */
export function buildAllure(resultsDirs: string[], outDir: string, name = 'CRM Developer API conformance'): AllureBuild {
  const started = Date.now();
  const dirs = resultsDirs.filter((d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith('-result.json')));
  const file = resolve(outDir, 'index.html');
  if (!dirs.length) return { ok: false, file, output: `no Allure results in ${resultsDirs.join(', ')}`, ms: 0 };
  // Wherever npm put the package (this repository's node_modules, or hoisted beside an installed crm-conformance).
  const cli = resolve(require.resolve('allure'), '../../cli.js');
  const res = spawnSync(process.execPath, [cli, 'awesome', ...dirs, '-o', outDir, '--single-file', '--name', name, '--group-by', 'epic,feature,story'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ALLURE_NO_ANALYTICS: 'true', NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  if (res.status !== 0 || !existsSync(file)) return { ok: false, file, output, ms: Date.now() - started };
  writeFileSync(file, stripAnalytics(readFileSync(file, 'utf8')));
  return { ok: true, file, output, ms: Date.now() - started };
}

if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  const dir = resolve(process.argv[2] ?? process.env.CRM_REPORT_DIR ?? 'reports');
  const out = buildAllure([resolve(dir, 'allure-results')], resolve(dir, 'allure-report'));
  if (!out.ok) {
    console.error(`Allure report not built: ${out.output.trim()}`);
    process.exit(1);
  }
  console.log(`Allure report: ${relative(process.cwd(), out.file)} (single file, opens offline; ${out.ms} ms)`);
}
