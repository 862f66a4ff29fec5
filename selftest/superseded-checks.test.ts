/**
 * A check is superseded only by one that sees the same thing (issue 42): the read-only checks over
 * the account's own records are left out only where the specs with the suite's own records observe
 * the same behaviour. Without a follow extension no record of the suite's is ever followed, so the
 * followed partition of the account's tasks still runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../reporting/verdict.js';
import { ROOT, runPlaywright, scratchDir } from './helpers.js';

/** The reference's profile without the follow extension (a target that can create tasks but not follow them). */
function profileWithoutFollow(dir: string): string {
  const profile = JSON.parse(readFileSync(join(ROOT, 'reference/profile.json'), 'utf8'));
  delete profile.capabilities.extensions.follow;
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

test('without a follow extension, a task search whose followed 2 also answers followed tasks fails SEARCH-9 (the read-only check runs)', async () => {
  const dir = scratchDir('crm-superseded-');
  const res = await runPlaywright(['specs/search', '--grep', '@SEARCH-9'], {
    REFERENCE_FAULTS: 'search-followed-2-includes-followed',
    CRM_PROFILE: profileWithoutFollow(dir),
    CRM_EMBEDDED: '1',
    CRM_REPORT_DIR: dir,
    CRM_REPORTERS: 'minimal',
  });
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  const rule = report.rules.find((r) => r.id === 'SEARCH-9')!;
  assert.equal(rule.verdict, 'FAIL', `${rule.reasons.join('\n')}\n${res.out.slice(-1500)}`);
  assert.ok(
    rule.tests.some((t) => t.status === 'failed' && /read-only: followed 1 and followed 2 partition the tasks/.test(t.title)),
    'the read-only partition of the account tasks is the test that sees it',
  );
});
