/**
 * Every CRM_* name the code, the docs and the CI examples use is a setting of
 * specs/support/core/settings.ts: any other CRM_* variable stops a run, so a name used anywhere
 * else would be refused (or be a setting nobody can find in docs/configuration.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { SETTING_NAMES } from '../specs/support/core/settings.js';
import { ROOT } from './helpers.js';

/** Names that are not settings on purpose: examples of a misspelling, and a constant's name. */
const NOT_SETTINGS = new Set(['CRM_BASEURL', 'CRM_INSTANCES_ENV']);

test('every CRM_* name used by the code, the docs and the CI examples is a known setting', () => {
  const dirs = ['specs', 'reporting', 'cli', 'scripts', 'reference', 'contracts', 'generators', 'rules', 'docs', 'README.md', 'CONTRIBUTING.md', 'action.yml'];
  const out = execFileSync(
    'grep',
    ['-rhoE', 'CRM_[A-Z0-9_]+', ...dirs, '--include=*.ts', '--include=*.mjs', '--include=*.cjs', '--include=*.yml', '--include=*.md'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  const unknown = [...new Set(out.split('\n').filter(Boolean))].filter((n) => !SETTING_NAMES.has(n) && !NOT_SETTINGS.has(n)).sort();
  assert.deepEqual(unknown, [], 'names that a run would refuse as unknown settings');
});
