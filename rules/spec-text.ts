/**
 * What the catalog's users share about the spec's text, without the spec: the catalog is data
 * (rules.json, choices.json, and spec-headings.json, the spec's headings in order), and a user of
 * the suite has no copy of the spec. Where a report links a rule: the spec's address when a
 * setting gives one (CRM_SPEC_URL), else the rule's row on the rule pages the suite carries
 * (docs/conformance/, each rule quoting the spec's sentence).
 */
import headings from './spec-headings.json';

/**
 * The spec's headings, in order (a heading may occur twice). selftest/rules.unit.test.ts holds
 * them equal to the spec's where the spec is at hand; the rules' sections are among them.
 */
export const SPEC_HEADINGS: readonly string[] = headings;

/** Where a quote is looked up: the spec text with table rows as `cell | cell` and whitespace collapsed. */
export function normaliseSpecText(text: string): string {
  return text
    .split('\n')
    .map((line) => (/^\s*\|/.test(line) ? line.trim().replace(/^\|/, '').replace(/\|$/, '') : line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The spec's heading → the anchor a Markdown renderer gives it. */
export function sectionAnchor(section: string): string {
  return section
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/ /g, '-');
}

/** The rule pages, from the suite's root: one page per area (rules/list.ts renders them, `npm run docs` writes them). */
export const RULE_PAGES = 'docs/conformance';
/** The page of an area, relative to the rule pages. */
export const areaPage = (area: string): string => `${area}.md`;
/** The anchor of a rule's row on its area's page. */
export const ruleAnchor = (id: string): string => id.toLowerCase();

/**
 * Where a report links a rule, from `base` (the configuration's specUrl): a URL of the rule pages
 * (ending in `docs/conformance/`, the default) gives the rule's row on its area's page; any other
 * is the spec's address, and gives the rule's section there.
 */
export function ruleLink(base: string, rule: { id: string; area: string; section: string }): string {
  return base.endsWith(`/${RULE_PAGES}/`) ? `${base}${areaPage(rule.area)}#${ruleAnchor(rule.id)}` : `${base}#${sectionAnchor(rule.section)}`;
}
