/**
 * The OAuth callback receiver (spec § OAuth step 3: "the application has an HTTPS callback
 * endpoint that accepts POST requests"): a real HTTP(S) server in the worker process that records
 * every request (method, path, query, form payload) and answers a small HTML page that echoes
 * nothing. HTTPS uses a self-signed certificate made at run time with the openssl CLI.
 *
 * Codes and tokens it sees are registered as secrets at once, so nothing recorded later shows them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addSecret, type TargetConfig } from '../core/config.js';
import type { WorkerResource } from './chromium.js';

/** One request the receiver got. */
export interface CallbackHit {
  /** Order of arrival in this receiver. */
  seq: number;
  method: string;
  path: string;
  /** Query parameters (a GET callback carries its payload here). */
  query: Record<string, string>;
  contentType: string;
  /** The form payload of a POST (application/x-www-form-urlencoded or multipart text fields). */
  form: Record<string, string>;
  /** Names of members that occur more than once (query or form). */
  repeated: string[];
  at: number;
}

/** Members whose values are secrets wherever they appear. */
const SECRET_MEMBERS = ['code', 'access_token', 'refresh_token', 'id_token'];

function parseMultipart(body: string, contentType: string): [string, string][] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return [];
  const out: [string, string][] = [];
  for (const part of body.split(`--${boundary}`)) {
    const m = /^\r?\n([\s\S]*?)\r?\n\r?\n([\s\S]*?)\r?\n?$/.exec(part);
    const name = m && /name="([^"]*)"/i.exec(m[1])?.[1];
    if (m && name !== undefined && name !== null) out.push([name, m[2].replace(/\r?\n$/, '')]);
  }
  return out;
}

function collect(entries: Iterable<[string, string]>): { values: Record<string, string>; repeated: string[] } {
  const values: Record<string, string> = {};
  const repeated = new Set<string>();
  for (const [k, v] of entries) {
    if (k in values) repeated.add(k);
    else values[k] = v;
  }
  return { values, repeated: [...repeated] };
}

export interface ReceiverOptions {
  https: boolean;
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** Port to bind (default: any free port). */
  port?: number;
  /** Path the callback is expected on (answers on every path; recorded as is). */
  path: string;
  /**
   * Public base URL the target reaches the receiver at (CRM_PUBLIC_URL); default: the loopback
   * address it listens on.
   */
  publicUrl?: string;
}

export class CallbackReceiver {
  private constructor(
    private readonly server: Server,
    /** Where the receiver listens, e.g. `http://127.0.0.1:41234`. */
    readonly localUrl: string,
    /** Base URL the target is given (CRM_PUBLIC_URL, else `localUrl`). */
    readonly url: string,
    /** Every request received, in order. */
    readonly hits: CallbackHit[],
    /** Called once each at the next request received (nextHit). */
    private readonly waiting: Set<() => void>,
    private readonly tmp?: string,
  ) {}

  /** Starts a receiver; rejects with a readable reason (missing openssl, busy port). */
  static async start(o: ReceiverOptions): Promise<CallbackReceiver> {
    let tmp: string | undefined;
    let server: Server;
    const hits: CallbackHit[] = [];
    const waiting = new Set<() => void>();
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= 1_000_000) chunks.push(c);
      });
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://receiver.invalid');
        if (url.pathname === '/favicon.ico') {
          // The browser's own request for an icon, not a callback.
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end();
          return;
        }
        const contentType = String(req.headers['content-type'] ?? '');
        const text = Buffer.concat(chunks).toString('utf8');
        const query = collect(url.searchParams.entries());
        const formEntries = /application\/x-www-form-urlencoded/i.test(contentType)
          ? [...new URLSearchParams(text).entries()]
          : /multipart\/form-data/i.test(contentType)
            ? parseMultipart(text, contentType)
            : [];
        const form = collect(formEntries);
        for (const source of [query.values, form.values]) {
          for (const k of SECRET_MEMBERS) if (source[k]) addSecret(source[k]);
        }
        hits.push({
          seq: hits.length,
          method: req.method ?? 'GET',
          path: url.pathname,
          query: query.values,
          contentType,
          form: form.values,
          repeated: [...new Set([...query.repeated, ...form.repeated])],
          at: Date.now(),
        });
        for (const wake of waiting) wake();
        waiting.clear();
        const body =
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Callback received</title></head><body><main><h1>Callback received</h1><p>The conformance suite recorded this request.</p></main></body></html>';
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
      });
    };
    if (o.https) {
      tmp = mkdtempSync(join(tmpdir(), 'crm-callback-'));
      const key = join(tmp, 'key.pem');
      const cert = join(tmp, 'cert.pem');
      try {
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:prime256v1',
            '-nodes',
            '-keyout',
            key,
            '-out',
            cert,
            '-days',
            '2',
            '-subj',
            '/CN=localhost',
            '-addext',
            'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
          ],
          { stdio: 'pipe' },
        );
      } catch (err) {
        rmSync(tmp, { recursive: true, force: true });
        throw new Error(`CRM_CALLBACK_HTTPS=1 needs the openssl CLI to make a self-signed certificate: ${(err as Error).message.split('\n')[0]}`);
      }
      server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, handler);
    } else {
      server = createHttpServer(handler);
    }
    const host = o.host ?? '127.0.0.1';
    const port = await new Promise<number>((ok, ko) => {
      server.once('error', (e: NodeJS.ErrnoException) =>
        ko(
          new Error(
            e.code === 'EADDRINUSE'
              ? `port ${o.port} is in use (another worker or program holds the callback port; run the OAuth specs with CRM_WORKERS=1)`
              : e.message,
          ),
        ),
      );
      server.listen(o.port ?? 0, host, () => ok((server.address() as AddressInfo).port));
    }).catch((e) => {
      if (tmp) rmSync(tmp, { recursive: true, force: true });
      throw e;
    });
    const scheme = o.https ? 'https' : 'http';
    const local = `${scheme}://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
    return new CallbackReceiver(server, local, o.publicUrl ?? local, hits, waiting, tmp);
  }

  /** Position to wait from: hits after this mark belong to what follows. */
  mark(): number {
    return this.hits.length;
  }

  /** Hits since `mark`. */
  since(mark: number): CallbackHit[] {
    return this.hits.slice(mark);
  }

  /**
   * Calls `wake` once, at the next request received. Returns the function that cancels it (call
   * it once woken for another reason).
   */
  nextHit(wake: () => void): () => void {
    this.waiting.add(wake);
    return () => this.waiting.delete(wake);
  }

  async close(): Promise<void> {
    await new Promise<void>((ok) => {
      this.server.closeAllConnections();
      this.server.close(() => ok());
    });
    if (this.tmp) rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** The payload of a hit: the form of a POST, else the query (a GET callback). */
export function payloadOf(hit: CallbackHit): Record<string, string> {
  return hit.method === 'POST' ? hit.form : hit.query;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The worker's receiver, bound where the target reaches it: loopback on an ephemeral port, or,
 * with CRM_PUBLIC_URL, the fixed local port it forwards to (CRM_CALLBACK_PORT).
 */
async function bindReceiver(cfg: TargetConfig): Promise<WorkerResource<CallbackReceiver>> {
  const template = cfg.profile.oauth.redirect_uris[0] ?? '{public}/oauth/callback';
  const path = template.startsWith('{public}')
    ? new URL(template.replace('{public}', 'http://x.invalid'), 'http://x.invalid').pathname
    : new URL(template).pathname;
  if (!cfg.publicUrl) {
    return { value: await CallbackReceiver.start({ https: cfg.callback.https, path }) };
  }
  const pub = new URL(cfg.publicUrl);
  const port = cfg.callback.port ?? (pub.port ? Number(pub.port) : undefined);
  if (!port)
    return {
      reason: `CRM_PUBLIC_URL=${cfg.publicUrl} is set but the local port of the OAuth callback receiver is not: set CRM_CALLBACK_PORT (the port CRM_PUBLIC_URL forwards to)`,
    };
  // Another worker may hold the port for a while: retry with a deadline.
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return { value: await CallbackReceiver.start({ https: cfg.callback.https, path, host: '0.0.0.0', port, publicUrl: cfg.publicUrl }) };
    } catch (err) {
      if (Date.now() > deadline || !/in use/.test((err as Error).message)) throw err;
      await sleep(500);
    }
  }
}

/** The worker fixture `callbackReceiver` (specs/support/fixtures/test.ts): the receiver, or why there is none. */
export async function startCallbackReceiver(cfg: TargetConfig, use: (r: WorkerResource<CallbackReceiver>) => Promise<void>): Promise<void> {
  let r: WorkerResource<CallbackReceiver>;
  try {
    r = await bindReceiver(cfg);
  } catch (err) {
    r = { reason: `the OAuth callback receiver did not start: ${(err as Error).message}` };
  }
  await use(r);
  await r.value?.close();
}
