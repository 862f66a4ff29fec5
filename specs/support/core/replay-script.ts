/**
 * The replay script of a failed test: a bash script that sends again the request the failure is
 * about and the requests of the test that made (or since changed) the records it names, in order.
 * Each id such a request names is taken from the answer that made it, as the server gives it now
 * (not the failed run's id, which a fixed server no longer knows), so that the same script shows
 * the failure on the faulty server and the expected answer on a fixed one. A request naming the
 * test's namespace (a search by its tags) comes after the requests that made records in it, all in
 * a fresh namespace. It ends by saying which it saw (FAILURE AGAIN, EXPECTED): by the status the
 * failed check expected when the failure names one (a refusal, a 2xx, a status); by the answers,
 * when the check was of their body and its expectation is data (core/recorder.ts `Expectation`,
 * checked by body-check.cjs); else by running the test again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { problemsOf } from './body-check.cjs';
import { changes, dependenciesOf, exchangesOfTest, idsMadeBy, shellQuote, type BodyCheck, type Exchange, type Expectation } from './recorder.js';

/** What the failed check expected of the status, read from the failure (the status matchers' messages). */
export function expectedStatusOf(failure: string): { label: string; test: string } | undefined {
  if (/expected a refusal \(a 4xx answer\)|expected a 4xx status/.test(failure))
    return { label: 'a 4xx refusal', test: '[ "$code" -ge 400 ] && [ "$code" -lt 500 ]' };
  if (/expected a 2xx answer/.test(failure)) return { label: 'a 2xx answer', test: '[ "$code" -ge 200 ] && [ "$code" -lt 300 ]' };
  const m = /expected status ((?:\d{3})(?: or \d{3})*), got/.exec(failure);
  if (m) {
    const list = m[1].split(' or ');
    return { label: `status ${list.join(' or ')}`, test: list.map((s) => `[ "$code" = "${s}" ]`).join(' || ') };
  }
  return undefined;
}

const ID_LIKE = /^(id|ids)$|_ids?$/;

/** Where `id` stands in an answer that made it: the record's `id`, or that of the n-th entry of a list. */
function pathOf(body: unknown, id: string): string | undefined {
  const own = (v: unknown) => v && typeof v === 'object' && String((v as { id?: unknown }).id) === id;
  if (own(body)) return 'id';
  if (Array.isArray(body)) {
    const i = body.findIndex(own);
    if (i >= 0) return `${i}.id`;
  }
  return undefined;
}

/** Marks a value that stands for a shell variable, spliced in by {@link singleQuoted}: `@@string:ID1@@`. */
const mark = (v: string | number, name: string): string => `@@${typeof v}:${name}@@`;

/** JSON text in single quotes, with each marked value spliced in as its variable (a number bare, a string within its JSON quotes). */
function singleQuoted(value: unknown): string {
  const quoted = JSON.stringify(value)
    .replace(/'/g, `'\\''`)
    .replace(/"@@number:(\w+)@@"/g, `'"\${$1}"'`)
    .replace(/"@@string:(\w+)@@"/g, `"'"\${$1}"'"`);
  return `'${quoted}'`;
}

/** The request body with every id-like member that names one of `vars` standing for its variable. */
function bodyWith(body: unknown, vars: Map<string, string>): string {
  const marked = (v: unknown, idLike: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => marked(x, idLike));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, w]) => [k, marked(w, ID_LIKE.test(k))]));
    if (idLike && (typeof v === 'string' || typeof v === 'number') && vars.has(String(v))) return mark(v, vars.get(String(v))!);
    return v;
  };
  return singleQuoted(marked(body, false));
}

/**
 * The recorded replay line with the ids of `vars` as variables (in the URL's path and the JSON body),
 * and the test's namespace as $NS (a fresh one each time the script runs: the records it makes are
 * its own, and a search by the namespace's tags finds them alone).
 */
function lineWith(x: Exchange, vars: Map<string, string>, namespace?: string): string {
  const m = /^(curl -sS -X \S+ )"([^"]*)"(.*?)(?: --data-raw .*)?$/s.exec(x.curl);
  if (!m) return x.curl;
  const [, head, url, headers] = m;
  const path = url.replace(/^(\w+:\/\/[^/]*)?([^?#]*)/, (_all, origin: string | undefined, p: string) => {
    const segs = p.split('/').map((s) => (vars.has(decodeURIComponent(s)) ? `\${${vars.get(decodeURIComponent(s))}}` : s));
    return `${origin ?? ''}${segs.join('/')}`;
  });
  const hasBody = / --data-raw /.test(x.curl);
  const clipped = typeof x.requestBody === 'string' && x.requestBody.endsWith(' characters)');
  const body = !hasBody
    ? ''
    : x.requestBody === undefined || clipped
      ? x.curl.slice(x.curl.indexOf(' --data-raw '))
      : ` --data-raw ${bodyWith(x.requestBody, vars)}`;
  const line = `${head}"${path}"${headers}`;
  // In double quotes $NS as is; in the single-quoted body, spliced in between them.
  return namespace ? `${line.split(namespace).join('${NS}')}${body.split(namespace).join(`'"\${NS}"'`)}` : `${line}${body}`;
}

const PICK = `pick() { node -e 'let v=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));for(const k of process.argv[2].split("."))v=v==null?v:v[k];process.stdout.write(v==null?"":String(v))' "$1" "$2"; }`;

/** The script's `check` function: body-check.cjs, run on the answers of the steps it is given, printing each problem. */
function checkFunction(): string {
  const reader = [
    'const fs = require("fs");',
    'const [dir, expect, ...steps] = process.argv.slice(1);',
    'const answers = steps.map((n) => { try { return JSON.parse(fs.readFileSync(dir + "/" + n + ".json", "utf8")); } catch { return undefined; } });',
    'for (const p of module.exports.problemsOf(answers, JSON.parse(expect))) console.log(p);',
  ];
  return `check() { node -e '${BODY_CHECK_SOURCE}\n${reader.join('\n')}' "$dir" "$@"; }`;
}

// Without its comments: the script carries the code alone (in single quotes, which it has none of).
export const BODY_CHECK_SOURCE = readFileSync(join(__dirname, 'body-check.cjs'), 'utf8')
  .replace(/^\s*\/\*\*[\s\S]*?\*\/\n/gm, '')
  .trim();

const mentions = (x: Exchange, text: string) => x.url.includes(text) || JSON.stringify(x.requestBody ?? '').includes(text);

/**
 * The requests the script sends, in the order the test sent them: `targets` (what the failed check
 * judged), what they depend on (the records they name), and when they name the test's namespace
 * (a search by its tags) the requests that made records in it; at most `limit` of the latter.
 */
function stepsFor(targets: Exchange[], namespace: string | undefined, limit = 24): Exchange[] {
  const all = exchangesOfTest(targets[targets.length - 1]);
  const chosen = new Set<Exchange>(targets);
  const withDependencies = (x: Exchange) => [x, ...dependenciesOf(x, 16).map((d) => d.exchange)].forEach((d) => chosen.add(d));
  targets.forEach(withDependencies);
  if (namespace && targets.some((t) => mentions(t, namespace))) {
    const first = Math.min(...targets.map((t) => all.indexOf(t)));
    all
      .slice(0, first)
      .filter((x) => x.curl && changes(x) && mentions(x, namespace))
      .slice(-limit)
      .forEach(withDependencies);
  }
  return all.filter((x) => chosen.has(x) && x.curl);
}

/** The failed body check the script repeats: one that judged the failed request, whose failure its recorded answers show. */
function repeatable(failed: Exchange, check: BodyCheck | undefined): BodyCheck | undefined {
  if (!check?.exchanges.includes(failed)) return undefined;
  const bodies = check.exchanges.map((x) => x.responseBody);
  if (bodies.some((b) => typeof b === 'string' && b.endsWith(' characters)'))) return undefined; // clipped: not the answer
  return problemsOf(bodies, check.expect).length ? check : undefined;
}

/**
 * How the failed test runs again: from `cwd` (where the run was started), against `baseUrl` (the
 * failed run's target, which the script's requests go to: not another one the shell may name), with
 * `command` (the suite's run command, core/replay.ts), the test by `file` (as the command takes it),
 * `line` and `title`.
 */
export interface Rerun {
  cwd: string;
  baseUrl: string;
  command: string;
  file: string;
  line: number;
  title: string;
}

/**
 * The script's end for a check it cannot make of the answers (a field left out, an order, a
 * notification): the test runs again, on the server as it is now (a property with the seed and
 * path of its counterexample), reports in $dir, and its outcome in that report says which it saw.
 */
function rerunLines(r: Rerun, failure: string): string[] {
  const fc = /CRM_FC_SEED=-?\d+ CRM_FC_PATH=[\d:]+ CRM_FC_RUNS=\d+/.exec(failure)?.[0];
  const grep = r.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const read = [
    'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));',
    'const ts = r.rules.flatMap((x) => x.tests).filter((t) => t.title === process.argv[2]);',
    'const bad = ts.filter((t) => t.status === "failed" || (t.warnings || []).length);',
    'process.stdout.write(!ts.length ? "none" : bad.length ? "failed" : ts.every((t) => t.status === "passed") ? "passed" : ts.map((t) => t.status).join(","));',
  ].join(' ');
  return [
    "# The check that failed is the test's own: the test runs again on the same server as it is now (a warning",
    '# fails it too: CRM_STRICT=1), its reports in $dir/report, and its outcome there says which it saw.',
    `(cd ${shellQuote(r.cwd)} && CRM_BASE_URL=${shellQuote(r.baseUrl)} CRM_REPORT_DIR="$dir/report" CRM_REPORTERS=minimal CRM_STRICT=1 ${fc ? `${fc} ` : ''}${r.command} ${shellQuote(`${r.file}:${r.line}`)} --grep ${shellQuote(grep)}) >"$dir/test.log" 2>&1`,
    `outcome=$(node -e '${read}' "$dir/report/conformance.json" ${shellQuote(r.title)} 2>/dev/null || echo none)`,
    'case "$outcome" in',
    `  passed) echo "EXPECTED: the test passes now: the failure does not show (fixed?); its output: $dir/test.log" ;;`,
    `  failed) echo "FAILURE AGAIN: the test fails again; its output: $dir/test.log" ;;`,
    `  *) echo "COULD NOT TELL: the test did not reach its check (\${outcome}); its output: $dir/test.log" ;;`,
    'esac',
  ];
}

/**
 * The script for a failed test whose last exchange is `failed` (the request its failure is about),
 * `failure` its message (first lines). `check`: the test's failed body check, if any (core/recorder.ts);
 * `namespace`: the test's namespace id. Exchanges without a replay line (slimmed, OAuth) are left out.
 */
export function replayScript(
  failed: Exchange,
  o: { title: string; where: string; failure: string; check?: BodyCheck; namespace?: string; rerun?: Rerun },
): string {
  const expected = expectedStatusOf(o.failure);
  const found = expected ? undefined : repeatable(failed, o.check);
  const checkSteps = found && stepsFor(found.exchanges, o.namespace);
  // The check, when the script makes again every record of the test it expects (else a fixed server would not know their ids).
  const check = found && checkSteps && remakes(checkSteps, expectedIds(found.expect)) ? found : undefined;
  const targets = check?.exchanges ?? [failed];
  const steps = check ? checkSteps! : stepsFor(targets, o.namespace);
  const ns = o.namespace && steps.some((x) => mentions(x, o.namespace!)) ? o.namespace : undefined;
  // The ids the script takes from answers: those later requests name, and those the check expects.
  const needed = new Set([
    ...steps.flatMap((x) =>
      dependenciesOf(x, 16)
        .filter((d) => d.made)
        .flatMap((d) => d.ids),
    ),
    ...(check ? expectedIds(check.expect) : []),
  ]);
  const vars = new Map<string, string>();
  const lines: string[] = [
    '#!/usr/bin/env bash',
    `# Replays the failed test "${o.title.replace(/\n/g, ' ')}" (${o.where}) on the server as it is now: the`,
    '# request its failure is about, after the requests of the test that made the records it names. Each id',
    "# is taken from the answer that made it now, not the failed run's. Needs node (to read the ids) and the",
    "# run's CRM_* variables (export them first). Run it again after a fix: its last line says which it saw.",
    'set -u',
    'dir=$(mktemp -d)',
    PICK,
    'send() { local n=$1; shift; code=$("$@" -o "$dir/$n.json" -w \'%{http_code}\') || code=000; echo "#$n → $code"; }',
  ];
  if (check) lines.push(checkFunction());
  if (ns) lines.push(`NS="ccr$(date +%s)$RANDOM"   # the test's namespace (${ns} in the failed run), fresh: the records made here are this run's own`);
  steps.forEach((x, i) => {
    const n = i + 1;
    lines.push(`# #${n}: ${x.method} ${x.url} (the failed run: ${x.error ? `no usable answer, ${x.error}` : x.status})`);
    lines.push(`send ${n} ${lineWith(x, vars, ns)}`);
    // The records this answer made, as variables for the requests after it and the check.
    for (const id of changes(x) ? idsMadeBy(x) : []) {
      const where = pathOf(x.responseBody, id);
      if (!where || vars.has(id) || !needed.has(id)) continue;
      const name = `ID${vars.size + 1}`;
      vars.set(id, name);
      lines.push(`${name}=$(pick "$dir/${n}.json" ${where})   # ${id} in the failed run`);
    }
  });
  const first = o.failure.split('\n').find((l) => l.trim()) ?? '';
  lines.push(`# The check that failed: ${first.replace(/\n/g, ' ').slice(0, 300)}`);
  if (check)
    lines.push(
      ...checkLines(
        check,
        targets.map((t) => steps.indexOf(t) + 1),
        vars,
        ns,
      ),
    );
  else {
    lines.push(statusLine(failed, expected, steps.length));
    // A check the script cannot make of the answers: the test itself runs again and tells.
    if (!expected && o.rerun) lines.push(...rerunLines(o.rerun, o.failure));
  }
  return lines.join('\n') + '\n';
}

/** Whether every id of `ids` that a request of the test made is made by one of `steps` too, where the script can take it. */
function remakes(steps: Exchange[], ids: readonly string[]): boolean {
  const madeByTest = new Set(exchangesOfTest(steps[steps.length - 1]).flatMap(idsMadeBy));
  const taken = new Set(steps.filter(changes).flatMap((x) => idsMadeBy(x).filter((id) => pathOf(x.responseBody, id))));
  return ids.every((id) => !madeByTest.has(id) || taken.has(id));
}

/** The ids an expectation names (as the failed run knew them). */
const expectedIds = (e: Expectation): readonly string[] => (e.kind === 'id' ? [e.equals] : e.kind === 'ids' ? e.equals : []);

/** The expectation with each id the script took anew standing for its variable; its words, with the variables. */
function withVars(e: Expectation, label: string, vars: Map<string, string>): { data: string; words: string } {
  const v = (id: string) => (vars.has(id) ? mark(id, vars.get(id)!) : id);
  const data = e.kind === 'id' ? { ...e, equals: v(e.equals) } : e.kind === 'ids' ? { ...e, equals: e.equals.map(v) } : e;
  const words = label.replace(/["\\`$]/g, '\\$&');
  const named = expectedIds(e).filter((id) => vars.has(id));
  return { data: singleQuoted(data), words: named.length ? `${words} (${named.map((id) => `${id} is now \${${vars.get(id)}}`).join(', ')})` : words };
}

/** The script's end for a failed body check: the same check of the answers it got, and which it saw. */
function checkLines(check: BodyCheck, answers: number[], vars: Map<string, string>, ns?: string): string[] {
  const { data, words: said } = withVars(check.expect, check.label, vars);
  const words = ns ? said.split(ns).join('${NS}') : said;
  return [
    `# What it expects of the answer${answers.length > 1 ? 's' : ''} ${answers.map((n) => `#${n}`).join(', ')}, checked again (check, above): ${check.label.replace(/\n/g, ' ')}`,
    `if ! problems=$(check ${data} ${answers.join(' ')}); then echo "COULD NOT CHECK the answer (node failed): compare $dir/${answers[answers.length - 1]}.json with what the check expects (above)";`,
    `elif [ -z "$problems" ]; then echo "EXPECTED: ${words}: the failure does not show (fixed?)";`,
    `else printf '  %s\\n' "$problems"; echo "FAILURE AGAIN: ${words}"; fi`,
  ];
}

/** The script's end for any other failure: against the status the check expected, or the failed run's. */
function statusLine(failed: Exchange, expected: ReturnType<typeof expectedStatusOf>, last: number): string {
  const then = failed.error ? '000' : String(failed.status);
  if (expected)
    return `if ${expected.test}; then echo "EXPECTED: ${expected.label}, got $code: the failure does not show (fixed?)"; else echo "FAILURE AGAIN: expected ${expected.label}, got $code (the failed run got ${then})"; fi`;
  return `if [ "$code" = "${then}" ]; then echo "SAME status as the failed run (${then}): compare the answer in $dir/${last}.json with what the check expects (above)"; else echo "DIFFERENT from the failed run (${then} then, $code now): compare the answer in $dir/${last}.json with what the check expects (above)"; fi`;
}
