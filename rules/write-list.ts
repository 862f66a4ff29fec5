/**
 * `npm run rules:list`: rewrites rules/CONFORMANCE.md from the catalog, the test list, the
 * contracts, the reference server's faults and routes, and the open choices.
 * `gatherListInput()` is also what selftest/rules.test.ts renders to check the file is current.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as contracts from '../contracts/index.js';
import * as profileContracts from '../contracts/profile.js';
import { listTests, ROOT } from '../selftest/helpers.js';
import { renderConformanceList, type ChoiceRef, type FaultRef, type ListInput } from './list.js';
import { conditionalJudges, contractCases, contractsOfTests, faultSites, referenceRoutes } from './list-sources.js';

export const SPEC_PATH = resolve(ROOT, '../shared/spec/crm-developer-api.md');

/**
 * The reference server's faults, each with the rules it breaks. The one place that knows where
 * they are defined: `ALL_FAULTS` of reference/faults/index.ts.
 */
export async function loadFaults(): Promise<FaultRef[]> {
  const { ALL_FAULTS } = await import('../reference/faults/index.js');
  return ALL_FAULTS.map((f) => ({ name: f.name, rules: [...f.rules] }));
}

/**
 * The open choices of rules/choices/index.ts, or undefined while that file does not exist. Any
 * exported list of entries with an `id` (or `name`) is read; the text is `text`, `choice`,
 * `question` or `description`, the section and quote those of `source` (or top-level ones).
 */
export async function loadChoices(): Promise<ChoiceRef[] | undefined> {
  const file = resolve(ROOT, 'rules/choices/index.ts');
  if (!existsSync(file)) return undefined;
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  type Entry = Record<string, unknown> & { source?: Record<string, unknown> };
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const out: ChoiceRef[] = [];
  const seen = new Set<string>();
  for (const value of Object.values(mod)) {
    if (!Array.isArray(value)) continue;
    for (const e of value as Entry[]) {
      const id = str(e?.id) ?? str(e?.name);
      if (!id || seen.has(id)) continue;
      seen.add(id);
      out.push({
        id,
        text: str(e.text) ?? str(e.choice) ?? str(e.question) ?? str(e.description) ?? '',
        section: str(e.source?.section) ?? str(e.section),
        quote: str(e.source?.quote) ?? str(e.quote),
        rules: Array.isArray(e.rules) ? e.rules.map(String) : [],
      });
    }
  }
  return out;
}

export function specHeadings(): string[] {
  return [...readFileSync(SPEC_PATH, 'utf8').matchAll(/^#+\s+(.+)$/gm)].map((m) => m[1].trim());
}

/** Everything CONFORMANCE.md is rendered from. */
export async function gatherListInput(): Promise<ListInput> {
  const listed = listTests().map(({ title, file, line, rules, tags }) => ({ title, file, line, rules, tags }));
  // The API's contracts; the target profile's (contracts/profile.ts) describe the suite's own input.
  const contractNames = new Set(Object.entries(contracts)
    .filter(([k, v]) => typeof (v as { safeParse?: unknown })?.safeParse === 'function' && !(k in profileContracts)).map(([k]) => k));
  const contractsOf = contractsOfTests(ROOT, listed, contractNames);
  const faults = await loadFaults();
  return {
    tests: listed.map((t) => ({ ...t, contracts: contractsOf.get(t) ?? [] })),
    cases: contractCases(ROOT),
    faults,
    faultSites: faultSites(ROOT, faults.map((f) => f.name)),
    routes: referenceRoutes(ROOT),
    conditional: conditionalJudges(ROOT, listed),
    choices: await loadChoices(),
    headings: specHeadings(),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const input = await gatherListInput();
  writeFileSync(resolve(ROOT, 'rules/CONFORMANCE.md'), renderConformanceList(input));
  console.log(`rules/CONFORMANCE.md: ${input.tests.length} tests, ${input.faults.length} faults${input.choices ? `, ${input.choices.length} open choices` : ''}`);
}
