/**
 * A real receiver for webhook notifications (spec § Events): the worker's receiver (an HTTP
 * server on 127.0.0.1 that records every request it gets, resources/webhook-recording.ts), the
 * receiving paths of a test (channels: wait for a notification by polling with a deadline), and
 * matchers of payloads.
 *
 * Where the target reaches the receiver: `target.publicUrl` (CRM_PUBLIC_URL) when set, else
 * the loopback address (each worker its own ephemeral port, or with CRM_RECEIVER_PORT that port).
 * On a fixed port (CRM_PUBLIC_URL or CRM_RECEIVER_PORT) the run shares one receiver
 * (resources/webhook-hub.ts). Any path is recorded, so other receivers of the suite (an OAuth
 * callback) could share it.
 *
 * The payload of a notification is "not shown" by the spec: nothing here assumes a shape.
 * A notification is tied to a record by its unique name anywhere in it, or by its id where the
 * payload gives it as its record's identifier, at any depth ({@link concerns}, {@link identifies});
 * the secret's pairs are accepted nested anywhere or at the top level
 * ({@link missingSecretPairs}).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { WebhookCreate } from '../../../contracts/index.js';
import type { TargetConfig } from '../core/config.js';
import { notificationArrived, notificationDeadline, notificationMissed } from '../core/latency.js';
import { HubClient } from './webhook-hub.js';
import { listen, Recording, type ReceivedRequest } from './webhook-recording.js';

export type { ReceivedRequest };
export {
  concerns,
  customFieldValues,
  identifierSlots,
  identifies,
  identityPaths,
  mentions,
  missingSecretPairs,
  missingSecretPairsIn,
  type IdentifierSlot,
} from './webhook-payload.js';

/**
 * The worker's receiver. No fixed port (loopback without CRM_RECEIVER_PORT): its own server on an
 * ephemeral port. A fixed port: the run's shared hub on it, read through its control endpoints.
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
    const port = cfg.receivers.webhookPort;
    if (port === undefined) {
      const recording = new Recording(key);
      const server = createServer(recording.handle);
      server.keepAliveTimeout = 5_000;
      const r = new WebhookReceiver(`http://127.0.0.1:${await listen(server, 0)}`);
      r.server = server;
      r.recording = recording;
      return r;
    }
    const r = new WebhookReceiver(cfg.publicUrl ?? `http://127.0.0.1:${port}`);
    r.hub = new HubClient(port, key);
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
