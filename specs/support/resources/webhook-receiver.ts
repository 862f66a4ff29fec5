/**
 * A real receiver for webhook notifications (spec § Events): the worker's receiver (an HTTP
 * server on 127.0.0.1 that records every request it gets, resources/webhook-recording.ts), the
 * receiving paths of a test (channels: wait for a notification by polling with a deadline), and
 * matchers of payloads.
 *
 * Where the target reaches the receiver: `target.publicUrl` (CRM_PUBLIC_URL) when set, else
 * the loopback address (each worker its own ephemeral port). With CRM_PUBLIC_URL the run shares
 * one receiver on a fixed local port (resources/webhook-hub.ts). Any path is recorded, so other
 * receivers of the suite (an OAuth callback) could share it.
 *
 * The payload of a notification is "not shown" by the spec: nothing here assumes a shape.
 * A notification is tied to a record when the record's id or unique name appears anywhere in
 * it ({@link mentions}); the secret's pairs are accepted nested anywhere or at the top level
 * ({@link missingSecretPairs}).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import type { WebhookCreate } from '../../../contracts/index.js';
import type { TargetConfig } from '../core/config.js';
import { notificationArrived, notificationDeadline, notificationMissed } from '../core/latency.js';
import { fixedPort, HubClient } from './webhook-hub.js';
import { listen, Recording, type ReceivedRequest } from './webhook-recording.js';

export type { ReceivedRequest };

/**
 * The worker's receiver. Loopback (no CRM_PUBLIC_URL): its own server on an ephemeral port.
 * CRM_PUBLIC_URL: the run's shared hub on the fixed port, read through its control endpoints.
 */
export class WebhookReceiver {
  private server?: Server;
  private recording?: Recording;
  private hub?: HubClient;
  private constructor(readonly base: string) {}

  static async start(cfg: TargetConfig): Promise<WebhookReceiver> {
    const key = createHash('sha256')
      .update(`crm-conformance-receiver:${cfg.runId}:${cfg.credentials.accessToken ?? cfg.credentials.bearerToken ?? ''}`)
      .digest('hex');
    if (!cfg.publicUrl) {
      const recording = new Recording(key);
      const server = createServer(recording.handle);
      server.keepAliveTimeout = 5_000;
      const port = await listen(server, 0);
      const r = new WebhookReceiver(`http://127.0.0.1:${port}`);
      r.server = server;
      r.recording = recording;
      return r;
    }
    const r = new WebhookReceiver(cfg.publicUrl);
    r.hub = new HubClient(fixedPort(cfg.publicUrl), key);
    await r.hub.join();
    return r;
  }

  /** The URL at which the target reaches `path`. */
  url(path: string): string {
    return this.base + path;
  }

  /** Requests received under a path (a copy). */
  async requests(prefix: string): Promise<ReceivedRequest[]> {
    return this.recording ? this.recording.requests(prefix) : this.hub!.control('requests', prefix);
  }

  /** Answers the held requests under a path. */
  async release(prefix: string): Promise<void> {
    if (this.recording) this.recording.release(prefix);
    else await this.hub!.control('release', prefix).catch(() => undefined);
  }

  get pollMs(): number {
    return this.recording ? 25 : 100;
  }

  async close(): Promise<void> {
    this.recording?.releaseAll();
    const server = this.server;
    if (!server) return;
    await new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  }
}

/** The worker fixture `webhookReceiver` of the one `test` (specs/support/fixtures/test.ts), loaded when a test asks for it. */
export async function startWebhookReceiver(cfg: TargetConfig, use: (r: WebhookReceiver) => Promise<void>): Promise<void> {
  const receiver = await WebhookReceiver.start(cfg);
  await use(receiver);
  await receiver.close();
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

/** The record kinds of the spec, as a payload may name them (`type: "company"`, `kind: "company.new"`, `"companies"`). */
const KINDS = new Map([
  ['lead', 'lead'],
  ['leads', 'lead'],
  ['person', 'person'],
  ['people', 'person'],
  ['company', 'company'],
  ['companies', 'company'],
  ['opportunity', 'opportunity'],
  ['opportunities', 'opportunity'],
  ['project', 'project'],
  ['projects', 'project'],
  ['task', 'task'],
  ['tasks', 'task'],
]);

/**
 * Does the payload carry this record, of this kind, as its identifier? For showing that a
 * notification was *not* sent, where {@link mentions} is too eager: ids of two kinds may be equal
 * (a server counting each kind's ids from 1), and a small id may equal any other number of the
 * payload (a subscription id, a count). The payload's identifiers are the `id` and `ids` members
 * nearest its top (those of its record, not of records it refers to: `related_resource.id` is
 * deeper); a payload that names another kind of record and not this one is about that kind.
 */
export function identifies(payload: unknown, id: unknown, kind: string): boolean {
  // Breadth first: the identifiers of the shallowest level that has any, and the kinds the
  // payload names down to that level (a `type` or `kind` of its own, not of records it refers to).
  const kinds = new Set<string>();
  let level: unknown[] = [payload];
  while (level.length) {
    const found: string[] = [];
    const next: unknown[] = [];
    for (const v of level) {
      if (Array.isArray(v)) {
        next.push(...v);
        continue;
      }
      if (!v || typeof v !== 'object') continue;
      for (const [k, x] of Object.entries(v)) {
        const named = typeof x === 'string' ? KINDS.get(x.toLowerCase().split('.')[0]) : undefined;
        if (named) kinds.add(named);
        if (k === 'id' && (typeof x === 'string' || typeof x === 'number')) found.push(String(x));
        else if (k === 'ids' && Array.isArray(x)) found.push(...x.filter((i) => typeof i === 'string' || typeof i === 'number').map(String));
        else if (x && typeof x === 'object') next.push(x);
      }
    }
    if (found.length) return found.includes(String(id)) && (kinds.size === 0 || kinds.has(kind));
    level = next;
  }
  return false;
}

/**
 * The secret pairs a notification lacks, wherever it carries them (not shown): in its body, nested
 * or at the top level, or in a header whose value is a JSON object holding them.
 */
export function missingSecretPairsIn(r: ReceivedRequest, secret: Record<string, unknown>): string[] {
  const inHeaders: unknown[] = [];
  for (const v of Object.values(r.headers)) {
    if (!v.trimStart().startsWith('{')) continue;
    try {
      inHeaders.push(JSON.parse(v));
    } catch {
      /* not JSON */
    }
  }
  const missing = missingSecretPairs(r.body, secret);
  return missing.filter((k) => !inHeaders.some((h) => !missingSecretPairs(h, { [k]: secret[k] }).length));
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
  return objects(payload)
    .filter((o) => 'custom_field_definition_id' in o && String(o.custom_field_definition_id) === String(definitionId))
    .map((o) => o.value);
}

const brief = (r: ReceivedRequest) => `#${r.seq} ${r.method} ${r.path} ${r.text.slice(0, 300)}`;

/** The receiving paths of one test. */
export class Channel {
  /** The kind of notification subscribed to (`type/event`, set by the hooks fixture); the label until then. */
  kind: string;
  constructor(
    private readonly receiver: WebhookReceiver,
    readonly path: string,
    readonly label: string,
  ) {
    this.kind = label;
  }

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
   * sleep); fails naming what was awaited, how long it waited and why, and what arrived instead.
   * The deadline is the run's (core/latency.ts), looked at again while waiting: the longest wait
   * until a notification of the run has failed to come within it, then a learned one. An arrival
   * teaches it; a wait that lasted the longest wait in vain shortens later ones of its kind. `optional`: the
   * test judges nothing on the notification's absence, so it waits the learned wait at once.
   */
  async waitFor(what: string, pred: (r: ReceivedRequest) => boolean, options: { optional?: boolean } = {}): Promise<ReceivedRequest> {
    const started = Date.now();
    for (;;) {
      const got = await this.all();
      const hit = got.find(pred);
      if (hit) {
        // Only a notification the test had to wait for says how slow delivery is: one that was
        // already there (the test was busy meanwhile) would teach a delivery time of 0 and
        // shorten later waits below what this target may need.
        if (hit.receivedAt >= started) notificationArrived(hit.receivedAt - started);
        return hit;
      }
      const limit = notificationDeadline(this.kind, options);
      if (Date.now() - started >= limit.ms) {
        if (limit.longest) notificationMissed(this.kind, what);
        const seen = got.length ? `${got.length} other request(s) arrived there:\n  ${got.slice(-5).map(brief).join('\n  ')}` : 'nothing arrived there';
        const missed = `no notification ${what} arrived at ${this.url} within ${limit.ms} ms (${limit.why}); ${seen}`;
        // The first line is what makes two failures one problem (core/repeats.ts): for a target
        // that has delivered nothing in this run, every miss is that one problem.
        throw new Error(limit.silent ? `no notification arrived: the target has delivered none in this run\n${missed}` : missed);
      }
      await new Promise((r) => setTimeout(r, this.receiver.pollMs));
    }
  }

  /**
   * The request `r` of this channel once its exchange has ended (answered, or given up by its
   * sender), or as it stands after `ms`: the end of an exchange may reach the receiver a moment
   * after something else the sender did at that moment (its answer to an API call, say).
   */
  async ended(r: ReceivedRequest, ms: number): Promise<ReceivedRequest> {
    const deadline = Date.now() + ms;
    for (;;) {
      const now = (await this.all()).find((x) => x.seq === r.seq) ?? r;
      if (now.answeredAt !== undefined || now.abortedAt !== undefined || Date.now() >= deadline) return now;
      await new Promise((resolve) => setTimeout(resolve, this.receiver.pollMs));
    }
  }

  /** Answers this channel's held requests. */
  release(): Promise<void> {
    return this.receiver.release(this.path);
  }
}

export type SubscribeParams = Omit<WebhookCreate, 'target'> & { target?: string };
