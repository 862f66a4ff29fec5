/**
 * The rules catalog: every normative statement of the specification, with a stable id. The
 * records are data, `rules/rules.json` (format and types: rules/schema.ts), validated here as
 * they load; the generated list (`npm run rules:list`) is docs/conformance/.
 */
import data from './rules.json';
import { parseRules, type Rule } from './schema.js';

export { AREAS, CatalogError, LEVELS, type Area, type Level, type Rule, type Source } from './schema.js';
export { normaliseSpecText, ruleLink, sectionAnchor, SPEC_HEADINGS } from './spec-text.js';

export const RULES: readonly Rule[] = parseRules(data);

const byId = new Map(RULES.map((r) => [r.id, r]));

export function getRule(id: string): Rule {
  const found = byId.get(id);
  if (!found) throw new Error(`Unknown rule id "${id}": add it to rules/rules.json or fix the test title`);
  return found;
}

export function hasRule(id: string): boolean {
  return byId.has(id);
}

/** The rule id at the start of a test title, e.g. "UPSERT-4 more than one match …" → "UPSERT-4". */
export function ruleIdOfTitle(title: string): string | undefined {
  return /^([A-Z]+-\d+)\b/.exec(title)?.[1];
}
