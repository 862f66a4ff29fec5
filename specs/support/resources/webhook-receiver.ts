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
 * A notification is tied to a record by its unique name anywhere in it, or by its id where the
 * payload gives it as its record's identifier, at any depth ({@link concerns}, {@link identifies});
 * the secret's pairs are accepted nested anywhere or at the top level
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

/** Members that name the kind of the object holding them (`type: "project"`, `kind: "project.new"`). */
const KIND_MEMBERS = new Set(['type', 'kind', 'entity', 'entity_type', 'object', 'object_type', 'resource_type', 'record_type', 'model']);
/** Members holding the identifier of the object (or, plural, of the records) they stand in. */
const ID_MEMBERS = new Set(['id', 'record_id', 'resource_id', 'object_id', 'entity_id']);
const IDS_MEMBERS = new Set(['ids', 'record_ids', 'resource_ids', 'object_ids', 'entity_ids']);
/**
 * Objects that are not the record, by the member that holds them: the envelope's own parts (the
 * subscription, the webhook, the delivery, the event and its attempts) and records the record
 * refers to (related_resource, parent, owner …). An `id` in one of them is theirs.
 */
const FOREIGN =
  /^(subscriptions?|webhooks?|hooks?|deliver(y|ies)|events?|attempts?|requests?|related(_resources?)?|relationships?|parents?|owners?|assignees?|creators?|authors?|users?|accounts?|links?|meta(data)?|trace)$/i;
/** Members of the top level that make it an envelope (whose own `id` is then not the record's). */
const ENVELOPE = /^((subscription|webhook|hook|delivery|event|notification)s?_?id|subscriptions?|webhooks?|deliver(y|ies)|notifications?)$/i;

/** Where an identifier stands in a payload: `data.records[].id` (array positions as `[]`). */
export interface IdentifierSlot {
  path: string;
  value: string;
  /** The kind of the object it identifies, as the payload names it (undefined: not named). */
  kind?: string;
}

const kindOf = (x: unknown) => (typeof x === 'string' ? KINDS.get(x.toLowerCase().split(/[.:/]/)[0]) : undefined);
const isScalarId = (x: unknown): x is string | number => typeof x === 'string' || typeof x === 'number';

/**
 * Every identifier of the payload that may be its record's, at any depth: the `id` (and `ids`)
 * members of objects that are not the envelope's own parts nor records the record refers to
 * ({@link FOREIGN}); the top level's own `id` only where the top level is no envelope (it names no
 * subscription, webhook, delivery or event, and holds no record of its own deeper down). Each with
 * the kind the payload names for it: the object's own `type`/`kind`, else an ancestor's, else the
 * member holding it (`projects: [...]`), else the one kind the payload names outside its
 * subscription (`event.type`: a subscription's type is what it asked for, not what happened).
 */
export function identifierSlots(payload: unknown): IdentifierSlot[] {
  const slots: (IdentifierSlot & { depth: number })[] = [];
  const elsewhere = new Set<string>();
  const visit = (v: unknown, path: string, owner: string | undefined, inherited: string | undefined, depth: number, foreign: boolean) => {
    if (Array.isArray(v)) return v.forEach((x) => visit(x, `${path}[]`, owner, inherited, depth, foreign));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const own = Object.entries(o)
      .filter(([k]) => KIND_MEMBERS.has(k.toLowerCase()))
      .map(([, x]) => kindOf(x))
      .find((k) => k !== undefined);
    const kind = own ?? inherited ?? (owner !== undefined ? KINDS.get(owner.toLowerCase()) : undefined);
    const theirs = owner !== undefined && FOREIGN.test(owner);
    if (own && !foreign && (!theirs || /^events?$/i.test(owner))) elsewhere.add(own);
    for (const [k, x] of Object.entries(o)) {
      const at = path ? `${path}.${k}` : k;
      if (!theirs && !foreign && ID_MEMBERS.has(k) && isScalarId(x)) slots.push({ path: at, value: String(x), kind, depth });
      else if (!theirs && !foreign && IDS_MEMBERS.has(k) && Array.isArray(x))
        x.filter(isScalarId).forEach((i) => slots.push({ path: `${at}[]`, value: String(i), kind, depth }));
      else if (x && typeof x === 'object') visit(x, at, k, theirs ? undefined : kind, depth + 1, foreign || theirs);
    }
  };
  visit(payload, '', undefined, undefined, 0, false);
  const only = elsewhere.size === 1 ? [...elsewhere][0] : undefined;
  const top = payload && typeof payload === 'object' && !Array.isArray(payload) ? Object.keys(payload) : [];
  const envelope = top.some((k) => ENVELOPE.test(k) || (k === 'event' && typeof (payload as Record<string, unknown>).event === 'object'));
  const deeper = slots.some((x) => x.depth > 0);
  return slots
    .filter((x) => !(x.depth === 0 && ID_MEMBERS.has(x.path) && (envelope || deeper)))
    .map(({ path, value, kind }) => ({ path, value, kind: kind ?? only }));
}

/**
 * The paths at which this record's id stands as its identifier (see {@link identifies}): learned
 * from a notification known to be about it, to read others of the same target.
 */
export function identityPaths(payload: unknown, id: unknown, kind: string): string[] {
  return [
    ...new Set(
      identifierSlots(payload)
        .filter((x) => x.value === String(id) && (x.kind === undefined || x.kind === kind))
        .map((x) => x.path),
    ),
  ];
}

/**
 * Does the payload carry this record, of this kind, as its identifier, wherever it stands? Where
 * {@link mentions} is too eager: ids of two kinds may be equal (a server counting each kind's ids
 * from 1), and a small id may equal any other number of the payload (a subscription id, a
 * delivery or event id of an envelope, a count). Only the identifiers that may be its record's
 * are read ({@link identifierSlots}): not those of the envelope's own parts, nor of records it
 * refers to; a payload that names another kind for it is about that kind. `at`: only the paths
 * learned from a notification of the same target ({@link identityPaths}).
 */
export function identifies(payload: unknown, id: unknown, kind: string, at?: readonly string[]): boolean {
  const paths = at?.length ? new Set(at) : undefined;
  return identifierSlots(payload).some((x) => x.value === String(id) && (x.kind === undefined || x.kind === kind) && (!paths || paths.has(x.path)));
}

/**
 * Is the notification about this record (for the waits of a test)? By its unique name anywhere,
 * else by its id as an identifier ({@link identifies}): a notification the suite cannot
 * attribute (a verification request, another record whose number happens to be equal) is not it.
 */
export function concerns(payload: unknown, rec: { id: unknown; name?: string }, kind: string): boolean {
  return (rec.name !== undefined && mentions(payload, rec.name)) || identifies(payload, rec.id, kind);
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
