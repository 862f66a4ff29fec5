/**
 * `crm-conformance <command>`: the suite as a dev dependency of a server's own repository.
 *
 *   run [playwright flags…]   the conformance suite (`playwright test` with the packaged configuration)
 *   doctor                    preflight: configuration and profile checked against the target
 *   profile init [--out f]    drafts a target profile from what the target can tell
 *   reference                 the embedded reference server alone (REFERENCE_PORT, REFERENCE_AUTH_PORT)
 *   merge <dir…> [--out d]    one report from the report directories of a sharded run
 *   diff <before> <after>     what changed between two runs, rule by rule (exit 1 on a MUST regression)
 *   compare <run>…            runs side by side (implementations or releases × rules)
 *   summary [run]             the job summary and annotations of a run for CI
 *   report [dir]              the Allure report of a report directory, one HTML file
 *   schemas [dir]             writes the JSON Schemas and openapi.json (default reports/schemas)
 */
import { resolve } from 'node:path';

export const USAGE = `usage: crm-conformance <command>

  run [--no-doctor] [playwright flags…]  run the suite (e.g. --grep @UPSERT-4, --shard=1/3, --project api);
                                         reports go to $CRM_REPORT_DIR (default ./reports)
                                         --depth quick|standard|deep: CRM_DEPTH (quick gate, full run, nightly)
  doctor [--json]                        check the configuration and the profile against the target
  profile init [--out file] [--force]    draft a target profile from what the target shows
  reference                              start the reference server (REFERENCE_PORT, REFERENCE_AUTH_PORT)
  merge <dir…> [--out dir] [--no-allure] merge the reports of a sharded run
  diff <before> <after> [--format f]     what changed between two runs, rule by rule; exit 1 on a MUST regression
  compare <run> <run>… [--out dir]       runs side by side: one offline HTML page and Markdown
  summary [run] [--base run] [--github]  a run's job summary (and its diff against --base); --github:
                                         to $GITHUB_STEP_SUMMARY, with error annotations
  report [dir]                           build the Allure report of a report directory (default ./reports)
  schemas [dir]                          write the JSON Schemas and openapi.json (default ./reports/schemas)

Configuration: CRM_* environment variables (CRM_BASE_URL, CRM_ACCESS_TOKEN, CRM_USER_EMAIL,
CRM_PROFILE, CRM_PUBLIC_URL, CRM_ALLOW_WRITES, …); see the README.`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run': {
      const { run } = await import('./run.js');
      return run(rest);
    }
    case 'doctor': {
      const { doctorCommand } = await import('./doctor.js');
      return doctorCommand(rest);
    }
    case 'profile': {
      if (rest[0] !== 'init') break;
      const { profileInitCommand } = await import('./profile-init.js');
      return profileInitCommand(rest.slice(1));
    }
    case 'reference': {
      // reference/main.ts reads REFERENCE_* and keeps the process alive until SIGINT/SIGTERM.
      await import('../reference/main.js');
      return new Promise<number>(() => undefined);
    }
    case 'merge': {
      const { runMerge } = await import('./run.js');
      return runMerge(rest);
    }
    case 'diff': {
      const { diffCommand } = await import('./compare.js');
      return diffCommand(rest);
    }
    case 'compare': {
      const { compareCommand } = await import('./compare.js');
      return compareCommand(rest);
    }
    case 'summary': {
      const { summaryCommand } = await import('./compare.js');
      return summaryCommand(rest);
    }
    case 'report': {
      const { runReport } = await import('./run.js');
      return runReport(rest);
    }
    case 'schemas': {
      const { exportSchemas } = await import('../contracts/export.js');
      const res = exportSchemas(resolve(rest[0] ?? 'reports/schemas'));
      console.log(`wrote ${res.schemas.length} JSON Schemas and openapi.json to ${res.outDir}`);
      return 0;
    }
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      console.log(USAGE);
      return command ? 0 : 2;
  }
  console.error(`crm-conformance: unknown command ${argv.join(' ')}\n\n${USAGE}`);
  return 2;
}
