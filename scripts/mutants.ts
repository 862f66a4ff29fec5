/**
 * `npm run mutants`: StrykerJS mutation testing of the reference server (stryker.config.mjs), each
 * mutant judged by a quick run of the suite. StrykerJS 10 needs Node 22 or later: this Node when it
 * is, else Node 24 from the npm registry's `node` package (`npx -y node@24`, cached by npm, as
 * .ci/run gets it). The arguments go to `stryker run` as they are:
 *
 *     npm run mutants                                          # the whole reference, reusing unchanged results
 *     npm run mutants -- --mutate reference/routes/pipelines.ts
 *     npm run mutants -- --mutate reference/routes/pipelines.ts:60-70
 *     npm run mutants -- --force                               # every mutant again (incremental results ignored)
 *     npm run mutants -- --dryRunOnly                          # the suite once, and the count of mutants
 *
 * Reports: reports/mutation/ (mutation.html, mutation.json, stryker-incremental.json). The caller's
 * CRM_* and REFERENCE_* settings are not passed on: the mutants are judged against the embedded
 * reference server with its default choices.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from '../specs/support/core/config.js';
import { cleanEnv } from '../specs/support/core/suite-run.js';

/** The oldest Node StrykerJS 10 runs on. */
export const STRYKER_NODE_MAJOR = 22;

const major = (version: string) => Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);

/** A Node for StrykerJS: this one when it is recent enough, else Node 24 from the npm registry; or why there is none. */
export function strykerNode(): { path: string; version: string } | { reason: string } {
  if (major(process.version) >= STRYKER_NODE_MAJOR) return { path: process.execPath, version: process.version };
  const why = `StrykerJS needs Node ${STRYKER_NODE_MAJOR} or later; this is Node ${process.version}, and Node 24 could not be had from the npm registry (npx -y node@24)`;
  try {
    const out = execFileSync('npx', ['-y', 'node@24', '-p', 'process.execPath + " " + process.version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    const [path, version] = out.trim().split('\n').pop()!.split(' ');
    if (!path || !existsSync(path) || major(version ?? '') < STRYKER_NODE_MAJOR) return { reason: `${why}: it answered ${JSON.stringify(out.trim())}` };
    return { path, version };
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    // npm's error lines: the one that says what failed (a fetch, a version not found), else the first.
    const lines = (e.stderr || e.message)
      .split('\n')
      .map((l) => l.replace(/^npm (error|ERR!) /, '').trim())
      .filter((l) => l && !l.startsWith('A complete log'));
    return { reason: `${why}: ${lines.find((l) => /fail|not found|no matching|ENOENT|ETIMEDOUT/i.test(l)) ?? lines[0] ?? 'no output'}` };
  }
}

/** StrykerJS's command (the `stryker` bin of @stryker-mutator/core, a devDependency), or undefined when it is not installed. */
export function strykerBin(): string | undefined {
  const bin = join(ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js');
  return existsSync(bin) ? bin : undefined;
}

function main() {
  const bin = strykerBin();
  if (!bin) {
    console.error('mutants: StrykerJS is not installed (node_modules/@stryker-mutator/core): npm ci installs it (a devDependency)');
    process.exit(2);
  }
  const node = strykerNode();
  if ('reason' in node) {
    console.error(
      `mutants: ${node.reason}.\nInstall Node ${STRYKER_NODE_MAJOR} or later (or make the npm registry reachable), then run npm run mutants again.`,
    );
    process.exit(2);
  }
  const args = process.argv.slice(2);
  console.log(`mutants: StrykerJS on Node ${node.version}${node.path === process.execPath ? '' : ` (${node.path})`}: stryker run ${args.join(' ')}`.trimEnd());
  const child = spawn(node.path, [bin, 'run', ...args], { cwd: ROOT, env: cleanEnv(), stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (resolve(process.argv[1] ?? '') === __filename) main();
