/**
 * What every area module of the reference server gets: the store, the options (credentials,
 * open choices, faults), events for webhooks, and the hooks faults use.
 *
 * - `app.choice('webhook.payload')`: the alternative this server takes for an open choice of the
 *   spec (rules/choices.json, reference/choices.ts), typed to that choice's alternative names.
 * - `app.at(point, value, ctx)`, `app.seam(seam, ctx, next)`: named hook points and seams where
 *   behavioural faults hook in (reference/faults/types.ts); with no fault on they are the identity
 *   and `next()`. Response-reshaping faults are route post-processors installed by the server.
 * - `app.handle(next)`: a request's handler, run around by faults that act on every request.
 * - `app.emit(type, event, record, previous?)`: announces a record change (webhook delivery);
 *   for 'update', pass `previous` (the record as presented before the change) so notifications
 *   can name the changed attributes.
 */
import { EventEmitter } from 'node:events';
import { Store, nowSeconds, type IdPolicy } from './store.js';
import type { Router } from './http.js';
import type { ChoiceId, Choices } from './choices.js';
import type { Fault, FaultDef, PointCtx, PointName, PointValue, SeamName, SeamPoints } from './faults/types.js';

export type { FaultDef, Fault };

export interface Credentials {
  accessToken: string;
  userEmail: string;
  bearerToken: string;
  clientId: string;
  clientSecret: string;
  loginEmail: string;
  loginPassword: string;
}

export interface ReferenceOptions {
  credentials: Credentials;
  /** Names of switched-on faults (REFERENCE_FAULTS). */
  faults: ReadonlySet<string>;
  /** The alternative taken for every open choice (REFERENCE_CHOICES, reference/choices.ts). */
  choices: Choices;
  /**
   * Every API request is answered this much later (REFERENCE_LATENCY_MS): a conformant server
   * across a network, to see how the suite fares against one (npm run bench: the slow-target row).
   */
  latencyMs?: number;
  /**
   * Live mode (REFERENCE_LIVE, REFERENCE_LIVE_SEED; reference/live.ts): other users of the account
   * create, update and delete records, `rate` operations a second, drawn from `seed`.
   */
  live?: { rate: number; seed: number };
}

export type RecordEvent = {
  type: string;
  event: 'new' | 'update' | 'delete';
  record: Record<string, unknown>;
  /** For 'update': the record as presented before the change, when the area gives it. */
  previous?: Record<string, unknown>;
};

/** Ids of new records per `ids.sequence` alternative (seeded fixtures keep their profile ids). */
const ID_POLICIES: Record<Choices['ids.sequence'], IdPolicy> = {
  sequential: { start: 1000, step: 1 },
  // Stryker disable all: the policies of the other alternatives of ids.sequence (the ids' range and sequence: not shown)
  gapped: { start: 7_000_001, step: 7 },
  large: { start: 3_000_000_001, step: 1_001 },
  'per-kind': { start: 1, step: 1, perKind: true },
};

type HookFn = (value: unknown, ctx: unknown, app: App) => unknown;
type SeamFn = (ctx: unknown, next: () => unknown, app: App) => unknown;

// Stryker restore all
export class App {
  readonly store: Store;
  readonly events = new EventEmitter();
  /** Access tokens issued by the OAuth token endpoint (valid as Bearer). */
  readonly issuedTokens = new Set<string>();
  /** Base URL of the API server as clients reach it (for signed upload URLs); set at start. */
  // Stryker disable next-line StringLiteral: equivalent: set when the server starts, before any request
  publicBaseUrl = '';
  private readonly hooks = new Map<string, HookFn[]>();
  private readonly seams = new Map<string, SeamFn[]>();
  private readonly handlings: NonNullable<Fault['handling']>[] = [];

  /** `active`: the switched-on faults with their hooks (the server resolves the names). */
  constructor(
    readonly options: ReferenceOptions,
    // Stryker disable next-line ArrayDeclaration: the faults' hooks are installed only with a fault switched on (below)
    active: readonly Fault[] = [],
  ) {
    this.store = new Store(ID_POLICIES[options.choices['ids.sequence']]);
    // Stryker disable next-line all: Node's warning past ten listeners (a webhook delivery listens per subscription) is a log line, no answer
    this.events.setMaxListeners(0);
    // Stryker disable all: the faults' hooks: run only with a fault switched on (none in a mutation run); the calibration self-tests judge faults
    for (const f of active) {
      for (const [p, fn] of Object.entries(f.at ?? {})) if (fn) this.hooks.set(p, [...(this.hooks.get(p) ?? []), fn as HookFn]);
      for (const [s, fn] of Object.entries(f.seam ?? {})) if (fn) this.seams.set(s, [...(this.seams.get(s) ?? []), fn as SeamFn]);
      if (f.handling) this.handlings.push(f.handling);
    }
  }

  // Stryker restore all
  /** The alternative this server takes for an open choice of the spec. */
  choice<I extends ChoiceId>(id: I): Choices[I] {
    return this.options.choices[id];
  }

  /** A value passed through a named hook point: the identity unless a switched-on fault transforms it. */
  at<P extends PointName>(point: P, value: PointValue<P>, ctx: PointCtx<P>): PointValue<P> {
    const fns = this.hooks.get(point);
    // Stryker disable next-line ConditionalExpression: made true, equivalent with no fault switched on (none in a mutation run)
    if (fns === undefined) return value;
    // Stryker disable all: a hook point's faults: runs only with a fault switched on (none in a mutation run); the calibration self-tests judge the faults
    let v: unknown = value;
    for (const fn of fns) v = fn(v, ctx, this);
    return v as PointValue<P>;
  }

  // Stryker restore all
  /** Runs `next` through a named seam: at once unless a switched-on fault defers or wraps it. */
  seam<S extends SeamName, T>(seam: S, ctx: SeamPoints[S], next: () => T): T | Promise<T> {
    const fns = this.seams.get(seam);
    // Stryker disable next-line ConditionalExpression: made true, equivalent with no fault switched on (none in a mutation run)
    if (fns === undefined) return next();
    // Stryker disable all: a seam's faults: runs only with a fault switched on (none in a mutation run); the calibration self-tests judge the faults
    let run: () => unknown = next;
    for (const fn of fns) {
      const inner = run;
      run = () => fn(ctx, inner, this);
    }
    return run() as T | Promise<T>;
  }

  // Stryker restore all
  /** Runs a request's handler: at once unless a switched-on fault acts around every request. */
  handle<T>(next: () => T | Promise<T>): T | Promise<T> {
    let run = next;
    // Stryker disable all: faults around every request: run only with a fault switched on (none in a mutation run); the calibration self-tests judge faults
    for (const fn of this.handlings) {
      const inner = run;
      run = () => fn(inner, this);
    }
    return run();
  }

  // Stryker restore all
  now(): number {
    // Stryker disable next-line StringLiteral: a fault's hook point's name (scripts/stryker-ignorers.mjs reads app.at, not this.at)
    return this.at('clock.now', nowSeconds(), undefined);
  }

  /** Announces a record change (webhook delivery listens). For 'update', give `previous`. */
  emit(type: string, event: RecordEvent['event'], record: Record<string, unknown>, previous?: Record<string, unknown>): void {
    this.events.emit('record', { type, event, record, previous } satisfies RecordEvent);
  }
}

/** One area of the API: its routes, its seeded fixtures. Its faults live in reference/faults/<area>.ts. */
export interface AreaModule {
  name: string;
  /** Seeds fixtures the spec gives no way to create (ids match reference/profile.json). */
  seed?(app: App): void;
  /** Routes on the API host, relative to /developer_api/v1 unless `root` routes. */
  api?(router: Router, app: App): void;
  /** Routes on the API host outside /developer_api/v1 (e.g. the step-2 upload endpoint). */
  root?(router: Router, app: App): void;
  /** Routes on the authorization host (OAuth). */
  auth?(router: Router, app: App): void;
}
