/**
 * Replay (issue 32, item 6), the parts that start no suite run: the replay command is the one that
 * runs a test where the line is printed (`npx playwright test` in a checkout, `npx crm-conformance
 * run` from an installed package); a model's command list replays from its seed and path alone
 * (fc.commands needs its replayPath too); a failing request naming records made earlier in its
 * test says so and carries their requests. The suite runs: selftest/replay.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { describeExchange, Recorder, type Exchange } from '../specs/support/core/recorder.js';
import { commandList, replayLine, runCommand } from '../specs/support/core/replay.js';
import { replayScript } from '../specs/support/core/replay-script.js';
import { ROOT, scratchDir } from './helpers.js';

test('the replay command is the one that runs a test where it is printed: a checkout, or an installed package', () => {
  assert.equal(runCommand(ROOT), 'npx playwright test');
  const copy = scratchDir('crm-conformance-0.1.0-');
  writeFileSync(join(copy, '.crm-conformance-complete'), '/somewhere/node_modules/crm-conformance\n');
  mkdirSync(join(copy, 'specs/leads'), { recursive: true });
  assert.equal(runCommand(copy), 'npx crm-conformance run');
  assert.equal(
    replayLine({ seed: -12, path: '4:0:2', runsSetting: 300, file: join(copy, 'specs/leads/upsert.model.spec.ts'), line: 38, root: copy }),
    'CRM_FC_SEED=-12 CRM_FC_PATH=4:0:2 CRM_FC_RUNS=300 npx crm-conformance run specs/leads/upsert.model.spec.ts:38',
  );
});

/** A toy model: a counter the system keeps, wrong from the third increment on. */
interface Model {
  n: number;
}
interface System {
  n: number;
}
class Inc implements fc.AsyncCommand<Model, System> {
  constructor(readonly by: number) {}
  check = () => true;
  async run(m: Model, r: System) {
    m.n += this.by;
    r.n += this.by >= 3 ? this.by + 1 : this.by;
    if (m.n !== r.n) throw new Error(`expected ${m.n}, got ${r.n}`);
  }
  toString = () => `inc ${this.by}`;
}
const incs = [fc.integer({ min: 0, max: 5 }).map((by) => new Inc(by))];
const model = (list: Iterable<fc.AsyncCommand<Model, System>>) => fc.asyncModelRun(() => ({ model: { n: 0 }, real: { n: 0 } }), list);

test("a model's command list replays from its seed and path alone (fc.commands does not)", async () => {
  const seed = 1234;
  const found = await fc.check(fc.asyncProperty(commandList(incs, { maxCommands: 25, size: 'medium' }), model), { seed, numRuns: 100 });
  assert.ok(found.failed && found.counterexamplePath, 'the toy model finds its fault');
  const again = await fc.check(fc.asyncProperty(commandList(incs, { maxCommands: 25, size: 'medium' }), model), {
    seed,
    numRuns: 100,
    path: found.counterexamplePath,
  });
  assert.equal(again.failed, true);
  assert.equal(fc.stringify(again.counterexample), fc.stringify(found.counterexample), 'the same counterexample');
  // The cause of "got wrong path": a path of fc.commands walks shrinks of commands that have not run.
  const commands = () => fc.asyncProperty(fc.commands(incs, { maxCommands: 25, size: 'medium' }), model);
  const viaCommands = await fc.check(commands(), { seed, numRuns: 100 });
  assert.ok(viaCommands.failed && viaCommands.counterexamplePath!.includes(':'));
  await assert.rejects(async () => fc.check(commands(), { seed, numRuns: 100, path: viaCommands.counterexamplePath! }), /Unable to replay, got wrong path/);
});

/** An exchange as the client records it, with its replay line. */
const x = (method: string, url: string, status: number, requestBody?: unknown, responseBody?: unknown): Exchange => ({
  method,
  url,
  requestHeaders: {},
  requestBody,
  status,
  responseHeaders: {},
  responseBody,
  durationMs: 1,
  curl: `curl -sS -X ${method} "${url}" -H "Content-Type: application/json"${requestBody === undefined ? '' : ` --data-raw '${JSON.stringify(requestBody)}'`}`,
});

test('a request naming records made earlier in its test says so and carries their requests', () => {
  const rec = new Recorder();
  const api = 'http://127.0.0.1:9/developer_api/v1';
  rec.exchanges.push(x('POST', `${api}/companies`, 200, { name: 'Acme' }, { id: 71, name: 'Acme' }));
  rec.settle();
  rec.exchanges.push(x('POST', `${api}/people`, 200, { name: 'P', company_id: 71 }, { id: 7004, name: 'P' }));
  rec.settle();
  rec.exchanges.push(x('GET', `${api}/pipelines`, 200, undefined, [{ id: 3 }]));
  rec.settle();
  rec.exchanges.push(x('PUT', `${api}/people/7004`, 200, { title: 'CEO' }, { id: 7004, title: 'CEO' }));
  rec.settle();
  rec.exchanges.push(x('DELETE', `${api}/people/7004/related`, 500, { resource: { id: 71, type: 'company' } }, { message: 'internal error' }));
  rec.settle();
  rec.replayScript = 'test-results/replay/REL-1-abc.sh';
  const text = describeExchange(rec.exchanges[4]);
  assert.match(
    text,
    /replay: curl -sS -X DELETE "[^"]+\/people\/7004\/related"[^\n]*\n {2}depends on records made earlier in this test: 71 made by POST \S+\/companies → 200; 7004 made by POST \S+\/people → 200; 7004 changed by PUT \S+\/people\/7004 → 200\. The replay script sends them first, taking the ids from their answers .*: bash test-results\/replay\/REL-1-abc\.sh$/,
  );
  assert.doesNotMatch(text, /pipelines/, 'a request it does not depend on is left out');
  assert.doesNotMatch(describeExchange(rec.exchanges[0]), /depends on/, 'the first request depends on nothing');
  // The script: the requests in the order they were sent, each id taken from the answer that made it now.
  const script = replayScript(rec.exchanges[4], { title: 'REL-1 x', where: 'specs/x.spec.ts:1', failure: 'expected a refusal (a 4xx answer), got 500' });
  const sends = script.split('\n').filter((l) => l.startsWith('send '));
  assert.equal(sends.length, 4, script);
  assert.match(sends[0], /^send 1 curl -sS -X POST "[^"]+\/companies"/);
  assert.match(script, /^ID1=\$\(pick "\$dir\/1\.json" id\) {3}# 71 in the failed run$/m);
  assert.match(script, /^ID2=\$\(pick "\$dir\/2\.json" id\) {3}# 7004 in the failed run$/m);
  assert.match(sends[1], /--data-raw '\{"name":"P","company_id":'"\$\{ID1\}"'\}'$/, 'an id in the body, as a number');
  assert.match(sends[2], /^send 3 curl -sS -X PUT "[^"]+\/people\/\$\{ID2\}"/, 'an id in the path');
  assert.match(sends[3], /^send 4 curl -sS -X DELETE "[^"]+\/people\/\$\{ID2\}\/related".*--data-raw '\{"resource":\{"id":'"\$\{ID1\}"'/);
  assert.doesNotMatch(script, /pipelines/);
  assert.match(script.trim().split('\n').at(-1)!, /^if \[ "\$code" -ge 400 \] && \[ "\$code" -lt 500 \]; then echo "EXPECTED: a 4xx refusal/);
});

test("a search's failed check of the records found: the records made anew in a fresh namespace, their ids checked again", () => {
  const rec = new Recorder();
  const ns = 'cclocalw0t7ab12';
  const api = 'http://127.0.0.1:9/developer_api/v1';
  const send = (x: Exchange) => {
    rec.exchanges.push(x);
    rec.settle();
    return x;
  };
  send(x('POST', `${api}/projects`, 200, { name: `${ns} project 1`, tags: [ns, `${ns}-a`] }, { id: 11 }));
  send(x('POST', `${api}/projects`, 200, { name: `${ns} project 2`, tags: [ns, `${ns}-b`] }, { id: 12 }));
  send(x('POST', `${api}/companies`, 200, { name: 'elsewhere' }, { id: 99 }));
  const found = send(x('POST', `${api}/projects/search`, 200, { tags: [`${ns}-a`, `${ns}-b`] }, [{ id: 11 }]));
  const check = {
    exchanges: [found],
    expect: { kind: 'ids', equals: ['11', '12'] } as const,
    label: `tags [${ns}-a, ${ns}-b]: the records found are exactly 11, 12`,
  };
  const script = replayScript(found, { title: 'SEARCH-8 x', where: 'specs/x.spec.ts:1', failure: 'Error: tags … [breaks SEARCH-8]', check, namespace: ns });
  const sends = script.split('\n').filter((l) => l.startsWith('send '));
  assert.equal(sends.length, 3, `the two records of the namespace and the search, not the Company:\n${script}`);
  assert.match(script, /^NS="ccr\$\(date \+%s\)\$RANDOM" /m, 'a fresh namespace each time');
  assert.match(sends[0], /--data-raw '\{"name":"'"\$\{NS\}"' project 1","tags":\["'"\$\{NS\}"'","'"\$\{NS\}"'-a"\]\}'$/);
  assert.doesNotMatch(script.replace(/(^|\s)# .*$/gm, ''), new RegExp(ns), 'the old namespace is gone from what runs');
  assert.match(script, /^ID1=\$\(pick "\$dir\/1\.json" id\) {3}# 11 in the failed run$/m);
  assert.match(script, /^ID2=\$\(pick "\$dir\/2\.json" id\) {3}# 12 in the failed run$/m);
  assert.match(script, /^if ! problems=\$\(check '\{"kind":"ids","equals":\["'"\$\{ID1\}"'","'"\$\{ID2\}"'"\]\}' 3\); then/m);
  assert.match(
    script,
    /echo "FAILURE AGAIN: tags \[\$\{NS\}-a, \$\{NS\}-b\]: the records found are exactly 11, 12 \(11 is now \$\{ID1\}, 12 is now \$\{ID2\}\)"; fi\n$/,
  );
  // Without the records it expects made again (no namespace to find their requests by), a fixed
  // server would not know their ids: the test itself decides.
  const rerun = {
    cwd: '/project',
    baseUrl: 'http://127.0.0.1:9',
    command: 'npx crm-conformance run',
    file: 'specs/search/criteria.spec.ts',
    line: 42,
    title: 'SEARCH-8 tags [a] (any)',
  };
  const bare = replayScript(found, { title: 'SEARCH-8 x', where: 'specs/x.spec.ts:1', failure: 'Error: tags … [breaks SEARCH-8]', check, rerun });
  assert.doesNotMatch(bare, /^check\(\)/m);
  assert.match(bare, /^case "\$outcome" in$/m);
  // A check its recorded answer does not show (the failure is elsewhere): the test itself decides.
  const met = { ...check, expect: { kind: 'ids', equals: ['11'] } as const };
  const other = replayScript(found, { title: 'SEARCH-8 x', where: 'specs/x.spec.ts:1', failure: 'Error: something else', check: met, namespace: ns, rerun });
  assert.doesNotMatch(other, /^check\(\)/m);
  assert.match(
    other,
    /^\(cd '\/project' && CRM_BASE_URL='http:\/\/127\.0\.0\.1:9' CRM_REPORT_DIR="\$dir\/report" CRM_REPORTERS=minimal CRM_STRICT=1 npx crm-conformance run 'specs\/search\/criteria\.spec\.ts:42' --grep 'SEARCH-8 tags \\\[a\\\] \\\(any\\\)'\) >"\$dir\/test\.log" 2>&1$/m,
  );
  assert.match(other, /^ {2}passed\) echo "EXPECTED: the test passes now/m);
  // A property: the test runs again with the seed and path of its counterexample.
  const prop = replayScript(found, {
    title: 'x',
    where: 'y',
    failure: 'counterexample … Replay with: CRM_FC_SEED=-5 CRM_FC_PATH=1:2 CRM_FC_RUNS=300 npx playwright test a:1',
    rerun,
  });
  assert.match(prop, /CRM_STRICT=1 CRM_FC_SEED=-5 CRM_FC_PATH=1:2 CRM_FC_RUNS=300 npx crm-conformance run /);
});
