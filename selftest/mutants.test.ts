/**
 * Mutation testing runs (`npm run mutants`: scripts/mutants.ts, stryker.config.mjs): StrykerJS, on
 * the Node the script finds, mutates a few lines of reference/routes/pipelines.ts and judges each
 * mutant with the project's command for the suite, limited here to specs/pipelines so that it
 * stays quick; at least one mutant is killed, and the JSON report is written. Its reports and
 * sandbox are its own (a configuration in a scratch directory over the project's), so a
 * `npm run mutants` of the same checkout keeps its reports. Skipped, saying why, when no Node
 * StrykerJS runs on can be had (this Node is older than 22 and the npm registry gives no Node 24).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { strykerBin, strykerNode } from '../scripts/mutants.js';
import { ROOT, readJson, runProcess, scratchDir } from './helpers.js';

/** The line mutated: the route of GET /pipelines (found by its text), a handful of mutants. */
const ROUTE_LINE =
  readFileSync(join(ROOT, 'reference/routes/pipelines.ts'), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes("router.add('GET', '/pipelines'")) + 1;
const RANGE = `reference/routes/pipelines.ts:${ROUTE_LINE}-${ROUTE_LINE}`;

interface MutationReport {
  files: Record<string, { mutants: { mutatorName: string; status: string; location: { start: { line: number } } }[] }>;
}

test('StrykerJS mutates a few lines of the reference server, the suite kills a mutant, the JSON report is written', async (t) => {
  assert.ok(ROUTE_LINE > 0, "reference/routes/pipelines.ts registers GET /pipelines on a line of its own (router.add('GET', '/pipelines', …))");
  assert.ok(strykerBin(), 'StrykerJS is installed (@stryker-mutator/core, a devDependency: npm ci)');
  const node = strykerNode();
  if ('reason' in node) {
    t.skip(node.reason);
    return;
  }
  const dir = scratchDir('crm-mutants-');
  const config = join(dir, 'stryker.config.mjs');
  const report = join(dir, 'mutation.json');
  writeFileSync(
    config,
    [
      `import base, { suiteCommand } from ${JSON.stringify(pathToFileURL(join(ROOT, 'stryker.config.mjs')).href)};`,
      'export default {',
      '  ...base,',
      "  commandRunner: { command: suiteCommand(['specs/pipelines']) },",
      "  reporters: ['json'],",
      `  jsonReporter: { fileName: ${JSON.stringify(report)} },`,
      '  incremental: false,',
      '  concurrency: 1,',
      '};',
      '',
    ].join('\n'),
  );
  const res = await runProcess(process.execPath, ['--import', 'tsx', 'scripts/mutants.ts', config, '--mutate', RANGE], { cwd: ROOT, timeoutMs: 170_000 });
  t.diagnostic(`npm run mutants -- ${config} --mutate ${RANGE}: ${(res.ms / 1000).toFixed(1)} s (StrykerJS on Node ${node.version})`);
  assert.equal(res.code, 0, `the run ends well:\n${res.out.slice(-3000)}`);
  assert.ok(existsSync(report), `the JSON report ${report} is written:\n${res.out.slice(-3000)}`);
  const files = readJson<MutationReport>(report).files;
  assert.deepEqual(Object.keys(files), ['reference/routes/pipelines.ts'], 'the one file mutated');
  const mutants = files['reference/routes/pipelines.ts'].mutants;
  const line = Number(RANGE.split(':')[1].split('-')[0]);
  t.diagnostic(mutants.map((m) => `${m.mutatorName} ${m.status}`).join(', '));
  assert.ok(mutants.length > 0, 'there are mutants');
  assert.deepEqual(
    mutants.filter((m) => m.location.start.line !== line),
    [],
    `only line ${line} is mutated`,
  );
  assert.ok(
    mutants.some((m) => m.status === 'Killed'),
    `a mutant is killed: ${mutants.map((m) => `${m.mutatorName} ${m.status}`).join(', ')}`,
  );
});
