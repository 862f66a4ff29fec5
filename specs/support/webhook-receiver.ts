/**
 * A real receiver for webhook notifications (spec § Events): a worker-scoped receiver (an HTTP
 * server on 127.0.0.1 that records every request it gets, with bounded memory) and a
 * test-scoped `hooks` fixture that gives
 * each test its own receiving paths (`/hooks/<ns.id>/<label>`), subscribes them with
 * `POST /webhooks`, waits for notifications by polling with a deadline, attaches what arrived
 * and unsubscribes at the end.
 *
 * Where the target reaches the receiver: `target.publicUrl` (CRM_PUBLIC_URL) when set, else
 * the loopback address (each worker its own ephemeral port). With CRM_PUBLIC_URL one receiver
 * listens on a fixed local port (CRM_RECEIVER_PORT, else the port of CRM_PUBLIC_URL, else 8123)
 * that the tunnel or proxy forwards to: a detached process started by the first worker, which
 * outlives worker restarts and ends with the run; workers read what arrived through its
 * loopback-only, keyed control endpoints. Any path is recorded, so other receivers of the suite
 * (an OAuth callback) could share it.
 *
 * The payload of a notification is "not shown" by the spec: nothing here assumes a shape.
 * A notification is tied to a record when the record's id or unique name appears anywhere in
 * it ({@link mentions}); the secret's pairs are accepted nested anywhere or at the top level
 * ({@link missingSecretPairs}).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { TestInfo } from '@playwright/test';
import type { WebhookCreate, WebhookSubscription } from '../../contracts/index.js';
import type { ApiClient } from './api.js';
import { ConfigError, ROOT, loadConfig, type TargetConfig } from './config.js';
import { redactValue } from './redact.js';
import { expect, rule as baseRule, test as base, type Namespace } from './test.js';

/** Longest a test waits for one notification (delivery time-outs are "not shown"). */
export const NOTIFICATION_DEADLINE_MS = 20_000;
/** A held request is answered at the latest after this long. */
const HOLD_MAX_MS = 20_000;
const MAX_PER_PATH = 200;
const MAX_TOTAL = 5_000;
const MAX_BODY = 1024 * 1024;
const CONTROL = '/_receiver';

/** One request the receiver got. */
export interface ReceivedRequest {
  /** Order of arrival in the serving process. */
  seq: number;
  method: string;
  /** Path without the query string. */
  path: string;
  query: string;
  headers: Record<string, string>;
  text: string;
  /** JSON (or form fields, or the text) of the body. */
  body: unknown;
  /** Epoch milliseconds. */
  receivedAt: number;
  /** When the receiver answered; unset while a held request waits. */
  answeredAt?: number;
  /** When the sender gave up (closed the connection) before the receiver answered. */
  abortedAt?: number;
  /** What ended a held request: the test released it, the sender gave up, or the hold expired. */
  endedBy?: 'release' | 'sender' | 'expiry';
}

function parseBody(text: string, type: string): unknown {
  if (!text) return undefined;
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try { return JSON.parse(text); } catch { return text; }
}

/** The recording server (in the process that owns the port). */
class Recording {
  private byPath = new Map<string, ReceivedRequest[]>();
  private order: ReceivedRequest[] = [];
  private held = new Map<ReceivedRequest, ServerResponse>();
  private seq = 0;

  constructor(private readonly key: string) {}

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://receiver.invalid');
    if (url.pathname.startsWith(CONTROL + '/')) return this.control(req, res, url);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => { size += c.length; if (size <= MAX_BODY) chunks.push(c); });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
      const r: ReceivedRequest = {
        seq: ++this.seq, method: req.method ?? 'GET', path: url.pathname, query: url.search, headers,
        text: size > MAX_BODY ? `${text}… (${size} bytes)` : text, body: parseBody(text, headers['content-type'] ?? ''), receivedAt: Date.now(),
      };
      this.keep(r);
      const held = url.pathname.startsWith('/hooks/held/');
      const answer = (why: 'release' | 'expiry') => {
        if (r.answeredAt || r.abortedAt) return;
        r.answeredAt = Date.now();
        if (held) r.endedBy = why;
        this.held.delete(r);
        res.writeHead(size > MAX_BODY ? 413 : 200, { 'content-type': 'application/json' }).end('{"received":true}');
      };
      res.on('close', () => { if (!r.answeredAt) { r.abortedAt = Date.now(); r.endedBy = 'sender'; this.held.delete(r); } });
      if (held) {
        this.held.set(r, res);
        setTimeout(() => answer('expiry'), HOLD_MAX_MS).unref();
        (res as ServerResponse & { answer?: () => void }).answer = () => answer('release');
      } else answer('release');
    });
  };

  private keep(r: ReceivedRequest): void {
    const list = this.byPath.get(r.path) ?? [];
    list.push(r);
    if (list.length > MAX_PER_PATH) list.shift();
    this.byPath.set(r.path, list);
    this.order.push(r);
    if (this.order.length > MAX_TOTAL) {
      const old = this.order.shift()!;
      const l = this.byPath.get(old.path);
      if (l) {
        const i = l.indexOf(old);
        if (i >= 0) l.splice(i, 1);
        if (!l.length) this.byPath.delete(old.path);
      }
    }
  }

  requests(prefix: string): ReceivedRequest[] {
    const out: ReceivedRequest[] = [];
    for (const [path, list] of this.byPath) if (path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : prefix + '/')) out.push(...list);
    return out.sort((a, b) => a.seq - b.seq).map((r) => ({ ...r }));
  }

  release(prefix: string): void {
    for (const [r, res] of [...this.held]) if (r.path.startsWith(prefix)) (res as ServerResponse & { answer?: () => void }).answer?.();
  }

  releaseAll(): void {
    this.release('/');
  }

  /** Loopback-only control endpoints for the other workers (key required, never through a proxy). */
  private control(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const local = ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress ?? '');
    const proxied = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
    if (!local || proxied || req.headers['x-receiver-key'] !== this.key) { res.writeHead(404).end(); req.resume(); return; }
    req.resume();
    const prefix = url.searchParams.get('prefix') ?? '/';
    if (url.pathname === `${CONTROL}/requests`) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.requests(prefix)));
    } else if (url.pathname === `${CONTROL}/release`) {
      this.release(prefix);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } else res.writeHead(404).end();
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((ok, ko) => {
    const onError = (err: Error) => { server.off('listening', onListening); ko(err); };
    const onListening = () => { server.off('error', onError); ok((server.address() as AddressInfo).port); };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, '127.0.0.1');
  });
}

/** The local port to bind when the target reaches the suite through CRM_PUBLIC_URL. */
function fixedPort(publicUrl: string): number {
  const raw = process.env.CRM_RECEIVER_PORT;
  if (raw !== undefined && raw !== '') {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) throw new ConfigError(`CRM_RECEIVER_PORT=${JSON.stringify(raw)}: must be a port number (1-65535)`);
    return Number(raw);
  }
  const explicit = new URL(publicUrl).port;
  return explicit ? Number(explicit) : 8123;
}

const HUB_FLAG = '--crm-webhook-hub';

/**
 * The shared receiver behind CRM_PUBLIC_URL: a small detached process (started by the first
 * worker that needs it) so that it outlives any worker Playwright restarts. It ends when the
 * test runner ends, or after ten idle minutes.
 */
async function runHub(port: number, key: string, runnerPid: number): Promise<void> {
  const recording = new Recording(key);
  let last = Date.now();
  const server = createServer((req, res) => { last = Date.now(); recording.handle(req, res); });
  try {
    await listen(server, port);
  } catch {
    process.exit(0); // another worker's hub got the port first
  }
  setInterval(() => {
    let runnerAlive = true;
    try { process.kill(runnerPid, 0); } catch { runnerAlive = false; }
    if (!runnerAlive || Date.now() - last > 600_000) { recording.releaseAll(); server.closeAllConnections(); process.exit(0); }
  }, 1_000);
}

if (process.argv.includes(HUB_FLAG) && process.argv[1] && resolvePath(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [port, key, runner] = process.argv.slice(process.argv.indexOf(HUB_FLAG) + 1);
  void runHub(Number(port), key, Number(runner));
}

/**
 * The worker's receiver. Loopback (no CRM_PUBLIC_URL): its own server on an ephemeral port.
 * CRM_PUBLIC_URL: the run's shared hub on the fixed port, read through its control endpoints.
 */
export class WebhookReceiver {
  private server?: Server;
  private recording?: Recording;
  private constructor(private readonly key: string, private port: number, readonly base: string) {}

  static async start(cfg: TargetConfig): Promise<WebhookReceiver> {
    const key = createHash('sha256').update(`crm-conformance-receiver:${cfg.runId}:${cfg.credentials.accessToken ?? cfg.credentials.bearerToken ?? ''}`).digest('hex');
    if (!cfg.publicUrl) {
      const recording = new Recording(key);
      const server = createServer(recording.handle);
      server.keepAliveTimeout = 5_000;
      const port = await listen(server, 0);
      const r = new WebhookReceiver(key, port, `http://127.0.0.1:${port}`);
      r.server = server;
      r.recording = recording;
      return r;
    }
    const r = new WebhookReceiver(key, fixedPort(cfg.publicUrl), cfg.publicUrl);
    await r.joinHub();
    return r;
  }

  /** Reaches the run's hub, starting it when nobody serves the port yet. */
  private async joinHub(): Promise<void> {
    const deadline = Date.now() + 15_000;
    let started = false;
    let lastError = '';
    while (Date.now() < deadline) {
      try {
        await this.control('requests', '/_none');
        return;
      } catch (err) {
        lastError = (err as Error).message;
        const refused = /ECONNREFUSED/.test(String((err as { cause?: { code?: string } }).cause?.code ?? lastError));
        if (refused && !started) {
          started = true;
          const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), HUB_FLAG, String(this.port), this.key, String(process.ppid)], {
            detached: true, stdio: 'ignore', cwd: ROOT, env: process.env,
          });
          child.unref();
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`webhook receiver: no receiver of this run answers on 127.0.0.1:${this.port} (${lastError}); is the port used by another program? Set CRM_RECEIVER_PORT to the local port CRM_PUBLIC_URL forwards to`);
  }

  private async control(op: 'requests' | 'release', prefix: string): Promise<ReceivedRequest[]> {
    const res = await fetch(`http://127.0.0.1:${this.port}${CONTROL}/${op}?prefix=${encodeURIComponent(prefix)}`, {
      method: op === 'requests' ? 'GET' : 'POST', headers: { 'x-receiver-key': this.key }, signal: AbortSignal.timeout(5_000),
    });
    if (res.status !== 200) throw new Error(`webhook receiver control ${op}: HTTP ${res.status}`);
    return op === 'requests' ? ((await res.json()) as ReceivedRequest[]) : [];
  }

  /** The URL at which the target reaches `path`. */
  url(path: string): string {
    return this.base + path;
  }

  /** Requests received under a path (a copy). */
  async requests(prefix: string): Promise<ReceivedRequest[]> {
    return this.recording ? this.recording.requests(prefix) : this.control('requests', prefix);
  }

  /** Answers the held requests under a path. */
  async release(prefix: string): Promise<void> {
    if (this.recording) this.recording.release(prefix);
    else await this.control('release', prefix).catch(() => undefined);
  }

  get pollMs(): number {
    return this.recording ? 25 : 100;
  }

  async close(): Promise<void> {
    this.recording?.releaseAll();
    const server = this.server;
    if (!server) return;
    await new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); });
  }
}

/** Every scalar of a JSON value. */
function scalars(v: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(v)) v.forEach((x) => scalars(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => scalars(x, out));
  else out.push(v);
  return out;
}

/** Every object of a JSON value, the value itself included. */
function objects(v: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(v)) v.forEach((x) => objects(x, out));
  else if (v && typeof v === 'object') {
    out.push(v as Record<string, unknown>);
    Object.values(v).forEach((x) => objects(x, out));
  }
  return out;
}

/** Does the payload name any of these values (a record id as number or string, a unique name) anywhere? */
export function mentions(payload: unknown, ...needles: unknown[]): boolean {
  const wanted = new Set(needles.filter((n) => n !== undefined && n !== null && n !== '').map(String));
  return scalars(payload).some((s) => (typeof s === 'string' || typeof s === 'number') && wanted.has(String(s)));
}

/** The secret pairs the payload lacks: each pair must appear unchanged in some object of it (nested or top level). */
export function missingSecretPairs(payload: unknown, secret: Record<string, unknown>): string[] {
  const objs = objects(payload);
  return Object.entries(secret)
    .filter(([k, v]) => !objs.some((o) => Object.prototype.hasOwnProperty.call(o, k) && isDeepStrictEqual(o[k], v)))
    .map(([k]) => k);
}

/** The values of every custom field value entry of that definition found in the payload. */
export function customFieldValues(payload: unknown, definitionId: unknown): unknown[] {
  return objects(payload).filter((o) => 'custom_field_definition_id' in o && String(o.custom_field_definition_id) === String(definitionId)).map((o) => o.value);
}

const brief = (r: ReceivedRequest) => `#${r.seq} ${r.method} ${r.path} ${r.text.slice(0, 300)}`;

/** The receiving paths of one test. */
export class Channel {
  constructor(private readonly receiver: WebhookReceiver, readonly path: string, readonly label: string) {}

  /** The target URL to subscribe. */
  get url(): string {
    return this.receiver.url(this.path);
  }

  /** Everything received on this channel so far. */
  all(): Promise<ReceivedRequest[]> {
    return this.receiver.requests(this.path);
  }

  /**
   * Waits until a request matching `pred` has arrived, polling until the deadline (no fixed
   * sleep); fails naming what was awaited and what arrived instead.
   */
  async waitFor(what: string, pred: (r: ReceivedRequest) => boolean, timeoutMs = NOTIFICATION_DEADLINE_MS): Promise<ReceivedRequest> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = await this.all();
      const hit = got.find(pred);
      if (hit) return hit;
      if (Date.now() >= deadline) {
        const seen = got.length ? `${got.length} other request(s) arrived there:\n  ${got.slice(-5).map(brief).join('\n  ')}` : 'nothing arrived there';
        throw new Error(`no notification ${what} arrived at ${this.url} within ${timeoutMs} ms; ${seen}`);
      }
      await new Promise((r) => setTimeout(r, this.receiver.pollMs));
    }
  }

  /** Answers this channel's held requests. */
  release(): Promise<void> {
    return this.receiver.release(this.path);
  }
}

export type SubscribeParams = Omit<WebhookCreate, 'target'> & { target?: string };

/** The webhook fixture of one test. */
export class Hooks {
  private channels: Channel[] = [];
  private subscriptions: { id: unknown; target: string }[] = [];
  constructor(private readonly receiver: WebhookReceiver, private readonly api: ApiClient, private readonly ns: Namespace) {}

  /** A receiving path of this test; `hold` ⇒ the receiver answers only on release (or after 20 s). */
  channel(label: string, options: { hold?: boolean } = {}): Channel {
    const path = `/hooks/${options.hold ? 'held/' : ''}${this.ns.id}/${label}`;
    const ch = new Channel(this.receiver, path, label);
    this.channels.push(ch);
    return ch;
  }

  /**
   * POST /webhooks for the channel; removes the subscription at the end of the test. Checks only
   * that it was created with an id (the subscription's shape is judged by the HOOK tests).
   */
  async subscribe(ch: Channel, params: SubscribeParams): Promise<WebhookSubscription> {
    const res = await this.api.post<WebhookSubscription>('/webhooks', { target: ch.url, ...params });
    expect(res, `the ${params.type}/${params.event} subscription is created`).not.toBeRefused();
    const id = (res.body as { id?: unknown } | undefined)?.id;
    expect(id !== undefined && id !== null, `the answer to POST /webhooks carries the subscription id`).toBe(true);
    this.subscriptions.push({ id, target: ch.url });
    return res.body;
  }

  /** Records a subscription created elsewhere in the test, so that it is removed at the end. */
  track(sub: { id: unknown; target?: string }): void {
    this.subscriptions.push({ id: sub.id, target: sub.target ?? '' });
  }

  /** DELETE /webhooks/{id}; the subscription is no longer removed at the end. */
  async unsubscribe(id: unknown) {
    const res = await this.api.delete(`/webhooks/${encodeURIComponent(String(id))}`);
    if (res.status >= 200 && res.status < 300) this.subscriptions = this.subscriptions.filter((s) => String(s.id) !== String(id));
    return res;
  }

  async teardown(testInfo: TestInfo): Promise<void> {
    for (const ch of this.channels) await ch.release();
    for (const s of [...this.subscriptions]) {
      await this.api.delete(`/webhooks/${encodeURIComponent(String(s.id))}`).catch(() => undefined);
    }
    const received: Record<string, unknown[]> = {};
    for (const ch of this.channels) {
      const got = await ch.all().catch(() => []);
      if (got.length) {
        received[ch.path] = got.map((r) => ({
          seq: r.seq, method: r.method, path: r.path, receivedAt: new Date(r.receivedAt).toISOString(),
          answered: r.answeredAt ? `${r.answeredAt - r.receivedAt} ms` : undefined, abortedBySender: r.abortedAt ? `${r.abortedAt - r.receivedAt} ms` : undefined,
          contentType: r.headers['content-type'], body: r.body,
        }));
      }
    }
    if (Object.keys(received).length) {
      await testInfo.attach('notifications.json', { body: JSON.stringify(redactValue(received), null, 2), contentType: 'application/json' });
    }
  }
}

/** The worker fixture `webhookReceiver` of the base `test` (specs/support/test.ts), loaded when a test asks for it. */
export async function startWebhookReceiver(use: (r: WebhookReceiver) => Promise<void>): Promise<void> {
  const receiver = await WebhookReceiver.start(loadConfig());
  await use(receiver);
  await receiver.close();
}

export const test = base.extend<{ hooks: Hooks }>({
  hooks: async ({ webhookReceiver, api, ns }, use, testInfo) => {
    const hooks = new Hooks(webhookReceiver, api, ns);
    await use(hooks);
    await hooks.teardown(testInfo);
  },
});

type HookTestBody = Parameters<typeof test>[2];
type BaseRuleArgs = Parameters<typeof baseRule>;

/** `rule` (specs/support/test.ts) for tests that use the `hooks` fixture. */
export function rule(ruleId: string, behaviour: string, body: HookTestBody, options?: BaseRuleArgs[3]): [string, ReturnType<typeof baseRule>[1], HookTestBody] {
  const [title, details, wrapped] = baseRule(ruleId, behaviour, body as unknown as BaseRuleArgs[2], options);
  return [title, details, wrapped as unknown as HookTestBody];
}

export { expect };
