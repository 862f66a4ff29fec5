/** The catalog: every normative statement of the specification. */
import { generalRules } from './general.js';
import { recordRules } from './records.js';
import { projectRules } from './projects.js';
import { searchRules } from './search.js';
import { leadRules } from './leads.js';
import { oauthRules } from './oauth.js';
import { webhookRules } from './webhooks.js';
import type { Rule } from './types.js';

export * from './types.js';

export const RULES: readonly Rule[] = [...generalRules, ...recordRules, ...projectRules, ...searchRules, ...leadRules, ...oauthRules, ...webhookRules];

const byId = new Map(RULES.map((r) => [r.id, r]));

export function getRule(id: string): Rule {
  const found = byId.get(id);
  if (!found) throw new Error(`Unknown rule id "${id}": add it to rules/ or fix the test title`);
  return found;
}

export function hasRule(id: string): boolean {
  return byId.has(id);
}

/** The rule id at the start of a test title, e.g. "UPSERT-4 more than one match …" → "UPSERT-4". */
export function ruleIdOfTitle(title: string): string | undefined {
  return /^([A-Z]+-\d+)\b/.exec(title)?.[1];
}
