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

/** The page every callback gets: it echoes nothing. */
const RECEIVED_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Callback received</title></head><body><main><h1>Callback received</h1><p>The conformance suite recorded this request.</p></main></body></html>';

/** What a request carried: its query and form members (the secret ones registered as secrets at once). */
function hitOf(req: IncomingMessage, url: URL, text: string, seq: number): CallbackHit {
  const contentType = String(req.headers['content-type'] ?? '');
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
  return {
    seq,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: query.values,
    contentType,
    form: form.values,
    repeated: [...new Set([...query.repeated, ...form.repeated])],
    at: Date.now(),
  };
}

/** The receiver's request handler: records each request in `hits`, wakes the waiting, answers {@link RECEIVED_PAGE}. */
function recordingHandler(hits: CallbackHit[], waiting: Set<() => void>) {
  return (req: IncomingMessage, res: ServerResponse) => {
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
      hits.push(hitOf(req, url, Buffer.concat(chunks).toString('utf8'), hits.length));
      for (const wake of waiting) wake();
      waiting.clear();
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'content-length': Buffer.byteLength(RECEIVED_PAGE),
      });
      res.end(RECEIVED_PAGE);
    });
  };
}

/** A self-signed certificate for localhost, made with the openssl CLI in a directory of its own (removed by the caller). */
function selfSignedCertificate(): { dir: string; key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'crm-callback-'));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1'];
  try {
    const curve = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];
    execFileSync('openssl', ['req', '-x509', ...curve, '-nodes', '-keyout', key, '-out', cert, '-days', '2', ...subject], { stdio: 'pipe' });
    return { dir, key: readFileSync(key), cert: readFileSync(cert) };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`CRM_CALLBACK_HTTPS=1 needs the openssl CLI to make a self-signed certificate: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** Listens on `host`:`port` (any free port without one); the port it got, or a readable reason. */
function bind(server: Server, host: string, port: number | undefined): Promise<number> {
  return new Promise<number>((ok, ko) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      ko(
        new Error(
          e.code === 'EADDRINUSE'
            ? `port ${port} is in use (another worker or program holds the callback port; run the OAuth specs with CRM_WORKERS=1)`
            : e.message,
        ),
      ),
    );
    server.listen(port ?? 0, host, () => ok((server.address() as AddressInfo).port));
  });
}

/** Where a receiver of these options listens on `port`, e.g. `http://127.0.0.1:41234` (all addresses: reached at 127.0.0.1). */
function localUrlOf(o: ReceiverOptions, port: number): string {
  const host = o.host ?? '127.0.0.1';
  return `${o.https ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
}

/** The base URL the target is given for a receiver of these options on `port`: CRM_PUBLIC_URL, else where it listens. */
export const receiverUrlOf = (o: ReceiverOptions, port: number): string => o.publicUrl ?? localUrlOf(o, port);

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
    const hits: CallbackHit[] = [];
    const waiting = new Set<() => void>();
    const handler = recordingHandler(hits, waiting);
    const tls = o.https ? selfSignedCertificate() : undefined;
    const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler) : createHttpServer(handler);
    const host = o.host ?? '127.0.0.1';
    const port = await bind(server, host, o.port).catch((e: unknown) => {
      if (tls) rmSync(tls.dir, { recursive: true, force: true });
      throw e;
    });
    const local = localUrlOf(o, port);
    return new CallbackReceiver(server, local, o.publicUrl ?? local, hits, waiting, tls?.dir);
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

/** The registered redirect URI the OAuth specs send: the profile's first `oauth.redirect_uris`, else `{public}/oauth/callback`. */
const redirectTemplate = (cfg: TargetConfig): string => cfg.profile.oauth.redirect_uris[0] ?? '{public}/oauth/callback';

/** The redirect_uri of a run whose callback receiver is reached at `receiverUrl` (`{public}` stands for it). */
export function redirectUriOf(cfg: TargetConfig, receiverUrl: string): string {
  return redirectTemplate(cfg).replace('{public}', receiverUrl);
}

/**
 * Where the run's callback receiver listens (the options of {@link CallbackReceiver.start}), or why
 * it cannot: with CRM_PUBLIC_URL on all addresses, on the local port it forwards to
 * (CRM_CALLBACK_PORT, else its own port); on loopback on 127.0.0.1, at CRM_CALLBACK_PORT when set,
 * else on a free port (`port` undefined: the redirect URI then changes from run to run).
 */
export function callbackOptions(cfg: TargetConfig): ReceiverOptions | { reason: string } {
  const template = redirectTemplate(cfg);
  const path = new URL(template.startsWith('{public}') ? template.replace('{public}', 'http://x.invalid') : template).pathname;
  const { https, port } = cfg.callback;
  if (!cfg.publicUrl) return { https, path, port };
  if (port === undefined)
    return {
      reason: `CRM_PUBLIC_URL=${cfg.publicUrl} is set but the local port of the OAuth callback receiver is not: set CRM_CALLBACK_PORT (the port CRM_PUBLIC_URL forwards to)`,
    };
  return { https, path, host: '0.0.0.0', port, publicUrl: cfg.publicUrl };
}

/** The worker's receiver, bound where {@link callbackOptions} says; a fixed port another worker may still hold is retried. */
async function bindReceiver(cfg: TargetConfig): Promise<WorkerResource<CallbackReceiver>> {
  const options = callbackOptions(cfg);
  if ('reason' in options) return options;
  if (options.port === undefined) return { value: await CallbackReceiver.start(options) };
  // Another worker may hold the port for a while: retry with a deadline.
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return { value: await CallbackReceiver.start(options) };
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
