/**
 * `npm run rules:list`: writes the generated list, docs/conformance/ (committed, and shipped in the
 * package), from the catalogs, the test list, the contracts, the reference server's faults and
 * routes, and the open choices; and rewrites rules/choices/names.ts, the type of the choices'
 * alternative names, from rules/choices.json. Nothing of it reads the spec: its headings come from
 * the catalog (rules/spec-headings.json). `gatherListInput()` is also what the self-tests render to
 * check the pages (selftest/rules.unit.test.ts) and that the committed ones are current
 * (selftest/generated-docs.unit.test.ts).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as contracts from '../contracts/index.js';
import * as profileContracts from '../contracts/profile.js';
import { ROOT } from '../specs/support/core/config.js';
import { listTests } from '../specs/support/core/suite-run.js';
import { CHOICES, OPEN_CHOICES } from './choices/index.js';
import { NAMES_FILE, renderChoiceNames } from './choices/render-names.js';
import { renderConformancePages, type FaultRef, type ListInput } from './list.js';
import { RULE_PAGES, SPEC_HEADINGS } from './spec-text.js';
import { conditionalJudges, contractCases, contractsOfTests, faultSites, referenceRoutes } from './list-sources.js';

/** Where `npm run rules:list` writes the pages. */
export const LIST_DIR = resolve(ROOT, RULE_PAGES);

/**
 * The reference server's faults, each with the rules it breaks. The one place that knows where
 * they are defined: the registry `ALL_FAULTS` of reference/faults/index.ts.
 */
export function loadFaults(): FaultRef[] {
  const { ALL_FAULTS } = require('../reference/faults/index.js') as typeof import('../reference/faults/index.js');
  return ALL_FAULTS.map((f) => ({ name: f.name, rules: [...f.rules] }));
}

/** Everything the pages are rendered from. */
export function gatherListInput(): ListInput {
  const listed = listTests().map(({ title, file, line, rules, tags }) => ({ title, file, line, rules, tags }));
  // The API's contracts; the target profile's (contracts/profile.ts) describe the suite's own input.
  const contractNames = new Set(
    Object.entries(contracts)
      .filter(([k, v]) => typeof (v as { safeParse?: unknown })?.safeParse === 'function' && !(k in profileContracts))
      .map(([k]) => k),
  );
  const contractsOf = contractsOfTests(ROOT, listed, contractNames);
  const faults = loadFaults();
  return {
    tests: listed.map((t) => ({ ...t, contracts: contractsOf.get(t) ?? [] })),
    cases: contractCases(ROOT),
    faults,
    faultSites: faultSites(
      ROOT,
      faults.map((f) => f.name),
    ),
    routes: referenceRoutes(ROOT),
    conditional: conditionalJudges(ROOT, listed),
    choices: CHOICES,
    headings: [...SPEC_HEADINGS],
  };
}

/** Writes the pages into `dir`, which holds nothing else (what a former run wrote there is removed). */
export function writeConformancePages(pages: Map<string, string>, dir = LIST_DIR): void {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.md') && !pages.has(f)) rmSync(join(dir, f));
  for (const [file, text] of pages) writeFileSync(join(dir, file), text);
}

/** What `npm run rules:list` does (and `npm run docs`, scripts/write-docs.ts): rewrites names.ts, writes the pages. */
export function writeList(): void {
  writeFileSync(resolve(ROOT, NAMES_FILE), renderChoiceNames(CHOICES));
  const input = gatherListInput();
  const pages = renderConformancePages(input);
  writeConformancePages(pages);
  console.log(
    `docs/conformance/: ${pages.size} pages; ${input.tests.length} tests, ${input.faults.length} faults, ${OPEN_CHOICES.length} open choices (${CHOICES.length - OPEN_CHOICES.length} decided); ${NAMES_FILE} rewritten`,
  );
}

if (resolve(process.argv[1] ?? '') === __filename) writeList();
