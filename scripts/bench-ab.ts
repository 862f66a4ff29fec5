/**
 * Two settings of the suite compared on alternated runs: how every speed change of README and
 * docs/reports.md is judged, since this machine (which shares its host) does the same work up to
 * a third faster or slower from one half-hour to the next, and single benches move with it.
 *
 *     npm run bench:ab -- --a CRM_WORKERS=3 --b ''               # 6 pairs, default reporters
 *     npm run bench:ab -- --pairs 8 --minimal --a 'CRM_WORKERS=3 CRM_REPEATS=fail' --b ''
 *     npm run bench:ab -- --a CRM_WORKERS=1 --b '' specs/search  # playwright arguments last
 *     npm run bench:ab -- --a-checkout ../base --a '' --b ''      # another commit against this one
 *     npm run bench:ab -- --a-node 20 --b-node 24 --a '' --b ''   # two versions of Node
 *
 * `--a-checkout DIR` (or `--b-checkout`) runs that side in another checkout of the suite, with its
 * own Playwright, to compare two commits: `git worktree add ../base <commit>`, then `npm ci` in it.
 * `--a-node V` (or `--b-node`) runs that side's runner, and so its workers and the embedded server,
 * on another Node: a path to its binary, or a major version (`24`) taken from the npm registry's
 * `node` package (`npx -y node@24`, cached by npm; nothing is fetched from nodejs.org).
 * Each pair runs A and B back to back, in turn A first and B first, so that a drift of the
 * machine's speed favours neither; each run is `playwright test` as the bench runs it (default
 * reporters unless --minimal). Prints every pair (wall time, start-up, CPU of every process of
 * the run), the medians, and in how many pairs B ended sooner and began its first test sooner.
 * Writes reports/bench-ab.json with the date and the load.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { delimiter, dirname, resolve } from 'node:path';
import { ROOT } from '../specs/support/core/config.js';
import { REDACTED } from '../specs/support/core/redact.js';
import { median, optionOf, playwrightArgs, runOnce, secs, type RunStats } from './bench.js';

/** One run's figures for the comparison. */
export interface AbRun {
  wallMs: number;
  startupMs?: number;
  cpuMs?: number;
  failed: number;
}
export interface AbPair {
  a: AbRun;
  b: AbRun;
  bFirst: boolean;
}

/** The medians of A and B, and in how many pairs B ended sooner and began its first test sooner. */
export function compare(pairs: AbPair[]) {
  // A run without a timeline (no results.json) or CPU figures (off Linux) leaves them out.
  const of = (xs: (number | undefined)[]) => {
    const known = xs.filter((x): x is number => x !== undefined);
    return known.length ? median(known) : undefined;
  };
  const side = (k: 'a' | 'b'): AbRun => ({
    wallMs: median(pairs.map((p) => p[k].wallMs)),
    startupMs: of(pairs.map((p) => p[k].startupMs)),
    cpuMs: of(pairs.map((p) => p[k].cpuMs)),
    failed: pairs.reduce((n, p) => n + p[k].failed, 0),
  });
  return {
    pairs: pairs.length,
    a: side('a'),
    b: side('b'),
    bShorter: pairs.filter((p) => p.b.wallMs < p.a.wallMs).length,
    bStartsSooner: pairs.filter((p) => p.b.startupMs !== undefined && p.a.startupMs !== undefined && p.b.startupMs < p.a.startupMs).length,
  };
}

/** Whether a variable's value is a secret, by its name (CRM_ACCESS_TOKEN, CRM_CLIENT_SECRET, CRM_LOGIN_PASSWORD …). */
export const isSecretSetting = (name: string): boolean => /TOKEN|SECRET|PASSWORD|KEY|CREDENTIAL/i.test(name);

/** Settings as printed and kept in bench-ab.json: a secret's value shown as «redacted». */
export function shownSettings(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, isSecretSetting(k) && v ? REDACTED : v]));
}

/** `K=V K2=V2` (or '') as an environment. */
export function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new Error(`bench:ab: "${word}" is not NAME=value`);
    env[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return env;
}

const figures = (r: RunStats): AbRun => ({ wallMs: r.wallMs, startupMs: r.startupMs, cpuMs: r.cpu?.allMs, failed: r.failed });
const line = (r: AbRun) =>
  `${secs(r.wallMs)} (first test ${r.startupMs !== undefined ? secs(r.startupMs) : '?'}, CPU ${r.cpuMs !== undefined ? secs(r.cpuMs) : '?'}${r.failed ? `, ${r.failed} failed` : ''})`;

/** The checkout a side runs in: this one, or the one given, which must hold the suite and its installed Playwright. */
function checkout(dir: string | undefined): string {
  if (dir === undefined) return ROOT;
  const root = resolve(dir);
  if (!existsSync(resolve(root, 'playwright.config.ts')) || !existsSync(resolve(root, 'node_modules/@playwright/test/cli.js'))) {
    console.error(
      `bench:ab: ${dir} is not a checkout of the suite with its dependencies installed (playwright.config.ts and node_modules/@playwright/test): git worktree add ${dir} <commit>, then npm ci there`,
    );
    process.exit(2);
  }
  return root;
}
const where = (root: string) => (root === ROOT ? '' : ` in ${root}`);

/** A side's Node: this one (none given), a binary's path, or a version (`24`, `22.12`) of the npm registry's `node` package. */
export function nodeOf(given: string | undefined): { path: string; version: string } {
  const ask = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  if (given === undefined) return { path: process.execPath, version: process.version };
  try {
    if (existsSync(given)) return { path: resolve(given), version: ask(given, ['--version']) };
    if (!/^\d+(\.\d+){0,2}$/.test(given)) throw new Error('neither a file nor a version such as 24');
    const [path, version] = ask('npx', ['-y', `node@${given}`, '-p', 'process.execPath + " " + process.version']).split(' ');
    return { path, version };
  } catch (err) {
    console.error(
      `bench:ab: no Node ${given}: ${(err as Error).message.split('\n')[0]} (give a path to a node binary, or a version of the npm package "node", e.g. 24)`,
    );
    process.exit(2);
  }
}
const on = (node: { path: string }, v: string) => (node.path === process.execPath ? '' : ` on Node ${v}`);
/** The side's Node first on PATH: the embedded server is started by a shell command (`node scripts/start-reference.mjs`). */
const pathOf = (node: { path: string }): Record<string, string> =>
  node.path === process.execPath ? {} : { PATH: `${dirname(node.path)}${delimiter}${process.env.PATH ?? ''}` };

async function main() {
  const args = process.argv.slice(2);
  const valued = ['--a', '--b', '--pairs', '--a-checkout', '--b-checkout', '--a-node', '--b-node'];
  const opt = (name: string) => optionOf(args, name);
  if (opt('--a') === undefined || opt('--b') === undefined) {
    console.error("bench:ab: give both settings, e.g. --a CRM_WORKERS=3 --b '' (environment variables, NAME=value, space-separated)");
    process.exit(2);
  }
  const pairsWanted = Number(opt('--pairs') ?? 6);
  const common: Record<string, string> = args.includes('--minimal') ? { CRM_REPORTERS: 'minimal' } : {};
  const settings = { a: { ...common, ...parseEnv(opt('--a')!) }, b: { ...common, ...parseEnv(opt('--b')!) } };
  const pwArgs = playwrightArgs(args, valued);
  const roots = { a: checkout(opt('--a-checkout')), b: checkout(opt('--b-checkout')) };
  const nodes = { a: nodeOf(opt('--a-node')), b: nodeOf(opt('--b-node')) };
  const loadAtStart = loadavg().map((x) => Math.round(x * 100) / 100);
  const shown = { a: shownSettings(settings.a), b: shownSettings(settings.b) };
  console.log(
    `bench:ab: ${pairsWanted} alternated pairs, A ${JSON.stringify(shown.a)}${where(roots.a)}${on(nodes.a, nodes.a.version)} against B ${JSON.stringify(shown.b)}${where(roots.b)}${on(nodes.b, nodes.b.version)}${pwArgs.length ? `, playwright ${pwArgs.join(' ')}` : ''} (${cpus().length} CPUs, load ${loadAtStart[0]})`,
  );
  const pairs: AbPair[] = [];
  for (let i = 1; i <= pairsWanted; i++) {
    const bFirst = i % 2 === 0;
    const run = async (k: 'a' | 'b') => figures(await runOnce(`ab-${i}-${k}`, { ...settings[k], ...pathOf(nodes[k]) }, pwArgs, roots[k], nodes[k].path));
    const [first, second] = bFirst ? (['b', 'a'] as const) : (['a', 'b'] as const);
    const got = { [first]: await run(first) } as Partial<Record<'a' | 'b', AbRun>>;
    got[second] = await run(second);
    const pair = { a: got.a!, b: got.b!, bFirst };
    pairs.push(pair);
    console.log(`  pair ${i} (${bFirst ? 'B first' : 'A first'}, load ${loadavg()[0].toFixed(1)}): A ${line(pair.a)} · B ${line(pair.b)}`);
  }
  const c = compare(pairs);
  console.log(`\nmedians: A ${line(c.a)} · B ${line(c.b)}`);
  console.log(`B ended sooner in ${c.bShorter} of ${c.pairs} pairs, began its first test sooner in ${c.bStartsSooner} of ${c.pairs}`);
  const file = resolve(ROOT, 'reports/bench-ab.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        load: { atStart: loadAtStart, atEnd: loadavg().map((x) => Math.round(x * 100) / 100) },
        machine: { cpus: cpus().length, node: process.version },
        settings: shown,
        checkouts: { a: roots.a, b: roots.b },
        nodes: { a: nodes.a.version, b: nodes.b.version },
        playwrightArgs: pwArgs,
        ...c,
        runs: pairs,
      },
      null,
      2,
    ),
  );
  console.log(`reports/bench-ab.json written`);
}

if (resolve(process.argv[1] ?? '') === __filename) void main();
