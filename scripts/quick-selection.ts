/**
 * The tests a `quick` run (CRM_DEPTH=quick) leaves out, from standard runs' outcomes:
 *
 *     npx tsx scripts/quick-selection.ts                      # runs the standard suite under each choice set
 *     npx tsx scripts/quick-selection.ts --reuse              # the outcomes of those runs, made before
 *     npx tsx scripts/quick-selection.ts --fresh              # not grown from the committed selection
 *     npx tsx scripts/quick-selection.ts a/conformance-outcomes.json b/conformance-outcomes.json
 *
 * `quick` judges every rule the standard run judges with at most 1,000 requests, a rule the catalog
 * gives several endpoints on each of them (judgedBy). A test that judges
 * a rule against one server may skip against another (a choice the spec leaves open), so the
 * selection is made from standard runs against the reference under several of its choice sets
 * (CHOICE_SETS): the tests kept judge, under every set, each rule some test judged under it.
 * The search properties and the upsert model always run (with a hundredth of their runs); of the
 * other tests, a few cover every rule they judge, those the properties judge too (a property's
 * random runs may not reach the case a rule's own test makes, nor tell two rules apart: the
 * properties alone judge only the rules no other test judges): a greedy cover, the most rules
 * per cost first. A test's cost:
 * its requests, its time at 25 ms a request, and one request more for the test itself (its
 * fixtures, hooks, steps and report entries cost the run about as much on loopback).
 * Quick keeps what standard catches, too: each of quick's blind spots (a mutant of the reference
 * that standard kills and quick does not, scripts/quick-kills.json from `npm run mutants -- --kills`)
 * is covered like a rule, by one of the tests that kill it (not a property: quick runs a hundredth of
 * its runs).
 * The rest is left out (specs/support/quick-selection.json, read by specs/support/suite-config.ts).
 * A test not in the list runs, so a new test runs in `quick`; made again, the selection grows from
 * the committed one: every test that ran at quick stays (new ones too), and the cover adds what is
 * left, since quick's kills of mutants rest on the tests it ran and no data says which killed which.
 * `--fresh` makes one of its own (then judge quick's kills again). The self-test
 * selftest/depth.test.ts checks that a quick run judges every rule within the bound.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { dataOf, readCoverageMap } from '../reporting/coverage/map.js';
import type { OutcomeFile } from '../reporting/conformance-reporter.js';
import { runPlaywright } from '../specs/support/core/suite-run.js';
import { ROOT } from '../specs/support/core/config.js';
import { getRule, hasRule } from '../rules/index.js';
import { QUICK_SELECTION_FILE } from '../specs/support/core/quick.js';
import { QUICK_KILLS_FILE, readQuickKills, type KilledMutant } from './mutant-kills.js';
/** The properties that always run (the search properties, the upsert model); the bulk property is a test like any other (its calls are paced). */
const PROPERTY_FILES = /search\/[^/]*\.property\.spec\.ts$|upsert\.model\.spec\.ts$/;
/** The reference's choice sets the selection is made under (docs/calibration.md): the default first. */
export const CHOICE_SETS: { name: string; env: Record<string, string> }[] = [
  { name: 'default', env: {} },
  { name: 'hardest', env: { REFERENCE_CHOICES: 'hardest' } },
  { name: 'variant', env: { REFERENCE_VARIANT: '1' } },
  { name: 'alt:1', env: { REFERENCE_CHOICES: 'alt:1' } },
  { name: 'alt:2', env: { REFERENCE_CHOICES: 'alt:2' } },
];
/** What a test of its own costs beyond its requests and time, in requests. */
const PER_TEST = 1;

type Outcome = OutcomeFile['outcomes'][number];
export interface QuickSelection {
  note: string;
  /** The choice sets of the runs it was made from. */
  under: string[];
  /** The first run's (the default choices') tests and requests, and those of the tests kept. */
  from: { tests: number; requests: number };
  kept: { tests: number; requests: number };
  /**
   * Quick's blind spots (scripts/quick-kills.json) kept: each by a test that kills it at standard.
   * `propertyOnly`: killed at standard only by a property, which quick runs a hundredth of;
   * `noKiller`: killed by no test that ran under the default choices. Both stay blind spots.
   */
  mutants?: { kept: number; propertyOnly: string[]; noKiller: string[] };
  leaveOut: { file: string; title: string }[];
  /** The classes of the spec's surface the standard runs exercised: a quick run's gap among them is the depth's (specs/support/core/quick.ts). */
  standardClasses?: string[];
}

const keyOf = (o: { file: string; title: string }) => `${o.file}\0${o.title}`;

/** A list the catalog gives a rule (`endpoint`, `item`), when it has more than one entry. */
const listOf = (id: string, member: 'endpoint' | 'item'): string[] => {
  const list = hasRule(id) ? (getRule(id)[member] ?? '').split(',').map((e) => e.trim()) : [];
  return list.length > 1 ? list : [];
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What a test judges: each of its rules; a rule the catalog gives several endpoints, on each of
 * those the test sent requests to (`SEARCH-13 POST /projects/search`), and a rule it gives several
 * items, on each its title names (`PSEARCH-4 status_ids`). Quick keeps a test of the rule on every
 * endpoint and item standard judges it on, not only on one: a project search answering option ids
 * passed quick when only the task search's SEARCH-13 ran, and one ignoring status_ids when only the
 * statuses test of PSEARCH-4 ran.
 */
export function judgedBy(o: Pick<Outcome, 'rules' | 'endpoints' | 'title'>): string[] {
  return o.rules.flatMap((r) => {
    const on = listOf(r, 'endpoint').filter((e) => o.endpoints?.includes(e));
    const items = listOf(r, 'item').filter((i) => new RegExp(`(^|[\\s(])${escape(i)}([\\s,:)]|$)`).test(o.title ?? ''));
    const units = [...on, ...items];
    return units.length ? units.map((u) => `${r} ${u}`) : [r];
  });
}

/** The selection of standard runs' outcomes, one list per run, the default choices' first (see the file header). */
export function selectQuick(
  runs: Outcome[][],
  under = runs.map((_, i) => `run ${i + 1}`),
  kills?: KilledMutant[],
  leftOutBefore?: { file: string; title: string }[],
): QuickSelection {
  const ran = runs.map((outcomes) => new Map(outcomes.filter((o) => o.status !== 'skipped').map((o) => [keyOf(o), o])));
  const tests = new Map<string, Outcome>();
  for (const run of ran) for (const [k, o] of run) if (!tests.has(k)) tests.set(k, o);
  const properties = new Set([...tests].filter(([, o]) => PROPERTY_FILES.test(o.file)).map(([k]) => k));
  // Each blind spot, a unit of the default choices' run (the kills were measured under them), covered by the tests that kill it; not by a property.
  const killed = new Map<string, string[]>();
  const mutants = { kept: 0, propertyOnly: [] as string[], noKiller: [] as string[] };
  // A test of MAY rules only fails no run, even a strict one: it kills nothing StrykerJS sees.
  const mayOnly = (k: string) => {
    const rules = ran[0]?.get(k)?.rules ?? [];
    return rules.length > 0 && rules.every((r) => hasRule(r) && getRule(r).level === 'MAY');
  };
  for (const m of kills ?? []) {
    const by = m.killedBy
      .map(keyOf)
      .filter((k) => ran[0]?.has(k))
      .filter((k) => !mayOnly(k));
    const others = by.filter((k) => !properties.has(k));
    if (!others.length) (by.length ? mutants.propertyOnly : mutants.noKiller).push(m.mutant);
    for (const k of others) killed.set(k, [...(killed.get(k) ?? []), `0\0mutant ${m.mutant}`]);
  }
  // What must be covered: (run, rule) for every rule some test judged in that run, per endpoint where the rule has several (judgedBy), and the blind spots.
  const pairsOf = (k: string) => [
    ...ran.flatMap((run, i) => {
      const o = run.get(k);
      return o ? judgedBy(o).map((r) => `${i}\0${r}`) : [];
    }),
    ...(killed.get(k) ?? []),
  ];
  const left = new Set([...tests.keys()].flatMap(pairsOf));
  mutants.kept = new Set([...killed.values()].flat()).size;
  const keep = new Set<string>();
  const take = (k: string) => {
    keep.add(k);
    for (const p of pairsOf(k)) left.delete(p);
  };
  // A property covers only the rules no other test judges: its random runs may not reach the case a
  // rule's dedicated test makes (an ambiguous match, a 422), nor tell two of its rules apart.
  const byOthers = new Set([...tests.keys()].filter((k) => !properties.has(k)).flatMap(pairsOf));
  const propertyOnly = new Set([...properties].flatMap(pairsOf).filter((p) => !byOthers.has(p)));
  for (const k of properties) keep.add(k);
  for (const p of propertyOnly) left.delete(p);
  // Made again from an earlier selection: every test it ran (kept, or new since) stays. Quick's kills
  // of the reference's mutants rest on the tests it ran, and no data says which test killed which.
  const before = leftOutBefore && new Set(leftOutBefore.map(keyOf));
  const stay = new Set(before ? [...tests.keys()].filter((k) => !before.has(k)) : []);
  for (const k of stay) take(k);
  const cost = (k: string) => Math.max(...ran.map((run) => run.get(k)).map((o) => (o ? (o.requests ?? 0) + o.durationMs / 25 : 0))) + PER_TEST;
  while (left.size) {
    let best: string | undefined;
    let score = -1;
    for (const k of tests.keys()) {
      if (keep.has(k)) continue;
      const gain = pairsOf(k).filter((p) => left.has(p)).length;
      const s = gain / cost(k);
      if (gain && s > score) [best, score] = [k, s];
    }
    if (!best) break;
    take(best);
  }
  // The greedy cover may keep a test that later ones made redundant: drop those, the dearest first.
  for (const k of [...keep].filter((k) => !properties.has(k) && !stay.has(k)).sort((a, b) => cost(b) - cost(a))) {
    const others = new Set([...[...keep].filter((x) => x !== k && !properties.has(x)).flatMap(pairsOf), ...propertyOnly]);
    if (pairsOf(k).every((p) => others.has(p))) keep.delete(k);
  }
  const first = [...ran[0].values()];
  const sum = (xs: Outcome[]) => xs.reduce((s, o) => s + (o.requests ?? 0), 0);
  const kept = first.filter((o) => keep.has(keyOf(o)));
  return {
    note: 'Generated by scripts/quick-selection.ts from standard runs against the reference under the choice sets `under`: the tests CRM_DEPTH=quick leaves out (under each set, each of their rules is judged by a test that runs; made again, it keeps every test the last selection ran).',
    under,
    from: { tests: first.length, requests: sum(first) },
    kept: { tests: kept.length, requests: sum(kept) },
    ...(kills ? { mutants } : {}),
    leaveOut: [...tests]
      .filter(([k]) => !keep.has(k))
      .map(([, o]) => ({ file: o.file, title: o.title }))
      .sort((a, b) => (a.file + a.title).localeCompare(b.file + b.title)),
  };
}

const runDir = (set: (typeof CHOICE_SETS)[number]) => `reports/runs/quick-selection-${set.name.replace(/\W/g, '-')}`;

/** A standard run of the whole suite against the reference under one choice set: its outcomes file. */
async function standardRun(set: (typeof CHOICE_SETS)[number]): Promise<string> {
  const res = await runPlaywright([], { ...set.env, CRM_DEPTH: 'standard', CRM_REPORTERS: 'minimal', CRM_REPORT_DIR: runDir(set) }, 20 * 60_000);
  if (res.code !== 0) throw new Error(`the standard run under ${set.name} did not pass (exit ${res.code}): ${res.out.slice(-2000)}`);
  console.log(
    `quick-selection: standard run under ${set.name}: ${/Conformance: [A-Z ]+/.exec(res.stdout)?.[0] ?? 'no verdict'} (${Math.round(res.ms / 1000)} s)`,
  );
  return resolve(ROOT, runDir(set), 'conformance-outcomes.json');
}

/** The classes of the spec's surface the standard runs exercised (their coverage maps beside their outcomes), sorted. */
function standardClasses(dirs: string[]): string[] {
  const ids = new Set<string>();
  for (const dir of dirs) {
    const map = readCoverageMap(dir);
    if (!map) throw new Error(`no spec-coverage.json in ${dir}: the selection needs the standard runs' coverage maps`);
    for (const [id, n] of Object.entries(dataOf(map).counts)) if (n > 0) ids.add(id);
  }
  return [...ids].sort();
}

/** The command line: `npm run` of this script, with `--reuse` or outcome files. */
async function main(): Promise<void> {
  // --reuse: the outcomes of the last standard runs this script made, without running them again.
  const reuse = process.argv.includes('--reuse');
  // --fresh: a selection of its own, not grown from the committed one (then judge quick's kills again: docs/calibration.md).
  const fresh = process.argv.includes('--fresh');
  const given = process.argv.slice(2).filter((a) => a !== '--reuse' && a !== '--fresh');
  const last =
    fresh || !existsSync(resolve(ROOT, QUICK_SELECTION_FILE))
      ? undefined
      : (JSON.parse(readFileSync(resolve(ROOT, QUICK_SELECTION_FILE), 'utf8')) as QuickSelection).leaveOut;
  const files: string[] = given.map((f) => resolve(f));
  if (!given.length) for (const set of CHOICE_SETS) files.push(reuse ? resolve(ROOT, runDir(set), 'conformance-outcomes.json') : await standardRun(set));
  const runs = files.map((f) => (JSON.parse(readFileSync(f, 'utf8')) as OutcomeFile).outcomes);
  const s: QuickSelection = {
    ...selectQuick(runs, given.length ? given : CHOICE_SETS.map((c) => c.name), readQuickKills()?.mutants, last),
    standardClasses: standardClasses(files.map((f) => dirname(f))),
  };
  writeFileSync(resolve(ROOT, QUICK_SELECTION_FILE), `${JSON.stringify(s, null, 2)}\n`);
  console.log(
    `${QUICK_SELECTION_FILE}: ${s.kept.tests} of ${s.from.tests} tests kept (${s.kept.requests} of ${s.from.requests} requests at standard runs), ${s.leaveOut.length} left out`,
  );
  if (s.mutants)
    console.log(
      `quick's blind spots (${QUICK_KILLS_FILE}): ${s.mutants.kept} kept by a test that kills them${[...s.mutants.propertyOnly.map((m) => `\n  killed only by a property: ${m}`), ...s.mutants.noKiller.map((m) => `\n  killed by no test of the default run: ${m}`)].join('')}`,
    );
}

if (resolve(process.argv[1] ?? '') === __filename) void main();
