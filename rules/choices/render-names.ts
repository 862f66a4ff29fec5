/**
 * The generated file rules/choices/names.ts: the alternative names of every open choice of
 * rules/choices.json as a TypeScript type, so that `app.choice(id)` in the reference server is
 * typed to them (an unknown id or name is a type error); a decided choice has only the alternative
 * the spec requires (rules/schema.ts, `decided`). `npm run rules:list` writes it;
 * selftest/choices.test.ts fails while it is out of date.
 */
import { allowedAlternatives, type OpenChoice } from '../schema.js';

export const NAMES_FILE = 'rules/choices/names.ts';

export function renderChoiceNames(choices: readonly OpenChoice[]): string {
  const lines = [
    '/**',
    ' * Generated from rules/choices.json by `npm run rules:list` (rules/choices/render-names.ts); do not',
    ' * edit. The alternative names of every open choice, for the typing of `app.choice(id)` (a decided',
    ' * choice: the one alternative the spec requires).',
    ' */',
    'export interface ChoiceNames {',
  ];
  for (const c of choices) {
    const names = allowedAlternatives(c).map((a) => `'${a.name}'`);
    const one = `  '${c.id}': ${names.join(' | ')};`;
    if (one.length <= 110) lines.push(one);
    else lines.push(`  '${c.id}':`, ...names.map((n, i) => `    | ${n}${i === names.length - 1 ? ';' : ''}`));
  }
  lines.push('}', '');
  return lines.join('\n');
}
