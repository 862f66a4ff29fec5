/**
 * Blame: which rules a failed test counts against (reporting/verdict.ts builds the verdicts from it).
 *
 * A failure counts against the rule whose own check failed. A failure message may name that rule
 * (`[breaks UPSERT-3]`, specs/support/core/attribution.ts): a set-up step a test relies on (a create,
 * an upsert that must update, a subscription) names the rule of that step, and a check that rests on
 * another rule names both (`[breaks UPSERT-8, UPSERT-3]`: the Lead with that e-mail was not updated,
 * because e-mail is no match criterion or because one match does not update). A test whose failure
 * counts against none of its own rules did not judge them: they are "blocked by" the rules it names.
 *
 * - No name: the failure counts against every rule of the test (its own check failed).
 * - One name: against that rule.
 * - Several names: those that another failure counts against alone (firm evidence, also once a
 *   failure is down to one rule); else, a rule whose own tests (titled with it) all passed in this
 *   run, or that a test which passed rested on for a step (`restsOn`), is cleared, and of the rest
 *   one left is blamed; else the rules that
 *   explain the most such failures together (a greedy hitting set: one broken rule beneath many
 *   failures is blamed once, not each rule above it), where a test's own check goes to another rule
 *   only if a failing test of that rule's own shows it broken; a tie goes to the test's own rule
 *   when it is one of them, else keeps every tied rule.
 */
import { ruleIdOfTitle } from '../rules/index.js';

/** What blame needs of a test outcome (reporting/verdict.ts TestOutcome). */
export interface Blamable {
  title: string;
  rules: string[];
  status: string;
  expectedStatus: string;
  warnings: string[];
  expectedFailure?: string;
  brokenRules?: string[];
  /** The rules the test's steps rested on: a test that passed shows them holding in this run. */
  restsOn?: string[];
}

/** A failure that fails the run. */
export const failed = (t: Pick<Blamable, 'status' | 'expectedStatus'>) => t.status !== 'skipped' && t.status !== t.expectedStatus;
const bad = (t: Blamable) => failed(t) || !!t.expectedFailure;
const cleanPass = (t: Blamable) => t.status === 'passed' && !failed(t) && !t.expectedFailure && !t.warnings.length;

/**
 * The rules each failed (or known-failed) test counts against; a test that is not in the map
 * (passed, skipped) or maps to undefined (a failure that names no rule) counts against every rule
 * it covers.
 */
export function blame<T extends Blamable>(outcomes: readonly T[], knownIds: ReadonlySet<string>): Map<T, string[] | undefined> {
  const own = new Map<string, T[]>();
  for (const t of outcomes) {
    const id = ruleIdOfTitle(t.title);
    if (id) own.set(id, [...(own.get(id) ?? []), t]);
  }
  const credit = new Map<T, string[] | undefined>();
  // A warning that names the rule it breaks (a SHOULD met on the way, as a paced bulk call refused
  // with 429 inside a test of other rules) counts against that rule alone.
  for (const t of outcomes) {
    const names = bad(t) || !t.warnings.length ? [] : [...new Set((t.brokenRules ?? []).filter((id) => knownIds.has(id)))];
    if (names.length) credit.set(t, names);
  }
  const pending: { t: T; names: string[] }[] = [];
  for (const t of outcomes) {
    if (!bad(t)) continue;
    const names = [...new Set((t.brokenRules ?? []).filter((id) => knownIds.has(id)))];
    if (names.length <= 1) credit.set(t, names.length ? names : undefined);
    else pending.push({ t, names });
  }
  // Firm evidence: rules a failure counts against alone (it names one rule, or names none and covers one).
  const firm = new Set<string>();
  for (const [t, c] of credit) for (const id of c ?? (t.rules.length === 1 ? t.rules : [])) firm.add(id);
  // Rules that held in this run: some test that passed rested on them for a step.
  const held = new Set(outcomes.filter(cleanPass).flatMap((o) => o.restsOn ?? []));
  // A rule is cleared by its own tests, all passed, or by a test that passed resting on it; never
  // the failing test's own (the rule of a test that covers one): that it held in other scenarios
  // says nothing of this test's own check.
  const cleared = (id: string, t: T) => {
    if (id === ownRule(t)) return false;
    const mine = (own.get(id) ?? []).filter((o) => o !== t && o.status !== 'skipped');
    return (mine.length > 0 && mine.every(cleanPass)) || held.has(id);
  };
  // Each failure naming several rules: those with firm evidence; else those left once the cleared
  // ones are out (a rule that held in one scenario may still break in this one: firm evidence
  // comes first), where one left is firm evidence in turn, which may settle the others.
  const clearedOut = (o: { t: T; names: string[] }) => {
    const left = o.names.filter((id) => !cleared(id, o.t));
    return left.length ? left : o.names;
  };
  let open = pending;
  for (let changed = true; changed;) {
    changed = false;
    const rest: typeof open = [];
    for (const o of open) {
      const withFirm = o.names.filter((id) => firm.has(id));
      const left = clearedOut(o);
      const firmly = withFirm.length ? withFirm : left.length === 1 ? left : [];
      if (!firmly.length) {
        rest.push(o);
        continue;
      }
      credit.set(o.t, firmly);
      for (const id of firmly) if (!firm.has(id)) (firm.add(id), (changed = true));
    }
    open = rest;
  }
  // What evidence leaves open goes to the rules that explain the most failures together. A test's
  // own check is taken from it only by a rule some failing test of its own shows broken: a generic
  // step every failure names (criteria combining with AND, say) is no cause on its own.
  const failingOwn = new Set(outcomes.filter(bad).flatMap((o) => (ruleIdOfTitle(o.title) ? [ruleIdOfTitle(o.title)!] : [])));
  const candidates = open.map((o) => {
    const left = clearedOut(o);
    const mine = ownRule(o.t);
    return { t: o.t, names: mine && left.includes(mine) ? left.filter((id) => id === mine || failingOwn.has(id)) : left };
  });
  hittingSet(candidates, credit, ownRule);
  return credit;
}

/** The rule of a test that covers one rule (its own check), else undefined (a combined or model test). */
const ownRule = (t: Blamable): string | undefined => (t.rules.length === 1 ? t.rules[0] : undefined);

/** The rules that explain the most open failures, greedily, until every open failure is credited. */
function hittingSet<T>(open: { t: T; names: string[] }[], credit: Map<T, string[] | undefined>, ownOf: (t: T) => string | undefined): void {
  let rest = open;
  while (rest.length) {
    const count = new Map<string, number>();
    for (const { names } of rest) for (const id of names) count.set(id, (count.get(id) ?? 0) + 1);
    const most = Math.max(...count.values());
    const chosen = new Set([...count].filter(([, n]) => n === most).map(([id]) => id));
    for (const o of rest) {
      const hit = o.names.filter((id) => chosen.has(id));
      // Rules the run cannot tell apart: the test's own, when it is one of them.
      const own = ownOf(o.t);
      if (hit.length) credit.set(o.t, own && hit.includes(own) ? [own] : hit);
    }
    rest = rest.filter((o) => !o.names.some((id) => chosen.has(id)));
  }
}
