/**
 * What every area module of the reference server gets: the store, the options (credentials,
 * faults, variant mode), events for webhooks, and helpers shared by the areas.
 */
import { EventEmitter } from 'node:events';
import { Store, nowSeconds } from './store.js';
import type { Router } from './http.js';

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
  /**
   * Variant mode (REFERENCE_VARIANT=1): a conformant server that makes every choice the spec
   * leaves open differently from the default mode (ids, ties, error bodies, extra fields …).
   */
  variant: boolean;
}

/** A switchable fault: a small realistic bug breaking the named rules. */
export interface FaultDef {
  name: string;
  rules: string[];
  description: string;
}

export type RecordEvent = { type: string; event: 'new' | 'update' | 'delete'; record: Record<string, unknown> };

export class App {
  readonly store: Store;
  readonly events = new EventEmitter();
  /** Access tokens issued by the OAuth token endpoint (valid as Bearer). */
  readonly issuedTokens = new Set<string>();
  /** Base URL of the API server as clients reach it (for signed upload URLs); set at start. */
  publicBaseUrl = '';
  constructor(readonly options: ReferenceOptions) {
    this.store = new Store(options.variant ? { start: 7_000_001, step: 7 } : { start: 1000, step: 1 });
    this.events.setMaxListeners(0);
  }
  /** Is this fault switched on? */
  fault(name: string): boolean {
    return this.options.faults.has(name);
  }
  get variant(): boolean {
    return this.options.variant;
  }
  now(): number {
    return this.fault('timestamps-in-ms') ? Date.now() : nowSeconds();
  }
  /** Announces a record change (webhook delivery listens). */
  emit(type: string, event: RecordEvent['event'], record: Record<string, unknown>): void {
    this.events.emit('record', { type, event, record } satisfies RecordEvent);
  }
}

/** One area of the API: its routes, its seeded fixtures, its faults. */
export interface AreaModule {
  name: string;
  faults?: FaultDef[];
  /** Seeds fixtures the spec gives no way to create (ids match reference/profile.json). */
  seed?(app: App): void;
  /** Routes on the API host, relative to /developer_api/v1 unless `root` routes. */
  api?(router: Router, app: App): void;
  /** Routes on the API host outside /developer_api/v1 (e.g. the step-2 upload endpoint). */
  root?(router: Router, app: App): void;
  /** Routes on the authorization host (OAuth). */
  auth?(router: Router, app: App): void;
}
