/**
 * The embedded reference server: a complete, conformant in-memory implementation of the
 * CRM Developer API. The API host serves `/developer_api/v1`; the authorization host (OAuth)
 * may listen on another origin.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type AreaModule, type Fault, type ReferenceOptions } from './app.js';
import { HttpError, Router, isReply, readBody, send as sendReply, type Handler, type Reply, type RequestContext, type WireOptions } from './http.js';
import { ALL_FAULTS } from './faults/index.js';
import type { Presented, RouteFault } from './faults/types.js';
import { AREA_MODULES } from './routes/index.js';
import { refusal } from './routes/common.js';
import { createLive } from './live.js';

export const API_PREFIX = '/developer_api/v1';

/** Every fault of the reference server (reference/faults/). */
export function faultCatalog(): Fault[] {
  return ALL_FAULTS;
}

// Stryker disable all: runs only with a route fault switched on (never in a mutation run); the calibration self-tests judge the faults
/** The handler of a route wrapped by a route fault: post-processes its presented answer (errors included). */
function wrapRoute(app: App, rf: RouteFault): (h: Handler) => Handler {
  return (h) => async (ctx) => {
    const next = async (): Promise<Presented> => {
      try {
        const out = await h(ctx);
        const reply = isReply(out) ? out : { status: 200, body: out };
        return { ...reply, status: reply.status ?? 200 };
      } catch (err) {
        if (err instanceof HttpError) return { status: err.status, body: err.body, headers: err.headers };
        throw err;
      }
    };
    const res = rf.around ? await rf.around(ctx, next, app) : await next();
    return rf.respond ? rf.respond(res, ctx, app) : res;
  };
}
// Stryker restore all

function credentialsOk(app: App, req: IncomingMessage): boolean {
  return app.at('auth.credentials', credentialsMatch(app, req), undefined);
}

function credentialsMatch(app: App, req: IncomingMessage): boolean {
  const { credentials } = app.options;
  const auth = req.headers.authorization;
  if (auth) {
    // Stryker disable next-line Regex: leniency toward an Authorization header malformed around `Bearer <token>` (RFC 6750 §2.1), which no check sends
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (!m) return false;
    return (m[1] === credentials.bearerToken && !!credentials.bearerToken) || app.issuedTokens.has(m[1]);
  }
  const token = req.headers['x-svc-accesstoken'];
  const application = req.headers['x-svc-application'];
  // Stryker disable next-line StringLiteral: equivalent: without the header no e-mail matches (the configured one is never that text)
  const email = String(req.headers['x-svc-useremail'] ?? '');
  if (!token || token !== credentials.accessToken) return false;
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: the spec's examples send `X-SVC-Application: developer_api`; another value: not shown
  if (application !== 'developer_api') return false;
  return app.at('auth.user-email', email.toLowerCase() === credentials.userEmail.toLowerCase(), undefined);
}

function parseBody(ctx: RequestContext, app: App): void {
  if (!ctx.rawBody.length) return;
  // Stryker disable next-line StringLiteral: equivalent: without Content-Type the body is read as JSON either way
  const type = String(ctx.headers['content-type'] ?? '');
  const text = ctx.rawBody.toString('utf8');
  if (type.includes('application/x-www-form-urlencoded')) {
    ctx.body = Object.fromEntries(new URLSearchParams(text));
    return;
  }
  if (type.includes('multipart/form-data')) return; // handled by the route
  // A malformed body taken as none is the lenient reading WIRE-5 allows (errors.ill-typed-input); its refusal's status is open
  // (errors.malformed-json-status) and its body not shown (errors.body).
  // Stryker disable all: (above)
  try {
    ctx.body = JSON.parse(text);
  } catch {
    throw refusal(app, Number(app.choice('errors.malformed-json-status')), 'malformed JSON body', { code: 'malformed_json' });
  }
}

type Host = 'api' | 'auth';

// Stryker restore all
/** How this server's answers go on the wire (`general.*` choices; reference/http.ts WireOptions). */
// Stryker disable next-line BlockStatement: equivalent under the default choices, each of which turns its wire option off
function wireOf(app: App): WireOptions {
  // Stryker disable next-line BlockStatement,ObjectLiteral: equivalent under the default choices, each of which turns its wire option off
  return {
    gzip: app.choice('general.content-coding') === 'gzip',
    chunked: app.choice('general.transfer-coding') === 'chunked',
    close: app.choice('general.connection') === 'close',
    titleCase: app.choice('general.header-case') === 'title-case',
    noCharset: app.choice('general.json-charset') === 'none',
    retryAfterDate: app.choice('general.retry-after') === 'http-date',
  };
}

/** `general.rate-limit` `limited`: non-bulk API requests per credentials a second, on average ({@link GENERAL_BURST} at once). */
export const GENERAL_RATE = 20;
/** The most non-bulk requests a credential may send at once (a token bucket of this size, refilled at {@link GENERAL_RATE} a second). */
export const GENERAL_BURST = 60;
// Stryker disable next-line Regex: read only by the limiter of general.rate-limit limited, another alternative
const BULK_ROUTE = /^\/opportunities\/bulk_create\/?$/;

/**
 * The general rate limit (`general.rate-limit`; spec § Limits: "General rate limits for non-bulk
 * calls | all | not shown"): a token bucket per credentials, {@link GENERAL_BURST} requests at once
 * and {@link GENERAL_RATE} a second after that; the excess is answered 429 with Retry-After (the
 * seconds until a token is back, at least 1). Bulk calls are not counted: they have their own limit
 * of 3 a second "in addition" (the bulk route's), and a bulk call within that pace is never refused.
 */
function generalLimiter(app: App): (req: IncomingMessage, sub: string) => number | undefined {
  if (app.choice('general.rate-limit') !== 'limited') return () => undefined;
  // Stryker disable all: only under general.rate-limit limited, another alternative (general rate limits: "not shown")
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (req, sub) => {
    if (req.method === 'POST' && BULK_ROUTE.test(sub)) return undefined;
    const key = String(req.headers.authorization ?? req.headers['x-svc-accesstoken'] ?? '');
    const now = Date.now();
    const b = buckets.get(key) ?? { tokens: GENERAL_BURST, at: now };
    b.tokens = Math.min(GENERAL_BURST, b.tokens + ((now - b.at) * GENERAL_RATE) / 1000);
    b.at = now;
    buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / GENERAL_RATE));
  };
}

// Stryker restore all
function handler(app: App, routers: { api: Router; root: Router; auth: Router }, host: Host | 'both', latencyMs = 0) {
  const wire = wireOf(app);
  const send = (res: ServerResponse, reply: Reply) => sendReply(res, reply, wire);
  const limited = generalLimiter(app);
  return async (req: IncomingMessage, res: ServerResponse) => {
    // Stryker disable next-line StringLiteral: equivalent: Node's parser always sets req.url
    const url = new URL(req.url ?? '/', 'http://reference.invalid');
    const path = url.pathname;
    try {
      let router: Router;
      let sub = path;
      let isApi = false;
      // One origin for both hosts (no authPort: host 'both') is a configuration the mutation run does not take (its API and
      // authorization hosts listen apart; selftest/one-origin.test.ts runs one origin); the bare prefix is no endpoint; the health
      // check is the embedded server's, for the suite's start-up (scripts/start-reference.mjs), no API path; an authorization host's
      // other paths and the error bodies (errors.body) are not shown.
      // Stryker disable all: (above)
      if ((host === 'api' || host === 'both') && (path === API_PREFIX || path.startsWith(API_PREFIX + '/'))) {
        router = routers.api;
        sub = path.slice(API_PREFIX.length) || '/';
        isApi = true;
      } else if ((host === 'auth' || host === 'both') && path.startsWith('/oauth')) {
        router = routers.auth;
      } else if ((host === 'api' || host === 'both') && path === '/healthz') {
        send(res, { status: 200, body: { ok: true } });
        return;
      } else if (host === 'api' || host === 'both') {
        router = routers.root;
      } else {
        throw refusal(app, 404, `no route for ${req.method} ${path}`, { code: 'not_found' });
      }
      // Stryker restore all
      // Stryker disable next-line StringLiteral: equivalent: Node's parser always sets req.method
      const found = router.match(req.method ?? 'GET', sub);
      const rawBody = await readBody(req);
      // Stryker disable next-line all: the bench's simulated network (REFERENCE_LATENCY_MS, 0 here): when an answer leaves, not what it says
      if (isApi && latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      const wait = isApi ? limited(req, sub) : undefined;
      // Stryker disable next-line ConditionalExpression,ObjectLiteral,StringLiteral: only general.rate-limit limited waits (another alternative)
      if (wait !== undefined) throw refusal(app, 429, 'rate limit: too many requests', { code: 'rate_limited' }, { 'retry-after': String(wait) });
      // Stryker disable next-line ObjectLiteral,StringLiteral: the general error body is not shown (errors.body)
      if (!found) throw refusal(app, 404, `no route for ${req.method} ${path}`, { code: 'not_found' });
      if (isApi && !credentialsOk(app, req)) {
        // Stryker disable next-line ObjectLiteral,StringLiteral: the general error body is not shown (errors.body)
        throw refusal(app, Number(app.choice('errors.credentials-status')), 'missing or invalid credentials', { code: 'forbidden' });
      }
      if ('allowed' in found) {
        if (app.choice('errors.unsupported-method') === '404') throw refusal(app, 404, `no route for ${req.method} ${path}`, { code: 'not_found' });
        throw refusal(
          app,
          405,
          `method not allowed; allowed: ${found.allowed.join(', ')}`,
          // Stryker disable next-line ObjectLiteral,StringLiteral: the general error body is not shown (errors.body)
          { code: 'method_not_allowed' },
          // Stryker disable next-line StringLiteral: equivalent for the paths WIRE-7 sends, which serve one method each
          { allow: found.allowed.join(', ') },
        );
      }
      const ctx: RequestContext = {
        // Stryker disable next-line LogicalOperator,StringLiteral: equivalent: Node's parser always sets req.method
        method: req.method ?? 'GET',
        path: sub,
        params: found.params,
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        body: undefined,
        req,
        res,
      };
      parseBody(ctx, app);
      const out = await app.handle(() => found.route.handler(ctx));
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: send() returns when the headers are sent (a route that answered itself)
      if (res.headersSent || res.writableEnded) return;
      send(res, isReply(out) ? out : { status: 200, body: out });
    } catch (err) {
      // Stryker disable all: equivalent but for a crash, which only a server failure reaches; what a 500 says is not shown
      if (err instanceof HttpError) send(res, { status: err.status, body: err.body, headers: err.headers });
      else {
        console.error('[reference] internal error', err);
        send(res, { status: 500, body: { success: false, status: 500, message: 'internal error' } });
      }
    }
  };
}

// Stryker restore all
/**
 * Route faults: every fault's route must exist (checked for all faults, so a renamed route is
 * noticed at once); the switched-on ones wrap their routes or add theirs.
 */
// Stryker disable next-line BlockStatement: with no fault on it only checks the catalog's routes (the calibration self-tests run it)
function installRouteFaults(app: App, routers: Record<'api' | 'root' | 'auth', Router>, catalog: Fault[], active: Fault[]): void {
  // Stryker disable all: the fault catalog's routes, checked and installed only for faults (none in a mutation run; the calibration self-tests judge them)
  for (const f of catalog) {
    for (const rf of f.routes ?? []) {
      const route = typeof rf.route === 'function' ? rf.route(app) : rf.route;
      const [method, pattern] = route.split(' ');
      const router = routers[rf.host ?? 'api'];
      if (rf.add) {
        if (active.includes(f)) router.add(method, pattern, (ctx) => rf.add!(ctx, app));
        continue;
      }
      if (!router.has(method, pattern)) throw new Error(`fault ${f.name}: no route ${route} on the ${rf.host ?? 'api'} host`);
      if (active.includes(f)) router.wrap(method, pattern, wrapRoute(app, rf));
    }
  }
}

// Stryker restore all
export interface RunningReference {
  app: App;
  apiUrl: string;
  authUrl: string;
  close(): Promise<void>;
}

/** Starts the reference server. `authPort` undefined ⇒ the auth routes share the API origin. */
export async function startReference(
  options: ReferenceOptions & { port?: number; authPort?: number; host?: string; authHost?: string },
  modules: AreaModule[] = AREA_MODULES,
): Promise<RunningReference> {
  const catalog = faultCatalog();
  // Stryker disable next-line ArrowFunction: equivalent with no fault asked for (the names are checked only against those asked)
  const known = new Set(catalog.map((f) => f.name));
  // Stryker disable next-line all: checks the names of the faults asked for (none in a mutation run)
  for (const f of options.faults) if (!known.has(f)) throw new Error(`unknown fault "${f}"; known faults: ${[...known].sort().join(', ') || '(none)'}`);
  // Stryker disable next-line ArrowFunction: equivalent with no fault asked for (none in a mutation run)
  const active = catalog.filter((f) => options.faults.has(f.name));
  const app = new App(options, active);
  const routers = { api: new Router(), root: new Router(), auth: new Router() };
  for (const m of modules) {
    m.seed?.(app);
    m.api?.(routers.api, app);
    m.root?.(routers.root, app);
    m.auth?.(routers.auth, app);
  }
  // Stryker disable next-line CallExpression: with no fault on it only checks the catalog's routes (the calibration self-tests run it)
  installRouteFaults(app, routers, catalog, active);
  // Live mode (reference/live.ts): its pool taken now, seeded and untouched by any client; it runs once the server listens.
  const live = options.live ? createLive(app, options.live) : undefined;
  // Stryker disable next-line all: the interface the embedded server listens on is the suite's configuration, not the API's
  const host = options.host ?? '127.0.0.1';
  // Where and how the embedded server listens (one origin or two, which interface, its URLs) is the suite's configuration, not the API's.
  // Stryker disable all: (above)
  const separateAuth = options.authPort !== undefined;
  const servers: Server[] = [];
  // Stryker disable next-line all: a start-up error (a port taken) is reported to whoever starts the server, never answered
  const listen = (server: Server, port: number, h: string) =>
    new Promise<number>((ok, ko) => {
      server.once('error', ko);
      server.listen(port, h, () => ok((server.address() as AddressInfo).port));
    });
  const apiServer = createServer(handler(app, routers, separateAuth ? 'api' : 'both', options.latencyMs));
  // Stryker disable next-line all: how long an idle connection stays open is not shown (the suite's client reconnects when it closes)
  apiServer.keepAliveTimeout = 30_000;
  servers.push(apiServer);
  const apiPort = await listen(apiServer, options.port ?? 0, host);
  const apiUrl = `http://${host}:${apiPort}`;
  let authUrl = apiUrl;
  if (separateAuth) {
    const authServer = createServer(handler(app, routers, 'auth'));
    servers.push(authServer);
    const authHost = options.authHost ?? 'localhost';
    const p = await listen(authServer, options.authPort ?? 0, authHost === 'localhost' ? '127.0.0.1' : authHost);
    authUrl = `http://${authHost}:${p}`;
  }
  // Stryker restore all
  app.publicBaseUrl = apiUrl;
  live?.start();
  // Stryker disable all: stopping the server (the suite's run ends by then); no answer depends on it
  const close = (): Promise<void> => {
    live?.stop();
    return Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((ok) => {
            s.closeAllConnections();
            s.close(() => ok());
          }),
      ),
    ).then(() => undefined);
  };
  // Stryker restore all
  // Stryker disable next-line ObjectLiteral: equivalent: the embedded server's caller (reference/main.ts) reads none of it
  return { app, apiUrl, authUrl, close };
}
