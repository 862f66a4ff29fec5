/**
 * The installable package, used as a server's repository would use it: `npm pack` gives a
 * tarball; it installs into an empty temporary project (outside this repository, with its
 * dependencies from the registry or npm's cache); from there the contracts import with their
 * types, the JSON Schemas and the OpenAPI document are in place, the reference server starts
 * from the package (`crm-conformance reference`), `crm-conformance doctor` finds it ready,
 * `crm-conformance run` (which starts with the doctor's short form) gets a CONFORMANT verdict
 * with the reports under the project's ./reports, and a sharded run merges
 * (`run --shard=i/n`, then `crm-conformance merge`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { cleanEnv, ROOT, runProcess, type RunResult, readJson } from './helpers.js';
import { pruneCopiesOf } from '../cli/materialize.js';
import { referenceEnv, startReferenceProcess } from './reference-process.js';

const sh = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv(), timeoutMs = 180_000): Promise<RunResult> =>
  runProcess(command, args, { cwd, env, timeoutMs });

const timings: string[] = [];
async function step(label: string, run: Promise<RunResult>): Promise<RunResult> {
  const r = await run;
  timings.push(`${label} ${(r.ms / 1000).toFixed(1)} s`);
  return r;
}

describe('the installed package in an empty project', () => {
  let work: string;
  let project: string;
  let bin: string;
  let server: Awaited<ReturnType<typeof startReferenceProcess>> | undefined;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'crm-package-'));
    project = join(work, 'my-crm-server');
    const pack = await step('npm pack', sh('npm', ['pack', '--pack-destination', work, '--silent'], ROOT));
    assert.equal(pack.code, 0, pack.out);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    assert.ok(tarball, `npm pack wrote a tarball: ${pack.out}`);
    await sh('mkdir', ['-p', project], work);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-crm-server', private: true, type: 'module' }, null, 2));
    const install = await step(
      'npm install',
      sh('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', join(work, tarball!)], project),
    );
    assert.equal(install.code, 0, install.out);
    bin = join(project, 'node_modules/.bin/crm-conformance');
  });
  after(async () => {
    await server?.stop();
    console.log(`timings: ${timings.join(', ')}`);
    if (project && existsSync(join(project, 'node_modules/crm-conformance'))) pruneCopiesOf(realpathSync(join(project, 'node_modules/crm-conformance')));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the package is a copy in the project, with a crm-conformance command', async () => {
    const installed = realpathSync(join(project, 'node_modules/crm-conformance'));
    assert.ok(installed.startsWith(realpathSync(project)), `installed inside the project, not linked to this repository: ${installed}`);
    assert.ok(!existsSync(join(installed, 'selftest')), "the project's own tests are not shipped");
    const help = await sh(process.execPath, [bin, '--help'], project);
    assert.equal(help.code, 0, help.out);
    assert.match(help.out, /run \[--no-doctor\]/);
  });

  test('contracts import with types; JSON Schemas, the catalogs and the OpenAPI document ship', async () => {
    const runtime = await sh(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { Lead, TargetProfile } from 'crm-conformance/contracts'; const r = Lead.safeParse({}); console.log(typeof Lead.parse, r.success, Object.keys(TargetProfile.parse({})).join(','));",
      ],
      project,
    );
    assert.equal(runtime.code, 0, runtime.out);
    assert.match(runtime.out, /^function false name,fixtures,capabilities,oauth/m);
    const req = createRequire(join(project, 'package.json'));
    const openapi = readJson<{ openapi: string; paths: object }>(req.resolve('crm-conformance/openapi.json'));
    assert.match(openapi.openapi, /^3\.1/);
    assert.ok(Object.keys(openapi.paths).includes('/account'));
    assert.ok(existsSync(req.resolve('crm-conformance/schemas/TargetProfile.json')));
    for (const name of ['rules.json', 'choices.json', 'rules.schema.json', 'choices.schema.json'])
      assert.ok(existsSync(req.resolve(`crm-conformance/rules/${name}`)), `crm-conformance/rules/${name} is exported`);
    // Types: a consumer's type check sees the contracts' real types (not `any`).
    writeFileSync(
      join(project, 'check.ts'),
      [
        "import { Lead } from 'crm-conformance/contracts';",
        'declare const lead: ReturnType<typeof Lead.parse>;',
        'export const name: string | null = lead.name; // may be null: nothing in the spec guarantees a value',
        '// @ts-expect-error a Lead name is not a number',
        'export const wrong: number = lead.name;',
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
        files: ['check.ts'],
      }),
    );
    const tsc = await step('tsc (consumer)', sh(process.execPath, [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], project));
    assert.equal(tsc.code, 0, tsc.out);
  });

  test('the reference server from the package; doctor ready; run CONFORMANT with the reports under ./reports', async () => {
    server = await startReferenceProcess([process.execPath, bin, 'reference'], project, cleanEnv());
    env = cleanEnv({ CI: '', ...referenceEnv(server.api, server.auth, 'node_modules/crm-conformance/reference/profile.json') });
    const doctor = await step('doctor', sh(process.execPath, [bin, 'doctor'], project, env));
    assert.equal(doctor.code, 0, doctor.out);
    assert.match(doctor.out, /0 failure\(s\).*ready/);

    const run = await step('run', sh(process.execPath, [bin, 'run'], project, env, 240_000));
    assert.equal(run.code, 0, run.out.slice(-3000));
    assert.match(
      run.out,
      /crm-conformance doctor \(http:\/\/127\.0\.0\.1:\d+\): \d+ ok, \d+ warning\(s\), 0 failure\(s\).*ready/,
      "the run starts with the doctor's short form",
    );
    assert.match(run.out, /Conformance: CONFORMANT/);
    assert.ok(!run.out.includes(ROOT), 'nothing of this repository is reached');
    const reports = join(project, 'reports');
    const report = readJson<{
      verdict: string;
      rules: { tests: { file: string; line: number }[] }[];
    }>(join(reports, 'conformance.json'));
    assert.equal(report.verdict, 'CONFORMANT');
    const tests = report.rules.flatMap((r) => r.tests);
    assert.ok(tests.every((t) => t.file.startsWith('specs/')) && tests.some((t) => t.line > 1), 'each test is located in its spec file, at its line');
    for (const f of ['conformance.html', 'conformance-outcomes.json', 'junit.xml', 'results.json', 'created-records.json', 'html/index.html', 'doctor.json'])
      assert.ok(existsSync(join(reports, f)), `reports/${f}`);
    const doctorReport = readJson<{ fatal: boolean; created: { path: string }[] }>(join(reports, 'doctor.json'));
    assert.equal(doctorReport.fatal, false);
    assert.ok(
      doctorReport.created.some((c) => c.path === '/projects'),
      'the doctor lists the records it created',
    );
    assert.ok(
      readdirSync(join(reports, 'allure-results')).some((f) => f.endsWith('-result.json')),
      'Allure results',
    );
  });

  test('Playwright flags pass through; shards merge into one report', async () => {
    assert.ok(env, 'the reference server runs (previous test)');
    const shard = (i: number) =>
      step(
        `shard ${i}/2`,
        sh(process.execPath, [bin, 'run', '--no-doctor', '--grep', '@ACCOUNT|@PIPE|@AUTH-1', `--shard=${i}/2`], project, {
          ...env,
          CRM_REPORT_DIR: `reports/shard-${i}`,
        }),
      );
    // The two shards at once, as on two machines (each selects tests: a shard that selects none is INCONCLUSIVE).
    const runs = await Promise.all([shard(1), shard(2)]);
    for (const i of [1, 2]) {
      const r = runs[i - 1];
      assert.equal(r.code, 0, r.out.slice(-3000));
      assert.ok(existsSync(join(project, `reports/shard-${i}/conformance-outcomes.json`)));
      assert.doesNotMatch(r.out, /crm-conformance doctor/, '--no-doctor skips the preflight');
    }
    const merged = await step('merge', sh(process.execPath, [bin, 'merge', 'reports/shard-1', 'reports/shard-2', '--out', 'reports/merged'], project, env));
    assert.equal(merged.code, 0, merged.out);
    assert.match(merged.out, /Merged 2 shard report\(s\)/);
    const report = readJson<{ rules: { id: string; verdict: string }[] }>(join(project, 'reports/merged/conformance.json'));
    assert.ok(
      report.rules.some((r) => r.id.startsWith('ACCOUNT') && r.verdict === 'PASS'),
      "the merged report has the shards' rules",
    );
    assert.ok(existsSync(join(project, 'reports/merged/allure-report/index.html')), `the merged Allure report: ${merged.out}`);
  });
});
