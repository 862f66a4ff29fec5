/** A small router over node:http for the reference server. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export class HttpError extends Error {
  constructor(
    public status: number,
    public body: unknown,
    public headers: Record<string, string> = {},
  ) {
    // Stryker disable next-line all: the Error's own message, for the server's log: what is answered is `body`
    super(typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : `HTTP ${status}`);
  }
}

/** Errors the spec does not show a body for: one general shape, `{ success: false, status, message }`. */
export const fail = (status: number, message: string, extra: Record<string, unknown> = {}): never => {
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: the general error body is not shown (spec § Errors; open choice errors.body)
  throw new HttpError(status, { success: false, status, message, ...extra });
};

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw body (HTML, form); `body` is then ignored. */
  raw?: string | Buffer;
}

export interface RequestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Raw body bytes. */
  rawBody: Buffer;
  /** Parsed JSON body (or form object for urlencoded); undefined when empty. */
  body: unknown;
  req: IncomingMessage;
  res: ServerResponse;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply> | unknown | Promise<unknown>;

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
}

export class Router {
  private routes: Route[] = [];

  /**
   * `pattern` like `/companies/{company_id}/activities`. Credentials are checked by host, not by route:
   * every API route needs them, no route of the authorization host does (reference/server.ts).
   */
  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, parts: pattern.split('/').filter(Boolean), handler });
    return this;
  }

  match(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
    const segs = path.split('/').filter(Boolean);
    // Stryker disable next-line ArrayDeclaration: an unknown path then answers 405 (its Allow a made-up name, besides the methods), not 404: either is open
    const allowed: string[] = [];
    let best: { route: Route; params: Record<string, string>; score: number } | undefined;
    for (const route of this.routes) {
      if (route.parts.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let score = 0;
      let ok = true;
      for (let i = 0; i < segs.length; i++) {
        const p = route.parts[i];
        if (p.startsWith('{')) params[p.slice(1, -1)] = decodeURIComponent(segs[i]);
        else if (p === segs[i]) score++;
        else {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (route.method !== method) {
        // Stryker disable next-line CallExpression: without it an unserved method answers 404, the alternative 404 of errors.unsupported-method
        allowed.push(route.method);
        continue;
      }
      // Equivalent: the one pair of routes a path can match (GET …/files/s3_signed_url and …/files/{file_id}) is registered literal first.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent (above)
      if (!best || score > best.score) best = { route, params, score };
    }
    // Stryker disable next-line ConditionalExpression: made true, an unserved method answers 404, the alternative 404 of errors.unsupported-method
    if (best) return best;
    return allowed.length ? { allowed } : undefined;
  }

  /** Is `METHOD pattern` registered (exactly as added)? */
  has(method: string, pattern: string): boolean {
    const parts = pattern.split('/').filter(Boolean).join('/');
    // Stryker disable next-line ConditionalExpression,LogicalOperator: only checks at start-up that every fault names a route there is (faults/)
    return this.routes.some((r) => r.method === method && r.parts.join('/') === parts);
  }

  /** Replaces the handler of `METHOD pattern` (registered exactly so) by `wrap(handler)` (route faults). */
  // Stryker disable all: called only with a route fault switched on (none in a mutation run); the calibration self-tests judge faults
  wrap(method: string, pattern: string, wrap: (handler: Handler) => Handler): void {
    const parts = pattern.split('/').filter(Boolean).join('/');
    const route = this.routes.find((r) => r.method === method && r.parts.join('/') === parts);
    if (!route) throw new Error(`no route ${method} ${pattern} to wrap`);
    route.handler = wrap(route.handler);
  }
}

// Stryker restore all
export const MAX_BODY = 5 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      // Stryker disable all: a limit on the size of a request is not shown; the reference's guards its memory (no test sends 5 MiB)
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, { success: false, status: 413, message: 'request body too large' }));
        req.destroy();
        return;
      }
      // Stryker restore all
      chunks.push(c);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    // Stryker disable next-line StringLiteral,CallExpression: a request stream's error (a client gone mid-body) has no one to answer
    req.on('error', reject);
  });
}

/**
 * How answers go on the wire: the open choices of `general.*` (rules/choices.json) the server
 * takes. The default sends every JSON answer with Content-Length, `application/json; charset=utf-8`,
 * lower-case header names, no content coding, the connection kept alive and Retry-After in seconds.
 */
export interface WireOptions {
  /** gzip-code JSON answers even when the request has no Accept-Encoding (RFC 9110 §12.5.3). */
  gzip?: boolean;
  /** Send JSON answers chunked (Transfer-Encoding), without Content-Length (RFC 9112 §6.1). */
  chunked?: boolean;
  /** `Connection: close` after every answer (RFC 9112 §9.6). */
  close?: boolean;
  /** Header names in Title-Case (Content-Type) rather than lower case: names are case-insensitive (RFC 9110 §5.1). */
  titleCase?: boolean;
  /** `application/json` without the charset parameter (RFC 8259 §11 defines none). */
  noCharset?: boolean;
  /** Retry-After as an HTTP-date rather than delta-seconds (RFC 9110 §10.2.3). */
  retryAfterDate?: boolean;
}

// Stryker disable next-line all: used only under general.header-case title-case, another alternative (names are case-insensitive, RFC 9110 §5.1)
const titleCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/** The headers of an answer as `wire` sends them: names cased, Retry-After in its form, Connection. */
function wireHeaders(headers: Record<string, string | number>, wire: WireOptions): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(headers)) {
    let v = value;
    // Delta-seconds as the date they end at, rounded up to a whole second (an HTTP-date has no finer unit).
    // Stryker disable all: only under general.retry-after http-date, another alternative (RFC 9110 §10.2.3 allows both forms)
    if (wire.retryAfterDate && name.toLowerCase() === 'retry-after' && /^\d+$/.test(String(value)))
      v = new Date(Math.ceil((Date.now() + Number(value) * 1000) / 1000) * 1000).toUTCString();
    // Stryker restore all
    // Stryker disable next-line all: the case of header names, general.header-case (names are case-insensitive, RFC 9110 §5.1)
    out[wire.titleCase ? titleCase(name.toLowerCase()) : name] = v;
  }
  // Stryker disable next-line all: Connection: close, general.connection close, another alternative (RFC 9112 §9.6)
  if (wire.close) out[wire.titleCase ? 'Connection' : 'connection'] = 'close';
  return out;
}

export function send(res: ServerResponse, reply: Reply, wire: WireOptions = {}): void {
  // Stryker disable next-line ConditionalExpression: equivalent: no answer is sent twice but a fault's (the server checks headersSent first)
  if (res.headersSent) return;
  const status = reply.status ?? 200;
  // Stryker disable next-line all: general.connection close, another alternative (RFC 9112 §9.6)
  if (wire.close) res.shouldKeepAlive = false;
  if (reply.raw !== undefined) {
    // Stryker disable next-line StringLiteral: the authorization host's pages are its own (not shown); the step-2 upload's answer sets its own type
    res.writeHead(status, wireHeaders({ 'content-type': 'text/html; charset=utf-8', ...reply.headers }, wire));
    res.end(reply.raw);
    return;
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: every JSON answer of the reference has a body
  const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
  // Stryker disable next-line all: the charset parameter, general.json-charset (RFC 8259 §11 defines none; both conformant)
  const type = wire.noCharset ? 'application/json' : 'application/json; charset=utf-8';
  // Gzip or identity, general.content-coding (RFC 9110 §12.5.3; both conformant); Buffer.from reads an empty encoding as UTF-8.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent or another alternative (above)
  const bytes = wire.gzip && text.length ? gzipSync(text) : Buffer.from(text, 'utf8');
  const headers: Record<string, string | number> = {
    'content-type': type,
    // Stryker disable next-line all: the headers of a gzip-coded answer, general.content-coding gzip, another alternative
    ...(wire.gzip && text.length ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}),
  };
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent either way: Node adds Content-Length itself when end() gets the whole body
  if (!wire.chunked) headers['content-length'] = bytes.length;
  res.writeHead(status, wireHeaders({ ...headers, ...reply.headers }, wire));
  // Written before the end: Node then sends the body chunked (it adds Content-Length only when end() gets it all first).
  // Stryker disable next-line all: chunked answers, general.transfer-coding chunked, another alternative (RFC 9112 §6.1)
  if (wire.chunked && bytes.length) res.write(bytes);
  res.end(wire.chunked ? undefined : bytes);
}

/**
 * Is a handler's result a Reply rather than a body? The last test decides: no body the reference answers (a record, a list, an
 * error body) has only the members of a Reply; the other tests are equivalent with it (an array's members are indices).
 */
export function isReply(v: unknown): v is Reply {
  return (
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent (above)
    !!v &&
    // Stryker disable next-line ConditionalExpression: equivalent (above)
    typeof v === 'object' &&
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent (above)
    ('status' in v || 'raw' in v) &&
    !Array.isArray(v) &&
    Object.keys(v).every((k) => ['status', 'body', 'headers', 'raw'].includes(k))
  );
}
