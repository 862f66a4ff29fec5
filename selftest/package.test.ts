/**
 * The installable package, used as a server's repository would use it. A copy of this checkout
 * with nothing beside it (no ../shared: the spec is referred to, never required) runs the
 * catalog's self-tests, which skip their comparisons with the spec's text naming the file they
 * looked for, and `npm pack` gives a tarball; it installs into an empty temporary project
 * (outside this repository, with its dependencies from the registry or npm's cache); from there
 * the contracts import with their types, the JSON Schemas and the OpenAPI document are in place,
 * the docs are there with every file they link, every command the suite prints to a package user
 * runs (COMMANDS of specs/support/core/replay.ts), the reference server starts from the package
 * (`crm-conformance reference`), `crm-conformance doctor` finds it ready, `crm-conformance run`
 * (which starts with the doctor's short form) gets a CONFORMANT verdict with the reports under the
 * project's ./reports, each rule linked to its row on the installed package's rule pages,
 * `crm-conformance report` builds the Allure report, and a sharded run merges (`run
 * --shard=i/n`, then the merge command each shard's report names).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cleanEnv, ROOT, runProcess, type RunResult, readJson } from './helpers.js';
import { pruneCopiesOf } from '../cli/materialize.js';
import { COMMANDS } from '../specs/support/core/replay.js';
import { referenceEnv, startReferenceProcess } from '../scripts/reference-process.js';
import { repositoryFiles } from './repo-files.js';

const sh = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv(), timeoutMs = 180_000): Promise<RunResult> =>
  runProcess(command, args, { cwd, env, timeoutMs });

const timings: string[] = [];
async function step(label: string, run: Promise<RunResult>): Promise<RunResult> {
  const r = await run;
  timings.push(`${label} ${(r.ms / 1000).toFixed(1)} s`);
  return r;
}

/**
 * A copy of this checkout's files (git's: tracked, and new ones not ignored) in `dir`, a directory
 * with nothing beside it, as a lone clone is; its node_modules links to this checkout's.
 */
function loneCopy(dir: string): void {
  for (const f of repositoryFiles()) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(ROOT, f), join(dir, f));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'junction');
}

/** The relative links of a Markdown page (not URLs, not anchors of the page), as paths from the page's directory. */
const linksOf = (text: string) =>
  [...text.replace(/```[^]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1].split('#')[0]).filter((l) => l && !/^[a-z][a-z+.-]*:/i.test(l));

describe('the installed package in an empty project', () => {
  let work: string;
  let lone: string;
  let project: string;
  let installed: string;
  let bin: string;
  let server: Awaited<ReturnType<typeof startReferenceProcess>> | undefined;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'crm-package-'));
    project = join(work, 'my-crm-server');
    lone = join(work, 'lone', 'crm-conformance');
    loneCopy(lone);
    const pack = await step('npm pack', sh('npm', ['pack', '--pack-destination', work, '--silent'], lone));
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
    installed = realpathSync(join(project, 'node_modules/crm-conformance'));
  });
  after(async () => {
    await server?.stop();
    console.log(`timings: ${timings.join(', ')}`);
    if (project && existsSync(join(project, 'node_modules/crm-conformance'))) pruneCopiesOf(realpathSync(join(project, 'node_modules/crm-conformance')));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('a lone copy of the repository (nothing beside it) passes the catalog self-tests; those that read the spec skip, naming it', async () => {
    assert.ok(!existsSync(join(lone, '../shared')), 'nothing beside the copy');
    const files = ['selftest/rules.unit.test.ts', 'selftest/contracts.unit.test.ts', 'selftest/generated-docs.unit.test.ts'];
    // A test run of its own, not a child of this one (node:test reports a child's tests to its parent under NODE_TEST_CONTEXT).
    const { NODE_TEST_CONTEXT: _, ...env } = cleanEnv();
    const res = await step('catalog self-tests (lone copy)', sh(process.execPath, ['--import', 'tsx', '--test', ...files], lone, env));
    assert.equal(res.code, 0, res.out.slice(-3000));
    const looked = join(lone, '../shared/spec/crm-developer-api.md');
    const skips = res.out.split('\n').filter((l) => /# SKIP/.test(l));
    assert.ok(skips.length >= 3, `the spec's checks skip: ${skips.join('\n')}`);
    for (const l of skips) assert.ok(l.includes(`no spec at ${looked}`), `a skip names the file it looked for: ${l}`);
  });

  test('the package is a copy in the project, with a crm-conformance command', async () => {
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

  test('the package carries its docs (README, CONTRIBUTING, CHANGELOG, docs/, the rule pages) and every file they link', () => {
    const pages = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'docs/configuration.md', 'docs/conformance/index.md', 'docs/calibration.md', 'docs/ci.md'];
    for (const p of pages) assert.ok(existsSync(join(installed, p)), `${p} is in the package`);
    const md = (dir: string): string[] =>
      readdirSync(join(installed, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? md(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
      );
    const broken: string[] = [];
    for (const page of [...md('docs'), 'README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'])
      for (const link of linksOf(readFileSync(join(installed, page), 'utf8')))
        if (!existsSync(join(installed, dirname(page), link))) broken.push(`${page}: ${link}`);
    assert.deepEqual(broken, [], 'links of the installed docs to files the package lacks');
  });

  test('every command the suite prints to a package user runs in the project', async () => {
    // As printed (`npx crm-conformance …`); `--no --`: npx may fetch nothing from a registry (the name is not ours there).
    const npx = (words: string[]) => sh('npx', ['--no', '--', ...words], project);
    const help = await npx(['crm-conformance', '--help']);
    assert.equal(help.code, 0, help.out);
    assert.match(help.out, /^usage: crm-conformance <command>/m);
    for (const { package: line } of Object.values(COMMANDS)) {
      const words = line.split(' ');
      assert.equal(words[0], 'npx', `${line}: a package user runs commands through npx`);
      if (words[1] === 'crm-conformance') {
        const sub = words[2] === 'profile' ? 'profile init' : words[2];
        assert.match(help.out, new RegExp(`^  ${sub}\\b`, 'm'), `${line}: crm-conformance --help lists ${sub}`);
      } else {
        const res = await npx([...words.slice(1).filter((w) => !w.startsWith('--') && w !== 'chromium'), '--help']);
        assert.equal(res.code, 0, `${line}: ${res.out}`);
        assert.match(res.out, new RegExp(`Usage: (npx )?${words.slice(1, 3).join(' ')}`), `${line}: ${res.out}`);
      }
    }
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
    // Rules link to their rows on the installed package's rule pages, which exist (not to a spec beside the suite).
    const pages = `${pathToFileURL(join(installed, 'docs/conformance')).href}/`;
    assert.equal(readJson<{ specUrl: string }>(join(reports, 'conformance.json')).specUrl, pages);
    const html = readFileSync(join(reports, 'conformance.html'), 'utf8');
    const links = [...html.matchAll(/href="(file:[^"#]+)(#[^"]*)?"/g)].map((m) => m[1]);
    assert.ok(links.length > 100 && links.every((l) => l.startsWith(pages)), `conformance.html links the rule pages: ${links.slice(0, 3).join(', ')}`);
    for (const l of new Set(links)) assert.ok(existsSync(fileURLToPath(l)), `${l} exists`);
    const allure = readdirSync(join(reports, 'allure-results')).find((f) => f.endsWith('-result.json'))!;
    const allureLinks = readJson<{ links: { url: string }[] }>(join(reports, 'allure-results', allure)).links;
    assert.ok(
      allureLinks.some((l) => l.url.startsWith(pages)),
      `Allure links the rule pages: ${JSON.stringify(allureLinks)}`,
    );

    const allureReport = await step('report', sh('npx', ['--no', '--', 'crm-conformance', 'report'], project, env, 240_000));
    assert.equal(allureReport.code, 0, allureReport.out);
    assert.ok(existsSync(join(reports, 'allure-report/index.html')), `npx crm-conformance report builds reports/allure-report/index.html: ${allureReport.out}`);
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
    // The merge as each shard's report names it.
    const partial = readJson<{ partial?: string }>(join(project, 'reports/shard-1/conformance.json')).partial ?? '';
    const named = /\((npx crm-conformance merge) <shard dirs>\)/.exec(partial);
    assert.ok(named, `the shard's report names the package's merge: ${partial}`);
    const merged = await step(
      'merge',
      sh('npx', ['--no', '--', ...named[1].split(' ').slice(1), 'reports/shard-1', 'reports/shard-2', '--out', 'reports/merged'], project, env),
    );
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
