/**
 * The recording server of the webhook receiver (spec § Events): records every request it gets,
 * with bounded memory, answers at once (or holds the requests under `/hooks/held/` until
 * released), and serves loopback-only, keyed control endpoints to the other workers when it runs
 * in the run's shared hub (resources/webhook-hub.ts).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A held request is answered at the latest after this long. */
const HOLD_MAX_MS = 20_000;
const MAX_PER_PATH = 200;
const MAX_TOTAL = 5_000;
const MAX_BODY = 1024 * 1024;
/** Released prefixes remembered (one or two a test that holds notifications). */
const MAX_RELEASED = 1_000;
export const CONTROL = '/_receiver';

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
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The recording server (in the process that owns the port). */
export class Recording {
  private byPath = new Map<string, ReceivedRequest[]>();
  private order: ReceivedRequest[] = [];
  private held = new Map<ReceivedRequest, ServerResponse>();
  /**
   * Prefixes released by their test: a request that reaches one later (a notification that came
   * after its test stopped waiting) is answered at once, never held until HOLD_MAX_MS, which would
   * hold up a target that delivers one notification at a time.
   */
  private released = new Set<string>();
  private seq = 0;

  constructor(private readonly key: string) {}

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://receiver.invalid');
    if (url.pathname.startsWith(CONTROL + '/')) return this.control(req, res, url);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
      const r: ReceivedRequest = {
        seq: ++this.seq,
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.search,
        headers,
        text: size > MAX_BODY ? `${text}… (${size} bytes)` : text,
        body: parseBody(text, headers['content-type'] ?? ''),
        receivedAt: Date.now(),
      };
      this.keep(r);
      const held = url.pathname.startsWith('/hooks/held/') && ![...this.released].some((p) => url.pathname.startsWith(p));
      const answer = (why: 'release' | 'expiry') => {
        if (r.answeredAt || r.abortedAt) return;
        r.answeredAt = Date.now();
        if (held) r.endedBy = why;
        this.held.delete(r);
        res.writeHead(size > MAX_BODY ? 413 : 200, { 'content-type': 'application/json' }).end('{"received":true}');
      };
      res.on('close', () => {
        if (!r.answeredAt) {
          r.abortedAt = Date.now();
          r.endedBy = 'sender';
          this.held.delete(r);
        }
      });
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
    this.released.add(prefix);
    if (this.released.size > MAX_RELEASED) this.released.delete(this.released.values().next().value!);
    for (const [r, res] of [...this.held]) if (r.path.startsWith(prefix)) (res as ServerResponse & { answer?: () => void }).answer?.();
  }

  releaseAll(): void {
    this.release('/');
  }

  /** Loopback-only control endpoints for the other workers (key required, never through a proxy). */
  private control(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const local = ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress ?? '');
    const proxied = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
    if (!local || proxied || req.headers['x-receiver-key'] !== this.key) {
      res.writeHead(404).end();
      req.resume();
      return;
    }
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

export function listen(server: Server, port: number): Promise<number> {
  return new Promise((ok, ko) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      ko(err);
    };
    const onListening = () => {
      server.off('error', onError);
      ok((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, '127.0.0.1');
  });
}
