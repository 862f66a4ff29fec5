/**
 * Every command the suite prints works where it is printed. Messages name commands through
 * `command()` of specs/support/core/replay.ts, whose table COMMANDS gives each in two forms: the
 * repository's (its npm scripts, `npx playwright …`) and the package's (`npx crm-conformance …`).
 * Here: each repository form exists in this checkout, `command()` picks the form of the place,
 * and the code the package ships names no other command in a message: no `npm run` (a package
 * user has none of the scripts) outside the modules that run only in the repository, and only
 * commands of the `crm-conformance` bin and of Playwright after `npx`. The package forms are run
 * from an installed tarball by selftest/package.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { USAGE } from '../cli/main.js';
import { command, COMMANDS, type CommandName } from '../specs/support/core/replay.js';
import { ROOT, readJson, runProcess, scratchDir } from './helpers.js';
import { commentsOf, packedFiles } from './repo-files.js';

/** The subcommands of the `crm-conformance` bin, as its usage lists them (`profile init` is two words). */
export const BIN_COMMANDS = [...USAGE.matchAll(/^ {2}([a-z]+(?: init)?)\b/gm)].map((m) => m[1]);
/** What `npx playwright` is asked for in a message. */
const PLAYWRIGHT_COMMANDS = ['test', 'install'];

/** Why a module the package ships may name an npm script in a string: it runs, or is read, only in the repository. */
const REPOSITORY_ONLY: Record<string, string> = {
  'rules/list.ts': 'renders the rule pages at `npm run docs`; the pages say which script made them',
  'specs/support/core/settings.ts': 'the descriptions of the settings of the repository’s scripts (calibrate, bench:profile), shown in docs/configuration.md',
  'contracts/openapi.ts': 'the description of openapi.json says which script of the repository made it',
};

/** Whether a command line (`npm run merge -- …`, `npx crm-conformance doctor`) names a command that exists in the repository or the package. */
function knownCommand(line: string, place: 'repository' | 'package'): string | undefined {
  const npmRun = /^npm run ([\w:-]+)/.exec(line);
  if (npmRun) {
    if (place === 'package') return `${line}: a package user has no npm scripts of the suite`;
    return npmRun[1] in readJson<{ scripts: Record<string, string> }>('package.json').scripts ? undefined : `${line}: no script ${npmRun[1]} in package.json`;
  }
  const bin = /^npx crm-conformance ([a-z]+(?: init)?)/.exec(line);
  if (bin) return BIN_COMMANDS.includes(bin[1]) ? undefined : `${line}: crm-conformance has no command ${bin[1]} (${BIN_COMMANDS.join(', ')})`;
  const pw = /^npx playwright ([a-z]+)/.exec(line);
  if (pw) return PLAYWRIGHT_COMMANDS.includes(pw[1]) ? undefined : `${line}: not a Playwright command the suite names`;
  return `${line}: neither an npm script, the crm-conformance bin nor Playwright`;
}

test('the bin lists its commands: run, doctor, profile init, reference, merge, diff, compare, summary, report, schemas', () => {
  assert.deepEqual([...BIN_COMMANDS].sort(), ['compare', 'diff', 'doctor', 'merge', 'profile init', 'reference', 'report', 'run', 'schemas', 'summary']);
});

test("each command's repository form runs in this checkout, its package form from the package", () => {
  const wrong = (Object.keys(COMMANDS) as CommandName[]).flatMap((name) => [
    knownCommand(COMMANDS[name].repository, 'repository'),
    knownCommand(COMMANDS[name].package, 'package'),
  ]);
  assert.deepEqual(wrong.filter(Boolean), []);
});

test('a message names a command as its reader runs it: the npm script in a checkout, crm-conformance from a package', () => {
  assert.equal(command('merge', 'reports/shard-*', ROOT), 'npm run merge -- reports/shard-*');
  assert.equal(command('merge', '', ROOT), 'npm run merge');
  assert.equal(command('run', 'specs/leads', ROOT), 'npx playwright test specs/leads');
  const copy = scratchDir('crm-conformance-0.2.0-');
  writeFileSync(join(copy, '.crm-conformance-complete'), '/somewhere/node_modules/crm-conformance\n');
  mkdirSync(join(copy, 'specs'), { recursive: true });
  assert.equal(command('merge', 'reports/shard-*', copy), 'npx crm-conformance merge reports/shard-*');
  assert.equal(command('report', '', copy), 'npx crm-conformance report');
  assert.equal(command('doctor', '', copy), 'npx crm-conformance doctor');
  assert.equal(command('run', '', '/p/node_modules/crm-conformance'), 'npx crm-conformance run');
});

test('the commands of the repository forms run here (npx finds the bin and Playwright)', async () => {
  const cases: [string[], RegExp][] = [
    [['crm-conformance', '--help'], /^usage: crm-conformance <command>/m],
    [['playwright', 'test', '--help'], /^Usage: (npx )?playwright test/m],
    [['playwright', 'install', '--help'], /^Usage: (npx )?playwright install/m],
  ];
  for (const [args, usage] of cases) {
    // `--no --`: npx runs what this checkout has and fetches nothing from a registry.
    const res = await runProcess('npx', ['--no', '--', ...args], { cwd: ROOT, timeoutMs: 60_000 });
    assert.equal(res.code, 0, `npx ${args.join(' ')}: ${res.out}`);
    assert.match(res.out, usage, `npx ${args.join(' ')}`);
  }
});

test('the code the package ships prints no command a package user lacks', () => {
  const wrong: string[] = [];
  for (const file of packedFiles().filter((f) => /\.(ts|mjs|cjs|js)$/.test(f) && f !== 'specs/support/core/replay.ts')) {
    const code = commentsOf(readFileSync(join(ROOT, file), 'utf8'), { code: true });
    code.split('\n').forEach((line, i) => {
      for (const [found] of line.matchAll(/npm run [\w:-]+|npx [\w@/.-]+(?: [a-z]+){0,2}/g)) {
        // dist/ holds the compiled contracts (npm run build): each is judged as its source.
        if (found.startsWith('npm run ') && REPOSITORY_ONLY[file.replace(/^dist\/(.*)\.js$/, '$1.ts')]) continue;
        const problem = knownCommand(found, 'package') ?? (found.startsWith('npx ') ? knownCommand(found, 'repository') : undefined);
        if (problem) wrong.push(`${file}:${i + 1}: ${problem}`);
      }
    });
  }
  assert.deepEqual(wrong, [], 'name the command through command() of specs/support/core/replay.ts (COMMANDS)');
});
