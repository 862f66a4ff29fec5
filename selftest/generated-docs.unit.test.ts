/**
 * The generated pages are committed (read on the forge, in a fresh clone, in the package) and
 * current: rendered again here, in memory, each equals the file of the checkout, and no page is
 * left over that is no longer generated. As Kubernetes holds its conformance.yaml: a change to a
 * setting, a rule, a test or a fault that moves a page fails here until `npm run docs` is run and
 * its output committed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderConformancePages } from '../rules/list.js';
import { RULE_PAGES } from '../rules/spec-text.js';
import { gatherListInput } from '../rules/write-list.js';
import { CONFIGURATION_PAGE, configurationPage } from '../scripts/write-docs.js';
import { ROOT } from './helpers.js';

/** Where `written` first differs from `expected`, for the message: the line and both texts. */
function firstDifference(expected: string, written: string): string {
  const a = expected.split('\n');
  const b = written.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i < 0 ? a.length : i;
  const clip = (s: string | undefined) => (s === undefined ? '(no line)' : s.length > 200 ? `${s.slice(0, 197)}...` : s);
  return `line ${at + 1}: generated ${JSON.stringify(clip(a[at]))}, committed ${JSON.stringify(clip(b[at]))}`;
}

function assertCurrent(path: string, expected: string): void {
  const file = resolve(ROOT, path);
  assert.ok(existsSync(file), `${path} is missing: run \`npm run docs\` and commit it`);
  const written = readFileSync(file, 'utf8');
  if (written !== expected) assert.fail(`${path} is out of date (${firstDifference(expected, written)}): run \`npm run docs\` and commit it`);
}

test('docs/configuration.md is the page the settings generate (npm run docs)', () => {
  assertCurrent(CONFIGURATION_PAGE, configurationPage());
});

test('docs/conformance/ holds the pages the catalogs, tests and faults generate, and no other (npm run docs)', () => {
  const pages = renderConformancePages(gatherListInput());
  for (const [file, text] of pages) assertCurrent(`${RULE_PAGES}/${file}`, text);
  const extra = readdirSync(join(ROOT, RULE_PAGES)).filter((f) => !pages.has(f));
  assert.deepEqual(extra, [], `${RULE_PAGES}/ holds pages no longer generated: remove them (\`npm run docs\` does) and commit`);
});
