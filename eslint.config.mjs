/**
 * ESLint (flat config): the layering of CONTRIBUTING.md as `no-restricted-imports`, a line length,
 * the size of a module and of a function, and a few correctness rules. `npm run lint` runs it with
 * `prettier --check`; selftest/lint.test.ts runs `npm run lint`, so `npm test` and CI do too.
 *
 * Parser: @babel/eslint-parser with @babel/preset-typescript. typescript-eslint needs a TypeScript
 * of its supported range (< 6.1) and this project uses TypeScript 7; Babel parses TypeScript
 * syntax without the TypeScript package. It gives no type information and its scope analysis does
 * not see uses in type positions, so `no-unused-vars` and `no-undef` are off: `tsc -p .` (strict)
 * and selftest/typecheck.unit.test.ts cover them.
 *
 * Layer patterns are regular expressions over the import specifier as written (relative paths).
 * The layers, top down: selftest/ (the project's own tests); scripts/ and cli/; reporting/; specs/
 * (its own layers below); then reference/, generators/, contracts/ and the catalogs of rules/
 * (rules/write-list.ts is tooling: it lists the tests and reads reference/). Nothing imports
 * selftest/, reporting/ does not import scripts/, specs/ imports neither: a helper the tooling
 * shares lives in the lowest layer that needs it (specs/support/core/suite-run.ts runs the suite as
 * a child process, reporting/outcomes.ts reads the outcomes a run wrote, specs/support/core/
 * write-whole.cjs writes a file whole; selftest/helpers.ts re-exports them for the self-tests).
 */
import js from '@eslint/js';
import babelParser from '@babel/eslint-parser';

/** The line length for code and comments; Prettier's printWidth (.prettierrc.json) is the same. */
const MAX_LEN = 160;

const CODE = ['**/*.{ts,mts,cts,js,mjs,cjs}'];

/** Spec areas: specs/<area>/… (any directory of specs/ but support/). */
const AREA = '(?!support/)[a-z-]+/';

// What each layer may not import (CONTRIBUTING.md, "Layout and conventions").
const NO_SELFTEST = {
  // A self-test imports its own helpers as ./x.js, which this does not match.
  regex: '(^|/)selftest/',
  message:
    'selftest/ is the top layer: nothing imports it. A helper the tooling shares lives in the layer that owns it (specs/support/core/suite-run.ts, reporting/outcomes.ts, scripts/).',
};
const REPORTING_NO_SCRIPTS = {
  regex: '(^|/)scripts/',
  message: 'reporting/ sits below scripts/: what both need lives in reporting/ or in specs/support/core/ (write-whole.cjs, suite-run.ts).',
};
const SPECS_NO_TOOLING = {
  regex: '(^|/)(reporting|scripts)/',
  message: 'specs/ sits below reporting/ and scripts/ (the tooling that runs it and reports on it): it imports neither.',
};

/** A `no-restricted-imports` setting from forbidden specifier patterns ({ regex, message }); selftest/ is forbidden everywhere. */
const forbid = (...patterns) => ['error', { patterns: [...patterns, NO_SELFTEST].map(({ regex, message }) => ({ regex, message })) }];
/** The same for a module of specs/: neither reporting/ nor scripts/ either. */
const forbidInSpecs = (...patterns) => forbid(...patterns, SPECS_NO_TOOLING);

const NO_REFERENCE = {
  regex: '(^|/)reference/',
  message: 'Specs know a target only through the `target` and `profile` fixtures; they never import from reference/ (CONTRIBUTING principle 3).',
};
const SPEC_NO_CORE = {
  regex: '(^|/)support/core/',
  message: 'Spec files go through the fixtures and helpers, not the core layer: import it from support/fixtures/test.js or a helper (re-export it there).',
};
const CORE_NO_UPPER = {
  // From specs/support/core/: `../x` is specs/support/x (fixtures/, resources/, the helpers), `../../x/` a spec area.
  regex: `^\\.\\./(?!\\.\\./)|^\\.\\./\\.\\./${AREA}`,
  message: 'core/ imports only core/ (and contracts/, rules/): not fixtures/, resources/, the helpers or a spec area.',
};
const RESOURCES_NO_UPPER = {
  // From specs/support/resources/: only ../core/ of specs/support.
  regex: `^\\.\\./(?!core/|\\.\\./)|^\\.\\./\\.\\./${AREA}`,
  message: 'resources/ imports only core/ and resources/: not fixtures/, the helpers or a spec area.',
};
/**
 * The OAuth page driver beside resources/: the flow (oauth-page.ts), what it does on each screen
 * (oauth-screens.ts) and the controls it finds (oauth-controls.ts).
 */
const OAUTH_PAGE_FILES = ['specs/support/oauth-page.ts', 'specs/support/oauth-screens.ts', 'specs/support/oauth-controls.ts'];
const OAUTH_PAGE_NO_UPPER = {
  // They sit beside resources/: they may import ./core/, ./resources/ and each other (page → screens → controls).
  regex: `^\\./(?!core/|resources/|oauth-(screens|controls)\\.js$)|^\\.\\./${AREA}`,
  message: 'oauth-page.ts, oauth-screens.ts and oauth-controls.ts sit beside resources/: they import only core/, resources/ and each other.',
};
const FIXTURES_NO_UPPER = {
  // From specs/support/fixtures/: ../core/, ../resources/ and the OAuth page driver beside resources/
  // (../oauth-page.js, ../oauth-screens.js, ../oauth-controls.js).
  regex: `^\\.\\./(?!core/|resources/|oauth-(page|screens|controls)\\.js$|\\.\\./)|^\\.\\./\\.\\./${AREA}`,
  message: 'fixtures/ imports only core/, resources/ and the OAuth page driver: not the helpers (make, property, search, …) or a spec area.',
};
const NO_PLAYWRIGHT_TEST = {
  regex: '^@playwright/test$',
  message: 'core/ has no Playwright test import (CONTRIBUTING: it is what reporting/, selftest/ and scripts/ use).',
};
/** reporting/, selftest/, scripts/: of specs/, only specs/support/core/. */
const outsideNoUpper = (allowed = []) => ({
  regex: `(^|/)specs/(?!support/core/${allowed.map((a) => `|${a.replace(/^specs\//, '').replace(/[.]/g, '\\.')}$`).join('')})`,
  message:
    'reporting/, selftest/ and scripts/ import only the core layer of specs/support (CONTRIBUTING); an exception is listed in eslint.config.mjs with its reason.',
});

/**
 * Files of reporting/, selftest/ and scripts/ that import above the core layer today, each with
 * what it may import and why. `{,.unit}`: a self-test that starts no suite run is named
 * *.unit.test.ts (npm run test:unit); the entry holds under either name.
 */
const OUTSIDE_EXCEPTIONS = [
  // Self-tests of a module above core import the module they test.
  { file: 'selftest/property-budget{,.unit}.test.ts', allows: ['specs/support/property.js'], why: 'tests the property runner' },
  { file: 'selftest/property-concurrency{,.unit}.test.ts', allows: ['specs/support/property.js'], why: 'tests the property runner (runs in flight)' },
  {
    file: 'selftest/notification-identity{,.unit}.test.ts',
    allows: ['specs/support/resources/webhook-receiver.js'],
    why: 'tests the receiver’s payload matchers',
  },
  { file: 'selftest/webhook-recording{,.unit}.test.ts', allows: ['specs/support/resources/webhook-recording.js'], why: 'tests the recording server' },
  { file: 'selftest/instances{,.unit}.test.ts', allows: ['specs/support/fixtures/instances.js'], why: 'tests the many-instances runner' },
  { file: 'selftest/matchers{,.unit}.test.ts', allows: ['specs/support/fixtures/matchers.js'], why: 'tests the status matchers' },
  { file: 'selftest/refusals{,.unit}.test.ts', allows: ['specs/support/fixtures/matchers.js'], why: 'tests toBeRefused and the quick checks' },
  {
    file: 'selftest/http-client{,.unit}.test.ts',
    allows: ['specs/support/leads.js'],
    why: 'tests that the concurrent race (concurrently) sends through the API client',
  },
  {
    file: 'selftest/computed-values{,.unit}.test.ts',
    allows: ['specs/events/computed.js', 'specs/support/resources/webhook-receiver.js'],
    why: 'tests the computed-values judge and the receiver’s matcher it uses',
  },
  {
    file: 'selftest/oauth-login{,.unit}.test.ts',
    allows: ['specs/support/oauth-page.js', 'specs/support/oauth-controls.js', 'specs/support/resources/callback-receiver.js'],
    why: 'tests the OAuth page driver on each login page, with the callback receiver it drives to',
  },
  { file: 'selftest/bulk-order{,.unit}.test.ts', allows: ['specs/opportunities/bulk.js'], why: 'tests the position-by-position check of a bulk answer' },
  {
    file: 'selftest/depth{,.unit}.test.ts',
    allows: ['specs/support/suite-config.js'],
    why: 'tests the lanes a depth gives a run (the Playwright configuration the settings make)',
  },
  // The fault matrix's Playwright configuration: like playwright.config.ts it reads the instances of the fixtures layer.
  { file: 'scripts/matrix.config.ts', allows: ['specs/support/fixtures/instances.js'], why: 'a Playwright configuration (the fault matrix)' },
  // TODO: matrixWorkers and RANDOM_TAG are plain values; moving them to core/ would end this exception.
  {
    file: 'scripts/calibrate.ts',
    allows: ['specs/support/fixtures/instances.js', 'specs/support/property.js'],
    why: 'the matrix workers and the property tag',
  },
];
/** The directories whose functions are held to {@link MAX_FUNCTION_LINES} (selftest/ is not: a test's body may be long). */
const SIZED = ['cli', 'contracts', 'generators', 'reference', 'reporting', 'rules', 'scripts', 'specs'];
const MAX_FUNCTION_LINES = 80;

/**
 * Files that may hold a function longer than {@link MAX_FUNCTION_LINES} lines, each `{ file, why }`
 * with its reason. None today: every function of the sized directories is within the bound.
 */
const LONG_FUNCTIONS = [];

export default [
  {
    ignores: [
      'node_modules/',
      'dist/',
      'reports/',
      'test-results/',
      'playwright-report/',
      'blob-report/',
      'allure-results/',
      'docs/conformance/',
      // Generated by `npm run rules:list` from rules/choices.json.
      'rules/choices/names.ts',
    ],
  },
  {
    files: CODE,
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      parser: babelParser,
      parserOptions: {
        requireConfigFile: false,
        babelOptions: {
          babelrc: false,
          configFile: false,
          presets: [['@babel/preset-typescript', { allowDeclareFields: true }]],
        },
      },
    },
    rules: {
      ...js.configs.recommended.rules,
      // Checked by tsc (strict), which sees types; under Babel these misfire on type-only uses.
      'no-undef': 'off',
      'no-unused-vars': 'off',
      // TypeScript overloads and declaration merging read as redeclarations to a JavaScript parser.
      'no-redeclare': 'off',
      'no-dupe-class-members': 'off',
      // Playwright fixtures that use no other fixture take `({}, use)`: Playwright requires the pattern.
      'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }],
      // Control characters in patterns are deliberate here (ANSI escapes, NUL in redaction).
      'no-control-regex': 'off',
      'max-len': [
        'error',
        {
          code: MAX_LEN,
          tabWidth: 2,
          ignoreUrls: true,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          // Comments count: a long one is rewrapped.
          ignoreComments: false,
        },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name="only"][callee.object.name=/^(test|describe|it)$/]',
          message: '.only would run this test alone in CI.',
        },
        {
          selector: 'CallExpression[callee.property.name="only"][callee.object.property.name="describe"]',
          message: '.only would run this test alone in CI.',
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },

  // A module of specs/support is small enough to read at once: at most 350 lines, comments included.
  { files: ['specs/support/**/*.ts'], rules: { 'max-lines': ['error', { max: 350 }] } },

  // A function is small enough to read at once: at most 80 lines of code (blank lines and comments
  // not counted), with the exceptions listed above with their reason.
  {
    files: SIZED.map((dir) => `${dir}/**/*.{ts,mts,cts,js,mjs,cjs}`),
    ignores: LONG_FUNCTIONS.map((e) => e.file),
    rules: { 'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true }] },
  },

  // Every layer: no import of selftest/ (the layer configurations below add their own patterns to it);
  // specs/ (suite-config.ts included): neither reporting/ nor scripts/.
  { files: CODE, rules: { 'no-restricted-imports': forbid() } },
  { files: ['specs/**'], rules: { 'no-restricted-imports': forbidInSpecs() } },

  // The layers of specs/support (each imports only the layers below it), the spec files and area helpers.
  { files: ['specs/support/core/**'], rules: { 'no-restricted-imports': forbidInSpecs(CORE_NO_UPPER, NO_PLAYWRIGHT_TEST, NO_REFERENCE) } },
  { files: ['specs/support/resources/**'], rules: { 'no-restricted-imports': forbidInSpecs(RESOURCES_NO_UPPER, NO_REFERENCE) } },
  { files: OAUTH_PAGE_FILES, rules: { 'no-restricted-imports': forbidInSpecs(OAUTH_PAGE_NO_UPPER, NO_REFERENCE) } },
  { files: ['specs/support/fixtures/**'], rules: { 'no-restricted-imports': forbidInSpecs(FIXTURES_NO_UPPER, NO_REFERENCE) } },
  {
    // The helpers above the fixtures. suite-config.ts (the run's Playwright configuration) is the
    // one module of specs/ that reads reference/: the embedded server's open choices.
    files: ['specs/support/*.ts'],
    ignores: [...OAUTH_PAGE_FILES, 'specs/support/suite-config.ts'],
    rules: { 'no-restricted-imports': forbidInSpecs(NO_REFERENCE) },
  },
  {
    files: ['specs/**/*.ts'],
    ignores: ['specs/support/**', '**/*.spec.ts'],
    rules: { 'no-restricted-imports': forbidInSpecs(NO_REFERENCE) },
  },
  { files: ['specs/**/*.spec.ts'], rules: { 'no-restricted-imports': forbidInSpecs(SPEC_NO_CORE, NO_REFERENCE) } },

  // reporting/, selftest/, scripts/: the core layer only, with the exceptions above; reporting/ not scripts/.
  { files: ['reporting/**'], rules: { 'no-restricted-imports': forbid(outsideNoUpper(), REPORTING_NO_SCRIPTS) } },
  {
    files: ['selftest/**', 'scripts/**'],
    ignores: OUTSIDE_EXCEPTIONS.map((e) => e.file),
    rules: { 'no-restricted-imports': forbid(outsideNoUpper()) },
  },
  ...OUTSIDE_EXCEPTIONS.map(({ file, allows }) => ({ files: [file], rules: { 'no-restricted-imports': forbid(outsideNoUpper(allows)) } })),
];
