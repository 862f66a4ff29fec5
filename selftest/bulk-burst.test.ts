/**
 * BULK-9 and BULK-10 judge one burst (specs/opportunities/bulk.burst.optional.spec.ts): the
 * first of the two tests to run makes it, the other judges it once with a copy of its exchanges.
 * Checked both ways against the reference server: the two tests send one burst between them and
 * pass; a target stuck after a burst (`bulk-rate-limit-stuck`) still fails BULK-10 on the burst
 * BULK-9 made; and BULK-10 run alone makes its own burst. The run's bulk-schedule.json records
 * the one window and the slots around it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { BULK_SCHEDULE_FILE, PER_WINDOW, type BulkScheduleFile } from '../specs/support/core/rate-limit.js';
import { printedReport, readJson, ROOT, runPlaywright, specsOf, type ReportSuite } from './helpers.js';

const SPEC = 'specs/opportunities/bulk.burst.optional.spec.ts';
const NOTE = /^judged on the burst BULK-9 made/;

interface Annotation {
  type: string;
  description?: string;
}
interface Attachment {
  name: string;
  path?: string;
}
interface Spec {
  title: string;
  tests: { annotations?: Annotation[]; results?: { status: string; attachments?: Attachment[]; annotations?: Annotation[] }[] }[];
}

/** Each test of the run by its rule: status, annotations, the exchanges it keeps as evidence. */
async function run(name: string, args: string[], env: Record<string, string> = {}) {
  const res = await runPlaywright([SPEC, ...args, '--reporter=json'], { CRM_REPORT_DIR: `reports/runs/selftest-bulk-burst-${name}`, ...env }, 120_000);
  const byRule = new Map<string, { status: string; annotations: Annotation[]; exchanges: { method: string; url: string }[] }>();
  for (const spec of specsOf(printedReport<{ suites: ReportSuite<Spec>[] }>(res, name))) {
    for (const t of spec.tests) {
      const r = t.results?.[0];
      const file = r?.attachments?.find((a) => a.name === 'exchanges.json')?.path;
      byRule.set(spec.title.split(' ')[0], {
        status: r?.status ?? 'none',
        annotations: [...(t.annotations ?? []), ...(r?.annotations ?? [])],
        exchanges: file ? readJson(file) : [],
      });
    }
  }
  const schedule = readJson<BulkScheduleFile>(resolve(ROOT, `reports/runs/selftest-bulk-burst-${name}`, BULK_SCHEDULE_FILE));
  return { byRule, ms: res.ms, schedule };
}

const notes = (x: { annotations: Annotation[] }) => x.annotations.filter((a) => a.type === 'note').map((a) => a.description ?? '');
const warnings = (x: { annotations: Annotation[] }) => x.annotations.filter((a) => a.type === 'warning').map((a) => a.description ?? '');

test('BULK-9 and BULK-10 judge one burst between them, a stuck target still fails BULK-10, and BULK-10 alone makes its own', async (t) => {
  const [both, stuck, alone] = await Promise.all([
    run('both', []),
    run('stuck', [], { REFERENCE_FAULTS: 'bulk-rate-limit-stuck' }),
    run('alone', ['--grep', 'BULK-10']),
  ]);

  const b9 = both.byRule.get('BULK-9')!;
  const b10 = both.byRule.get('BULK-10')!;
  assert.equal(b9.status, 'passed');
  assert.equal(b10.status, 'passed');
  assert.deepEqual(warnings(b9).concat(warnings(b10)), [], 'the reference server meets both rules');
  assert.ok(
    notes(b10).some((n) => NOTE.test(n)),
    `BULK-10 says it judged BULK-9's burst: ${notes(b10).join(' | ')}`,
  );
  assert.ok(!notes(b9).some((n) => NOTE.test(n)), 'BULK-9 made the burst');
  // One empty request alone, the burst of 8, at least one poll: BULK-10's evidence is BULK-9's exchanges.
  assert.ok(b9.exchanges.length >= 10, `BULK-9 kept its burst as evidence (${b9.exchanges.length} exchanges)`);
  assert.deepEqual(
    b10.exchanges.map((x) => `${x.method} ${x.url}`),
    b9.exchanges.map((x) => `${x.method} ${x.url}`),
    'BULK-10 attaches the exchanges of the burst it judged, and sent nothing itself',
  );
  // The run's record of its bulk calls: the one burst window (the burst's requests are its own), no slots closer than the limit.
  const [target] = both.schedule.targets;
  assert.equal(both.schedule.targets.length, 1);
  assert.equal(target.summary.windows, 1, JSON.stringify(target.summary));
  assert.ok(target.summary.busiest <= PER_WINDOW, JSON.stringify(target.summary));
  assert.ok(
    target.entries.every((e) => e.kind !== 'slot' || e.answeredAt !== undefined),
    "every slot's answer was reported",
  );

  const s10 = stuck.byRule.get('BULK-10')!;
  assert.ok(
    notes(s10).some((n) => NOTE.test(n)),
    "against the stuck target BULK-10 judges BULK-9's burst too",
  );
  assert.ok(
    warnings(s10).some((w) => /BULK-10 not met/.test(w)),
    `bulk-rate-limit-stuck is caught on BULK-10 (a SHOULD: a warning): ${warnings(s10).join(' | ') || 'no warning'}`,
  );

  const a10 = alone.byRule.get('BULK-10')!;
  assert.equal(alone.byRule.has('BULK-9'), false);
  assert.equal(a10.status, 'passed');
  assert.ok(!notes(a10).some((n) => NOTE.test(n)), 'run alone, BULK-10 makes its own burst');
  assert.ok(a10.exchanges.length >= 10, `BULK-10 alone sent its burst (${a10.exchanges.length} exchanges)`);
  t.diagnostic(`runs of ${(both.ms / 1000).toFixed(1)}, ${(stuck.ms / 1000).toFixed(1)} and ${(alone.ms / 1000).toFixed(1)} s`);
});
