/**
 * Faults of the reference server: small realistic bugs, each naming the rules it breaks, kept
 * out of the handlers. A handler reads as the conformant server; a fault hooks in from outside:
 *
 * (a) Response post-processors per route: `routes: [{ route: 'POST /webhooks', respond(res) }]`
 *     transforms the presented answer (status, body, headers; thrown HttpErrors included) of that
 *     route; `around(ctx, next)` may also act before or after the handler (e.g. put a record back).
 *     `route` is the method and the pattern exactly as the area registers it; `host` says which
 *     router ('api' by default, 'root' for routes outside /developer_api/v1, 'auth' for OAuth).
 *     The server checks at start that every fault's route exists.
 * (b) Named hook points for behavioural faults. A handler passes a value through a point:
 *       const matches = app.at('upsert.matches', found, { fieldName });
 *     and a fault transforms it: `at: { 'upsert.matches': (found, ctx, app) => … }`. With no
 *     fault on a point, `app.at` returns the value itself (one Map lookup). A fault's hook may
 *     also throw an HttpError (a refusal the conformant server does not make) or write (a fault
 *     that writes anyway), synchronously.
 * (c) Seams: a handler runs its write through a named seam,
 *       return app.seam('upsert.create', { properties }, () => write());
 *     with no fault on, `next()` runs at once (synchronously: read-check-write stays free of
 *     `await`); a fault may run it later (`seam: { 'upsert.create': (ctx, next) => tick(15).then(next) }`)
 *     or do something before it.
 * (d) Around every request: `handling(next)` runs around the handler of each request, whatever
 *     its route (a fault whose every answer waits for something the handler started).
 *
 * Points and seams are typed: an area declares its own in its fault file,
 *   declare module './types.js' {
 *     interface HookPoints { 'upsert.matches': { value: Rec[]; ctx: { fieldName: string } } }
 *     interface SeamPoints { 'upsert.create': { properties: Record<string, unknown> } }
 *   }
 * and lists its faults in reference/faults/index.ts (ALL_FAULTS).
 */
import type { App } from '../app.js';
import type { Reply, RequestContext } from '../http.js';

/** What a fault is: a name, the rules it breaks, what it does. */
export interface FaultDef {
  name: string;
  rules: string[];
  description: string;
}

/** Hook points: name → the value passed through and the context given to faults. Areas add theirs (see above). */
export interface HookPoints {}
/** Seams: name → the context given to faults. Areas add theirs (see above). */
export interface SeamPoints {}

export type PointName = keyof HookPoints;
export type SeamName = keyof SeamPoints;
type PointValue<P extends PointName> = HookPoints[P] extends { value: infer V } ? V : never;
type PointCtx<P extends PointName> = HookPoints[P] extends { ctx: infer C } ? C : never;
export type { PointValue, PointCtx };

/** A presented answer: what a post-processor sees and returns. */
export type Presented = Reply & { status: number };

export type RouteHost = 'api' | 'root' | 'auth';

export interface RouteFault {
  /**
   * `METHOD /pattern`, the pattern as the area registers it, e.g. `DELETE /webhooks/{webhook_id}`;
   * a function when the pattern depends on an open choice.
   */
  route: string | ((app: App) => string);
  host?: RouteHost;
  /** Transforms the presented answer (errors thrown by the handler included). */
  respond?(res: Presented, ctx: RequestContext, app: App): Presented;
  /** Runs around the handler (`next` answers the presented answer). */
  around?(ctx: RequestContext, next: () => Promise<Presented>, app: App): Presented | Promise<Presented>;
  /** A route only the fault adds (the conformant server has none there). */
  add?(ctx: RequestContext, app: App): unknown;
}

export interface Fault extends FaultDef {
  routes?: RouteFault[];
  at?: { [P in PointName]?: (value: PointValue<P>, ctx: PointCtx<P>, app: App) => PointValue<P> };
  seam?: { [S in SeamName]?: <T>(ctx: SeamPoints[S], next: () => T, app: App) => T | Promise<T> };
  handling?: <T>(next: () => T | Promise<T>, app: App) => Promise<T>;
}

/** A pause, as a storage round trip would make (faults that break atomicity). */
export const tick = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
