/**
 * The replay script of a failed test: a bash script that sends again the request the failure is
 * about and the requests of the test that made (or since changed) the records it names, in order.
 * Each id such a request names is taken from the answer that made it, as the server gives it now
 * (not the failed run's id, which a fixed server no longer knows), so that the same script shows
 * the failure on the faulty server and the expected answer on a fixed one. It ends by saying which
 * it saw: against the status the failed check expected when the failure names one (a refusal, a
 * 2xx, a status), else against the failed run's answer.
 */
import { dependenciesOf, type Exchange } from './recorder.js';

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

/** The request body with every id-like member that names one of `vars` standing for its variable. */
function bodyWith(body: unknown, vars: Map<string, string>): string {
  const mark = (v: unknown, idLike: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => mark(x, idLike));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, w]) => [k, mark(w, ID_LIKE.test(k))]));
    if (idLike && (typeof v === 'string' || typeof v === 'number') && vars.has(String(v))) return `@@${typeof v}:${vars.get(String(v))}@@`;
    return v;
  };
  const text = JSON.stringify(mark(body, false));
  // In single quotes, a variable is spliced in double quotes: a number bare, a string within its JSON quotes.
  const quoted = text
    .replace(/'/g, `'\\''`)
    .replace(/"@@number:(\w+)@@"/g, `'"\${$1}"'`)
    .replace(/"@@string:(\w+)@@"/g, `"'"\${$1}"'"`);
  return `'${quoted}'`;
}

/** The recorded replay line with the ids of `vars` as variables: in the URL's path, and in the JSON body. */
function lineWith(x: Exchange, vars: Map<string, string>): string {
  const m = /^(curl -sS -X \S+ )"([^"]*)"(.*?)(?: --data-raw .*)?$/s.exec(x.curl);
  if (!m || !vars.size) return x.curl;
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
  return `${head}"${path}"${headers}${body}`;
}

const PICK = `pick() { node -e 'let v=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));for(const k of process.argv[2].split("."))v=v==null?v:v[k];process.stdout.write(v==null?"":String(v))' "$1" "$2"; }`;

/**
 * The script for a failed test whose last exchange is `failed` (the request its failure is about),
 * `failure` its message (first lines). Exchanges without a replay line (slimmed, OAuth) are left out.
 */
export function replayScript(failed: Exchange, o: { title: string; where: string; failure: string }): string {
  const steps = [...dependenciesOf(failed).map((d) => d.exchange), failed].filter((x) => x.curl);
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
  steps.forEach((x, i) => {
    const n = i + 1;
    lines.push(`# #${n}: ${x.method} ${x.url} (the failed run: ${x.error ? `no usable answer, ${x.error}` : x.status})`);
    lines.push(`send ${n} ${lineWith(x, vars)}`);
    // The records this answer made, as variables for the requests after it.
    for (const later of steps.slice(i + 1)) {
      for (const d of dependenciesOf(later, 16).filter((dep) => dep.exchange === x && dep.made)) {
        for (const id of d.ids) {
          const where = pathOf(x.responseBody, id);
          if (!where || vars.has(id)) continue;
          const name = `ID${vars.size + 1}`;
          vars.set(id, name);
          lines.push(`${name}=$(pick "$dir/${n}.json" ${where})   # ${id} in the failed run`);
        }
      }
    }
  });
  const first = o.failure.split('\n').find((l) => l.trim()) ?? '';
  const expected = expectedStatusOf(o.failure);
  const then = failed.error ? '000' : String(failed.status);
  lines.push(`# The check that failed: ${first.replace(/\n/g, ' ').slice(0, 300)}`);
  if (expected) {
    lines.push(
      `if ${expected.test}; then echo "EXPECTED: ${expected.label}, got $code: the failure does not show (fixed?)"; else echo "FAILURE AGAIN: expected ${expected.label}, got $code (the failed run got ${then})"; fi`,
    );
  } else {
    lines.push(
      `if [ "$code" = "${then}" ]; then echo "SAME status as the failed run (${then}): compare the answer in $dir/${steps.length}.json with what the check expects (above)"; else echo "DIFFERENT from the failed run (${then} then, $code now): compare the answer in $dir/${steps.length}.json with what the check expects (above)"; fi`,
    );
  }
  return lines.join('\n') + '\n';
}
