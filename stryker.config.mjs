/**
 * StrykerJS: mutation testing of the reference server, with the suite as its test runner
 * (`npm run mutants`, scripts/mutants.ts, which runs StrykerJS on a Node it supports: 22 or later).
 * Each mutant is one run of the suite at quick depth against the embedded reference server, which
 * Playwright starts in Stryker's sandbox; the mutated server takes the active mutant from the
 * environment it inherits. A run that fails (a MUST rule) kills the mutant. docs/calibration.md,
 * "Mutation testing", says how to run it and what a survivor means.
 *
 * - The sandbox is a directory of reports/ (git, ESLint and Prettier ignore reports/; `tsc -p .`
 *   skips directories whose name starts with a dot), and it links no node_modules of its own: the
 *   suite resolves packages from the project's, above it, but the embedded server keeps its bundle
 *   in the sandbox's node_modules/.cache (scripts/start-reference.mjs), apart from the checkout's.
 *   So Playwright is started by its path (npx would look for it in the sandbox).
 * - Concurrent runs in the one sandbox keep their reports apart (CRM_REPORT_DIR, the shell's pid).
 * - No TypeScript: `tsconfigFile` names no file (StrykerJS would rewrite a tsconfig.json through the
 *   JavaScript API of the `typescript` package, which TypeScript 7 no longer has), no checker.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** The spec paths a run's command is limited to (`MUTANTS_SPECS`, space-separated; unset: the whole suite), set by scripts/mutants.ts. */
const SPECS = (process.env.MUTANTS_SPECS ?? '').split(/\s+/).filter(Boolean);
/** The depth of the suite run per mutant (`MUTANTS_DEPTH`): quick, or standard for the pass that looks for quick's blind spots. */
const DEPTH = process.env.MUTANTS_DEPTH === 'standard' ? 'standard' : 'quick';
/** Where the reports and the incremental file go (`MUTANTS_OUT`): the standard pass keeps its own. */
const OUT = process.env.MUTANTS_OUT || 'reports/mutation';

/**
 * The command that runs the suite for one mutant (and the dry run): `depth`, strict (a SHOULD
 * failure fails the run: a mutant the suite only warns about is killed too), stopping at its first
 * failure, its reports in a directory of its own, removed after it; `paths` limits the specs.
 */
export function suiteCommand(paths = [], depth = 'quick') {
  const dir = 'reports/mutant-$$';
  const playwright = JSON.stringify(join(ROOT, 'node_modules/@playwright/test/cli.js'));
  const run = [
    `CRM_DEPTH=${depth}`,
    'CRM_STRICT=1',
    'CRM_REPORTERS=minimal',
    `CRM_REPORT_DIR=${dir}`,
    'node',
    playwright,
    'test',
    '--max-failures=1',
    ...paths,
  ].join(' ');
  return `${run}; status=$?; rm -rf ${dir}; exit $status`;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'reference/routes/**/*.ts',
    'reference/search.ts',
    'reference/model.ts',
    'reference/store.ts',
    'reference/http.ts',
    'reference/custom-fields.ts',
    'reference/app.ts',
    'reference/server.ts',
  ],
  testRunner: 'command',
  commandRunner: { command: suiteCommand(SPECS, DEPTH) },
  coverageAnalysis: 'off',
  // The mutants that are no matter of the spec, known before any run (scripts/stryker-ignorers.mjs).
  plugins: ['./scripts/stryker-ignorers.mjs'],
  ignorers: ['error-text', 'log-output', 'hook-point', 'area-label', 'open-choice', 'other-alternative'],
  checkers: [],
  tsconfigFile: 'reports/mutation/no-tsconfig.json',
  disableTypeChecks: false,
  // One suite run at a time: the suite has workers of its own. On 2 CPUs under a load of 10 to 18,
  // 25 mutants took 8 min 46 s with one, 14 min 13 s with two at once.
  concurrency: 1,
  // A quick run takes 25 to 30 s on 2 CPUs (a killed mutant's less), and longer on a loaded machine:
  // a mutant times out after twice the dry run's time and 60 s more (a server that hangs fails a
  // test first, at Playwright's 30 s test timeout, which kills the mutant).
  timeoutFactor: 2,
  timeoutMS: 60_000,
  dryRunTimeoutMinutes: 10,
  incremental: true,
  incrementalFile: `${OUT}/stryker-incremental.json`,
  reporters: ['clear-text', 'html', 'json', process.stdout.isTTY ? 'progress' : 'progress-append-only'],
  htmlReporter: { fileName: `${OUT}/mutation.html` },
  jsonReporter: { fileName: `${OUT}/mutation.json` },
  tempDirName: 'reports/.stryker-tmp',
  symlinkNodeModules: false,
  // Not copied to the sandbox (node_modules, .git and tempDirName never are).
  ignorePatterns: ['/reports', '/test-results', '/playwright-report', '/blob-report', '/allure-results', '/dist', '*.tgz', '*.log'],
};
