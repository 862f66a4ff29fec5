/**
 * Which rule a failure breaks. A test that covers several rules (a model-based test, a combined
 * test: `also: [...]` in `rule()`) names, in its failure message, the rule whose prediction broke:
 *
 *     upsert by name#1 {name#0}: no Lead matches, expected a new Lead, got the existing id 1214, a converted Lead [breaks CONVERT-2]
 *
 * The conformance reporter (reporting/conformance-reporter.ts) reads the first such marker of a
 * failed test and credits the failure to those rules only; the test's other rules are "not
 * judged" by it (it stopped before judging them). A failure without a marker (an exception,
 * a plain expect) is credited to every rule of the test, as before.
 */

/**
 * A step that leaves its test nothing to judge, through no fault the spec decides (the profile's
 * extension refused to create a record): thrown, and turned into "not judged" by `rule()` for the
 * test whose body it ends (fixtures/rule.ts). Thrown rather than skipping at once, so that a step
 * still running when its test has ended (a create of a Promise.all that failed early) cannot mark
 * the next test of the worker.
 */
export class NotJudgedError extends Error {}

/**
 * The rules the running test's steps rested on (every `breaks()` it built a message with): a test
 * that passed shows them holding in this run, which clears them where a failure names them beside
 * others (reporting/blame.ts). A worker runs one test at a time; the `api` fixture takes them at
 * the test's end (fixtures/test.ts).
 */
const restedOn = new Set<string>();

/**
 * The rules a failure message names that a step of the running test did name (`breaks()`): a
 * marker in text the target sent (an answer echoed in the message) is no attribution, so that a
 * target cannot steer a failure to a rule of its choosing.
 */
export function namedByTheTest(message: string | undefined): string[] {
  return brokenRulesOf(message).filter((id) => restedOn.has(id));
}

/** The rules the running test's steps have named so far; forgets them (the next test starts afresh). */
export function takeRestedOn(): string[] {
  const out = [...restedOn];
  restedOn.clear();
  return out;
}

/** The marker a failure message carries: ` [breaks CONVERT-2]`, ` [breaks UPSERT-3, UPSERT-8]`. */
export function breaks(rules: readonly string[]): string {
  for (const r of rules) restedOn.add(r);
  return rules.length ? ` [breaks ${[...new Set(rules)].join(', ')}]` : '';
}

const MARKER = /\[breaks ([A-Z]+-\d+(?:, [A-Z]+-\d+)*)\]/;

/**
 * The rules the markers of a failure message name, the first marker's first (none: the failure is
 * not attributed): a step's own marker, and the wire rules its contract check names.
 */
export function brokenRulesOf(message: string | undefined): string[] {
  const all = [...(message ?? '').matchAll(new RegExp(MARKER.source, 'g'))].flatMap((m) => m[1].split(', '));
  return [...new Set(all)];
}
