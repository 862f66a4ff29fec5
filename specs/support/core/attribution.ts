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

/** The marker a failure message carries: ` [breaks CONVERT-2]`, ` [breaks UPSERT-3, UPSERT-8]`. */
export function breaks(rules: readonly string[]): string {
  return rules.length ? ` [breaks ${[...new Set(rules)].join(', ')}]` : '';
}

const MARKER = /\[breaks ([A-Z]+-\d+(?:, [A-Z]+-\d+)*)\]/;

/** The rules the first marker of a failure message names (none: the failure is not attributed). */
export function brokenRulesOf(message: string | undefined): string[] {
  const m = MARKER.exec(message ?? '');
  return m ? m[1].split(', ') : [];
}
