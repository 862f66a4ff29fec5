/** A small router over node:http for the reference server. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class HttpError extends Error {
  constructor(
    public status: number,
    public body: unknown,
    public headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : `HTTP ${status}`);
  }
}

/** Errors the spec does not show a body for: one general shape, `{ success: false, status, message }`. */
export const fail = (status: number, message: string, extra: Record<string, unknown> = {}): never => {
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
  auth: boolean;
}

export class Router {
  private routes: Route[] = [];

  /** `pattern` like `/companies/{company_id}/activities`; `auth: false` for unauthenticated routes. */
  add(method: string, pattern: string, handler: Handler, options: { auth?: boolean } = {}): this {
    this.routes.push({ method, parts: pattern.split('/').filter(Boolean), handler, auth: options.auth ?? true });
    return this;
  }

  match(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
    const segs = path.split('/').filter(Boolean);
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
        allowed.push(route.method);
        continue;
      }
      if (!best || score > best.score) best = { route, params, score };
    }
    if (best) return best;
    return allowed.length ? { allowed } : undefined;
  }

  /** Is `METHOD pattern` registered (exactly as added)? */
  has(method: string, pattern: string): boolean {
    const parts = pattern.split('/').filter(Boolean).join('/');
    return this.routes.some((r) => r.method === method && r.parts.join('/') === parts);
  }

  /** Replaces the handler of `METHOD pattern` (registered exactly so) by `wrap(handler)` (route faults). */
  wrap(method: string, pattern: string, wrap: (handler: Handler) => Handler): void {
    const parts = pattern.split('/').filter(Boolean).join('/');
    const route = this.routes.find((r) => r.method === method && r.parts.join('/') === parts);
    if (!route) throw new Error(`no route ${method} ${pattern} to wrap`);
    route.handler = wrap(route.handler);
  }
}

export const MAX_BODY = 5 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, { success: false, status: 413, message: 'request body too large' }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) return;
  const status = reply.status ?? 200;
  if (reply.raw !== undefined) {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...reply.headers });
    res.end(reply.raw);
    return;
  }
  const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...reply.headers });
  res.end(text);
}

export function isReply(v: unknown): v is Reply {
  return (
    !!v &&
    typeof v === 'object' &&
    ('status' in v || 'raw' in v) &&
    !Array.isArray(v) &&
    Object.keys(v).every((k) => ['status', 'body', 'headers', 'raw'].includes(k))
  );
}
