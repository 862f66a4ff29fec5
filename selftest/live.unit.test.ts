/**
 * Live mode of the reference server (REFERENCE_LIVE, reference/live.ts): other users of a shared
 * account create, update and delete records of every kind while a client works, announced as the
 * handlers announce them, in the shapes of the contracts, never touching what the client created
 * or wrote to nor the profile's fixtures; the population stays bounded; a bad setting is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { Company, Lead, Opportunity, Person, Project, ProjectList, Task, TaskList } from '../contracts/index.js';
import { App, type RecordEvent } from '../reference/app.js';
import { alternativeChoices, maxAlternatives, parseChoices } from '../reference/choices.js';
import { referenceCredentials, referenceLive } from '../reference/env.js';
import { LIVE_KINDS, LIVE_MAX_PER_KIND, createLive, liveOf } from '../reference/live.js';
import { C, ENTITIES, type Rec } from '../reference/model.js';
import { AREA_MODULES } from '../reference/routes/index.js';
import { startReference } from '../reference/server.js';
import { cleanEnv, runProcess } from './helpers.js';

const CONTRACTS: Record<string, z.ZodType> = { task: Task, project: Project, person: Person, company: Company, lead: Lead, opportunity: Opportunity };
const TYPES = Object.keys(CONTRACTS);
const credentials = referenceCredentials({});

/** The records the profile names, and those seeded data hang on: as stored (cloned). */
function fixtures(app: App): unknown {
  const get = (collection: string, id: number) => structuredClone(app.store.collection<Rec>(collection).get(id));
  const all = (collection: string) => structuredClone(app.store.collection<Rec>(collection).all());
  return {
    companies: [get(C.companies, 401), get(C.companies, 402)],
    opportunities: [get(C.opportunities, 601), get(C.opportunities, 602)],
    activities: all(C.activities),
    files: all(C.files),
    pipelines: all('pipelines'),
  };
}

/** The emitted records that break their kind's contract, as `type event id: issue`. */
function offContract(events: RecordEvent[]): string[] {
  return events.flatMap((e) => {
    const r = CONTRACTS[e.type]?.safeParse(e.record);
    return r && !r.success ? [`${e.type} ${e.event} ${String(e.record.id)}: ${r.error.issues[0]?.path.join('.')} ${r.error.issues[0]?.message}`] : [];
  });
}

/** An App with its fixtures seeded, as the server makes it (no routes, no sockets). */
function seededApp(choices = parseChoices(undefined)): App {
  const app = new App({ credentials, faults: new Set(), choices });
  for (const m of AREA_MODULES) m.seed?.(app);
  return app;
}

test('REFERENCE_LIVE: operations a second, off when unset, empty or 0; a bad value (or seed) stops the server with a line naming it', async () => {
  assert.equal(referenceLive({}), undefined);
  assert.equal(referenceLive({ REFERENCE_LIVE: '' }), undefined);
  assert.equal(referenceLive({ REFERENCE_LIVE: '0' }), undefined);
  assert.deepEqual(referenceLive({ REFERENCE_LIVE: '200', REFERENCE_LIVE_SEED: '12345' }), { rate: 200, seed: 12345 });
  assert.deepEqual(referenceLive({ REFERENCE_LIVE: '2.5', REFERENCE_LIVE_SEED: '0' }), { rate: 2.5, seed: 0 });
  const random = referenceLive({ REFERENCE_LIVE: '20' });
  assert.ok(random && Number.isInteger(random.seed) && random.rate === 20, 'without a seed, a random one');
  for (const bad of ['fast', '-5', '1e3', 'Infinity', '20/s', '100000'])
    assert.throws(() => referenceLive({ REFERENCE_LIVE: bad }), /^Error: REFERENCE_LIVE=".*": live mode takes .* a number above 0/, bad);
  for (const bad of ['x', '-1', '1.5', '99999999999'])
    assert.throws(() => referenceLive({ REFERENCE_LIVE: '20', REFERENCE_LIVE_SEED: bad }), /^Error: REFERENCE_LIVE_SEED=".*": .*a whole number/, bad);
  // As a user meets it: the server does not start, and says why in one line.
  const res = await runProcess(process.execPath, ['--import', 'tsx', 'reference/main.ts'], {
    env: cleanEnv({ REFERENCE_LIVE: 'fast', REFERENCE_PORT: '0' }),
    timeoutMs: 30_000,
  });
  assert.equal(res.code, 1, res.out);
  assert.match(res.stderr, /^\[reference\] cannot start: REFERENCE_LIVE="fast": .*\n$/);
});

const HEADERS = {
  'content-type': 'application/json',
  'x-svc-accesstoken': credentials.accessToken,
  'x-svc-application': 'developer_api',
  'x-svc-useremail': credentials.userEmail,
};

test("at 200 a second, others create, update and delete every kind, announced and in contract, never touching the client's records or the fixtures", async () => {
  const running = await startReference({ credentials, faults: new Set(), choices: parseChoices(undefined), live: { rate: 200, seed: 12345 } });
  const { app } = running;
  // Taken before the first tick of live mode (a timer: after this continuation).
  const before = structuredClone(fixtures(app));
  const seeded = new Set(
    app.store
      .collection<Rec>(C.tasks)
      .all()
      .map((t) => t.id),
  );
  const events: RecordEvent[] = [];
  app.events.on('record', (e: RecordEvent) => events.push(e));
  const started = performance.now();
  const receiver = createServer();
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${running.apiUrl}/developer_api/v1${path}`, {
      method,
      headers: HEADERS,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & unknown[] };
  };
  try {
    // A subscription of the client's hears of others' records, as on a shared account.
    const heard: { ids?: unknown[] }[] = [];
    receiver.on('request', (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        heard.push(JSON.parse(body) as { ids?: unknown[] });
        res.end();
      });
    });
    await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    assert.ok([200, 201].includes((await api('POST', '/webhooks', { target, type: 'task', event: 'update' })).status), 'subscribed');
    // The client's records: created through the API.
    const mine = new Map<string, number>();
    for (const [path, collection, body] of [
      ['/tasks', C.tasks, { name: 'ccr-live-selftest task', tags: ['ccr-live-selftest'] }],
      ['/projects', C.projects, { name: 'ccr-live-selftest project', tags: ['ccr-live-selftest'] }],
      ['/people', C.people, { name: 'ccr-live-selftest person', tags: ['ccr-live-selftest'] }],
    ] as const) {
      const res = await api('POST', path, body);
      assert.ok(res.status === 200 || res.status === 201, `POST ${path}: ${res.status}`);
      mine.set(`${collection}:${String(res.body.id)}`, Number(res.body.id));
    }
    const tasks = app.store.collection<Rec>(C.tasks);
    // A task of others the client follows (or unfollows): a seeded one, else one others made; never to be touched again.
    let followed: number | undefined;
    const others = () => tasks.filter((t) => !mine.has(`${C.tasks}:${t.id}`)).sort((a, b) => Number(seeded.has(b.id)) - Number(seeded.has(a.id)));
    for (let task = others()[0], tries = 0; followed === undefined && task && tries < 50; task = others()[0], tries++) {
      const res = await api(task._followed ? 'DELETE' : 'POST', `/tasks/${task.id}/follow`);
      if (res.status === 200) followed = task.id; // else deleted by another user meanwhile: the next
    }
    assert.ok(followed !== undefined, 'the client followed a task of others');
    mine.set(`${C.tasks}:${followed}`, followed);
    const eventsBeforeFollow = events.length;
    const snapshot = new Map([...mine].map(([key, id]) => [key, structuredClone(app.store.collection<Rec>(key.split(':')[0]).get(id))]));

    // Until others have created, updated and deleted records of every kind (about a second at 200/s).
    const seen = () => new Set(events.map((e) => `${e.type} ${e.event}`));
    const wanted = TYPES.flatMap((t) => ['new', 'update', 'delete'].map((e) => `${t} ${e}`));
    const deadline = Date.now() + 15_000;
    // At least a second, so that the rate is measured over 20 ticks.
    while ((wanted.some((w) => !seen().has(w)) || performance.now() - started < 1_000) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(
      wanted.filter((w) => !seen().has(w)),
      [],
      'kinds and events live mode did not announce',
    );
    // The rate, on average.
    const seconds = (performance.now() - started) / 1000;
    const live = liveOf(app)!;
    const done = live.done();
    const total = done.create + done.update + done.delete;
    assert.ok(total >= 200 * seconds * 0.5 && total <= 200 * seconds + 20, `${total} operations in ${seconds.toFixed(2)} s at 200 a second`);
    const updated = new Set(events.filter((e) => e.type === 'task' && e.event === 'update').map((e) => Number(e.record.id)));
    while (!heard.some((h) => updated.has(Number(h.ids?.[0]))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(
      heard.some((h) => updated.has(Number(h.ids?.[0]))),
      `the subscription to task updates heard of a task others updated (${heard.length} notifications)`,
    );

    // Stopped, and with records of every kind (a kind may have none for a moment): what the API answers now stays so.
    live.stop();
    while (LIVE_KINDS.some((kind) => live.population()[kind] === 0)) live.step(10);
    for (const kind of LIVE_KINDS) assert.ok(live.population()[kind] <= LIVE_MAX_PER_KIND, `${kind}: ${live.population()[kind]} records`);

    // Never touched: the client's records and the fixtures; no event names them after the client's own creates.
    for (const [key, id] of mine) assert.deepEqual(app.store.collection<Rec>(key.split(':')[0]).get(id), snapshot.get(key), `the client's ${key}`);
    const keyOf = (e: RecordEvent) => `${Object.values(ENTITIES).find((x) => x.type === e.type)!.collection}:${String(e.record.id)}`;
    const theirs = events.slice(eventsBeforeFollow).filter((e) => mine.has(keyOf(e)));
    assert.deepEqual(
      theirs.map((e) => `${e.type} ${e.event} ${String(e.record.id)}`),
      [],
      "events about the client's records",
    );
    assert.deepEqual(fixtures(app), before, 'the fixtures of the profile (and the records seeded data hang on) are unchanged');
    assert.ok(
      events.some((e) => e.type === 'task' && e.event !== 'new' && seeded.has(Number(e.record.id))),
      'the seeded tasks (no fixture) are for others to change too',
    );

    // As announced and as the API presents them: within the contracts.
    assert.deepEqual(offContract(events), [], 'announced records outside their contract');
    for (const [path, contract] of [
      ['/tasks/search', TaskList],
      ['/projects/search', ProjectList],
    ] as const) {
      const page = await api('POST', path, { page_size: 100, sort_by: 'date_modified', sort_direction: 'desc' });
      assert.equal(page.status, 200);
      const parsed = contract.safeParse(page.body);
      assert.ok(parsed.success, `${path}: ${parsed.error?.issues[0]?.path.join('.')} ${parsed.error?.issues[0]?.message}`);
      assert.ok(
        (page.body as { name?: unknown }[]).some((r) => /^Live /.test(String(r.name))),
        `${path} answers records of other users`,
      );
    }
  } finally {
    receiver.close();
    await running.close();
  }
});

test('the population stays bounded at about 30 % creates, 55 % updates, 15 % deletes; the same seed draws the same operations', () => {
  const app = seededApp();
  const before = structuredClone(fixtures(app));
  const live = createLive(app, { rate: 200, seed: 7 });
  const events: RecordEvent[] = [];
  app.events.on('record', (e: RecordEvent) => events.push(e));
  live.step(3_000);
  const mix = live.done();
  const share = (n: number) => n / 3_000;
  // Follows are updates without an event; the first creates of a kind stand in for updates and deletes.
  assert.ok(Math.abs(share(mix.create) - 0.3) < 0.05, `creates ${share(mix.create)}`);
  assert.ok(Math.abs(share(mix.update) - 0.55) < 0.05, `updates ${share(mix.update)}`);
  assert.ok(Math.abs(share(mix.delete) - 0.15) < 0.05, `deletes ${share(mix.delete)}`);
  live.step(40_000);
  for (const kind of LIVE_KINDS) {
    assert.ok(live.population()[kind] <= LIVE_MAX_PER_KIND, `${kind}: ${live.population()[kind]} records live mode keeps`);
    assert.ok(app.store.collection<Rec>(C[kind]).size <= LIVE_MAX_PER_KIND + 2, `${kind}: ${app.store.collection<Rec>(C[kind]).size} records stored`);
  }
  assert.deepEqual(fixtures(app), before, 'the fixtures are unchanged');

  const again = seededApp();
  const replayed: RecordEvent[] = [];
  again.events.on('record', (e: RecordEvent) => replayed.push(e));
  createLive(again, { rate: 200, seed: 7 }).step(3_000);
  const ops = (es: RecordEvent[]) => es.slice(0, 2_000).map((e) => `${e.type} ${e.event} ${String(e.record.id)} ${String(e.record.name)}`);
  assert.deepEqual(ops(replayed), ops(events), 'the same seed, the same operations');
});

test('under every alternative of the open choices, the records live mode makes and changes are within their contracts', () => {
  for (let k = 0; k < maxAlternatives(); k++) {
    const app = seededApp(alternativeChoices(k));
    const events: RecordEvent[] = [];
    app.events.on('record', (e: RecordEvent) => events.push(e));
    createLive(app, { rate: 200, seed: k + 1 }).step(2_000);
    assert.deepEqual(offContract(events), [], `alt:${k}: announced records outside their contract`);
  }
});
