/**
 * The target configuration: every piece of knowledge about a target lives here, read from the
 * CRM_* environment variables (core/settings.ts lists them) and the JSON target profile,
 * validated with Zod. `parseConfig(env)` is pure (it reads the files the settings name and
 * writes nothing); `loadConfig()` is it for this process, kept.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { TargetProfile } from '../../../contracts/profile.js';
import { RULE_PAGES } from '../../../rules/spec-text.js';
import { ConfigError, readSettingJson } from './config-file.js';
import { loadExpectations, type Expectation } from './expectations.js';
import { suiteFile, suiteHome } from './installed.js';
import { didYouMean, EnvSchema, shownValue, unknownSettings } from './settings.js';

export const ROOT = resolve(__dirname, '../../..');
export const API_PREFIX = '/developer_api/v1';

export { ConfigError } from './config-file.js';

/**
 * Runs of each search property (CRM_FC_RUNS). Three times fast-check's default: a run is one or a
 * few searches, cheap for any server. The upsert model runs half as many command sequences (each
 * up to 25 requests), the bulk property one in 36 runs (bulk calls are limited to 3 per second).
 */
export const DEFAULT_FC_RUNS = 300;

/** CRM_DEPTH: `quick` (a gate on every pull request), `standard` (today's run), `deep` (nightly). */
export type Depth = 'quick' | 'standard' | 'deep';
/**
 * Runs of each search property by depth when CRM_FC_RUNS is not set: `quick` 3, a hundredth
 * (every property still runs: at most 1,000 requests in the whole run, whatever the random page
 * sizes; with 6 the properties sent 218 to 285 requests, once 1,010 in all; with 4, all in flight
 * at once, whole runs sent 942 to 972), `deep` ten times `standard`.
 */
export const FC_RUNS_OF_DEPTH: Record<Depth, number> = { quick: 3, standard: DEFAULT_FC_RUNS, deep: 10 * DEFAULT_FC_RUNS };
/**
 * A quick run's property makes no further run once its runs have sent this many requests (its
 * record set not counted, its first run always made; property-flight.ts, quickBudget): at 20, whole
 * quick runs sent 951 to 997 requests with this release's leads checks.
 */
export const QUICK_PROPERTY_REQUESTS = 10;

export interface TargetConfig {
  /** The suite runs against its own embedded reference server. */
  embedded: boolean;
  baseUrl: string;
  /** `{base_url}/developer_api/v1` */
  apiUrl: string;
  authUrl: string;
  credentials: { accessToken?: string; userEmail?: string; bearerToken?: string };
  oauth: { clientId?: string; clientSecret?: string; loginEmail?: string; loginPassword?: string };
  /** Where the target reaches the suite's own receivers; undefined ⇒ loopback. */
  publicUrl?: string;
  profile: TargetProfile;
  profileSource: string;
  loopback: boolean;
  allowWrites: boolean;
  /** fast-check: seed (CRM_FC_SEED), runs of each property (CRM_FC_RUNS), a counterexample's path to replay (CRM_FC_PATH). */
  fc: { seed?: number; runs: number; path?: string };
  /** CRM_DEPTH (default `standard`): the default of `fc.runs` ({@link FC_RUNS_OF_DEPTH}) and of `heavy` (off in quick, on for the embedded server in deep). */
  depth: Depth;
  heavy: boolean;
  /** Workers of the API lane (CRM_WORKERS, default 2); the bulk and OAuth lanes have one each. */
  workers: number;
  /** SHOULD failures fail the run instead of warning. */
  strict: boolean;
  /** CRM_CERTIFY: a MUST rule not judged makes the run INCONCLUSIVE. */
  certify: boolean;
  /** CRM_REPEATS: `hold` (default) a test failing with only problems an earlier test failed on (core/repeats.ts), or `fail` it like any other. */
  repeats: 'hold' | 'fail';
  /** Short id of this run: every created record carries the tag `crm-conformance-<runId>`. */
  runId: string;
  /** Values that must never reach a report, trace, log or attachment. */
  secrets: string[];
  /** Chromium for the OAuth browser specs (CRM_CHROMIUM_PATH); undefined ⇒ searched at run time. */
  chromiumPath?: string;
  /**
   * The OAuth callback receiver: HTTPS with a self-signed certificate (CRM_CALLBACK_HTTPS=1), and
   * the local port it listens on (CRM_CALLBACK_PORT; with CRM_PUBLIC_URL, else its port).
   */
  callback: { https: boolean; port?: number };
  /** Per-request deadline of the API client (CRM_REQUEST_TIMEOUT_MS, default 15 s). */
  requestTimeoutMs: number;
  /**
   * Longest wait for one webhook notification (CRM_NOTIFICATION_TIMEOUT_MS, default 20 s); shorter
   * only once a wait of the run has lasted it in vain (core/latency.ts).
   */
  notificationTimeoutMs: number;
  /** CRM_NOTIFICATION_TIMEOUT_MS was set: every wait lasts that long, nothing is learned. */
  notificationTimeoutFixed: boolean;
  /** Largest response body the API client reads (CRM_MAX_RESPONSE_BYTES, default 5 MiB). */
  maxResponseBytes: number;
  /** Known-failure baseline (CRM_EXPECTATIONS); empty when unset. */
  expectations: Expectation[];
  /** Entries of the baseline past their expiry date: they count as no entry, and the reports list them. */
  expectationsExpired: Expectation[];
  expectationsSource?: string;
  /** CRM_EXPECTATIONS_STRICT: a baseline entry whose failure no longer happens (stale) fails the run. */
  expectationsStrict: boolean;
  /**
   * Where reports link a rule (rules/spec-text.ts, `ruleLink`): the specification's address
   * (CRM_SPEC_URL), or by default the rule pages the suite carries (docs/conformance/, each rule
   * quoting the spec's sentence), in the installed package or the checkout.
   */
  specUrl: string;
  /**
   * The local ports of the webhook receiver (CRM_RECEIVER_PORT) and of the OAuth callback receiver
   * (CRM_CALLBACK_PORT), with CRM_PUBLIC_URL or on loopback; undefined ⇒ a free port (loopback only).
   */
  receivers: { webhookPort?: number; callbackPort?: number };
}

export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(value)'}: ${i.message}`).join('; ');
}

/** The profile a run finds in its working directory when CRM_PROFILE is not set (what `profile init` writes). */
export const PROFILE_FILE = 'crm-profile.json';

function loadProfile(path: string | undefined, embedded: boolean, declares: string | undefined, cwd: string): { profile: TargetProfile; source: string } {
  const found = !path && !embedded && existsSync(resolve(cwd, PROFILE_FILE)) ? resolve(cwd, PROFILE_FILE) : undefined;
  const file = path ? resolve(cwd, path) : embedded ? resolve(ROOT, 'reference/profile.json') : found;
  if (!file) return { profile: TargetProfile.parse({}), source: `(none: empty profile; no CRM_PROFILE and no ./${PROFILE_FILE})` };
  // The embedded server's own profile, with what its open choices declare (e.g. a raised bulk limit).
  const own = !path && embedded && declares ? (JSON.parse(declares) as { capabilities?: Record<string, unknown> }) : undefined;
  let json = readSettingJson('CRM_PROFILE', file, 'npx crm-conformance profile init drafts one');
  if (own?.capabilities && Object.keys(own.capabilities).length) {
    const base = json as { capabilities?: Record<string, unknown> };
    json = { ...base, capabilities: { ...base.capabilities, ...own.capabilities } };
  }
  const parsed = TargetProfile.safeParse(json);
  if (!parsed.success) throw new ConfigError(`CRM_PROFILE: ${file} does not match the profile schema: ${formatIssues(parsed.error)}`);
  return {
    profile: parsed.data,
    source: found
      ? `${file} (found in the working directory)`
      : own?.capabilities && Object.keys(own.capabilities).length
        ? `${file} with ${JSON.stringify(own.capabilities)} (the reference server's open choices)`
        : file,
  };
}

/** Stops on a CRM_* variable that is no setting of the suite (a misspelt one would be ignored), with "did you mean". */
export function assertKnownSettings(env: NodeJS.ProcessEnv): void {
  const unknown = unknownSettings(env);
  if (!unknown.length) return;
  const lines = unknown.map((k) => {
    const meant = didYouMean(k);
    return `${k} is not a setting of crm-conformance${meant ? ` (did you mean ${meant}?)` : ''}`;
  });
  throw new ConfigError(`${lines.join('; ')}. Every setting: ${suiteFile('docs/configuration.md', ROOT)}.`);
}

/** The API's path, as servers often print it at the end of their base URL: taken off, the suite adds it. */
const API_SUFFIX = /\/developer_api\/v1\/?$/;

/** The first problem of the CRM_* variables, as one message naming the variable (a secret's value is never shown). */
function settingsError(env: NodeJS.ProcessEnv, error: z.ZodError): ConfigError {
  const issue = error.issues[0];
  const name = String(issue.path[0]);
  return new ConfigError(`${name}=${shownValue(name, env[name])}: ${issue.message}`);
}

/**
 * Reads and validates the configuration of `env` (the CRM_* variables; files named by them are
 * read from `cwd`); throws {@link ConfigError}, naming the variable and the fix, on any bad value.
 */
export function parseConfig(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): TargetConfig {
  assertKnownSettings(env);
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('CRM_'))));
  if (!parsed.success) throw settingsError(env, parsed.error);
  const e = parsed.data as Record<string, never> & SettingValues;
  if (!e.CRM_BASE_URL) throw new ConfigError('CRM_BASE_URL is not set and the embedded server was not prepared');
  const baseUrl = e.CRM_BASE_URL.replace(API_SUFFIX, '');
  const embedded = e.CRM_EMBEDDED ?? false;
  const { profile, source } = loadProfile(e.CRM_PROFILE, embedded, e.CRM_EMBEDDED_DECLARES, cwd);
  const baseline = e.CRM_EXPECTATIONS ? loadExpectations(e.CRM_EXPECTATIONS, cwd) : undefined;
  const loopback = isLoopback(baseUrl);
  const allowWrites = loopback || (e.CRM_ALLOW_WRITES ?? false);
  if (!allowWrites) {
    throw new ConfigError(
      `CRM_BASE_URL=${baseUrl} is not a loopback address and CRM_ALLOW_WRITES is not set. ` +
        'The suite creates records (each tagged with the run id and listed in reports/created-records.json). ' +
        'Set CRM_ALLOW_WRITES=1 to allow it on this account.',
    );
  }
  if (!e.CRM_ACCESS_TOKEN && !e.CRM_BEARER_TOKEN) {
    throw new ConfigError('no credentials: set CRM_ACCESS_TOKEN and CRM_USER_EMAIL (header credentials) or CRM_BEARER_TOKEN');
  }
  if (e.CRM_ACCESS_TOKEN && !e.CRM_USER_EMAIL) throw new ConfigError('CRM_ACCESS_TOKEN is set but CRM_USER_EMAIL is not: the header credentials need both');
  const receivers = receiverPorts(e, embedded || !!e.CRM_CLIENT_ID);
  const depth = e.CRM_DEPTH ?? 'standard';
  return {
    embedded,
    baseUrl,
    apiUrl: baseUrl + API_PREFIX,
    authUrl: e.CRM_AUTH_URL ?? baseUrl,
    credentials: { accessToken: e.CRM_ACCESS_TOKEN, userEmail: e.CRM_USER_EMAIL, bearerToken: e.CRM_BEARER_TOKEN },
    oauth: { clientId: e.CRM_CLIENT_ID, clientSecret: e.CRM_CLIENT_SECRET, loginEmail: e.CRM_LOGIN_EMAIL, loginPassword: e.CRM_LOGIN_PASSWORD },
    publicUrl: e.CRM_PUBLIC_URL,
    profile,
    profileSource: source,
    loopback,
    allowWrites,
    fc: { seed: e.CRM_FC_SEED, runs: e.CRM_FC_RUNS ?? FC_RUNS_OF_DEPTH[depth], path: e.CRM_FC_PATH },
    depth,
    // quick: no heavy spec unless CRM_HEAVY=1; deep: the heavy specs where the profile allows them, and on the embedded server.
    heavy: depth === 'quick' ? (e.CRM_HEAVY ?? false) : (e.CRM_HEAVY ?? (depth === 'deep' && embedded)) || profile.capabilities.heavy,
    workers: e.CRM_WORKERS ?? 2,
    strict: e.CRM_STRICT ?? false,
    certify: e.CRM_CERTIFY ?? false,
    repeats: e.CRM_REPEATS ?? 'hold',
    runId: e.CRM_RUN_ID ?? 'local',
    secrets: [e.CRM_ACCESS_TOKEN, e.CRM_BEARER_TOKEN, e.CRM_CLIENT_SECRET, e.CRM_LOGIN_PASSWORD].filter((s): s is string => !!s),
    chromiumPath: e.CRM_CHROMIUM_PATH,
    callback: { https: e.CRM_CALLBACK_HTTPS ?? false, port: receivers.callbackPort },
    receivers,
    requestTimeoutMs: e.CRM_REQUEST_TIMEOUT_MS ?? 15_000,
    notificationTimeoutMs: e.CRM_NOTIFICATION_TIMEOUT_MS ?? 20_000,
    notificationTimeoutFixed: e.CRM_NOTIFICATION_TIMEOUT_MS !== undefined,
    maxResponseBytes: e.CRM_MAX_RESPONSE_BYTES ?? 5 * 1024 * 1024,
    expectations: baseline?.expectations ?? [],
    expectationsExpired: baseline?.expired ?? [],
    expectationsSource: baseline?.source,
    expectationsStrict: e.CRM_EXPECTATIONS_STRICT ?? false,
    specUrl: e.CRM_SPEC_URL ?? `${pathToFileURL(join(suiteHome(ROOT).dir, RULE_PAGES)).href}/`,
  };
}

/** The parsed values of the settings this module reads. */
interface SettingValues {
  CRM_BASE_URL?: string;
  CRM_AUTH_URL?: string;
  CRM_PUBLIC_URL?: string;
  CRM_PROFILE?: string;
  CRM_EXPECTATIONS?: string;
  CRM_EXPECTATIONS_STRICT?: boolean;
  CRM_SPEC_URL?: string;
  CRM_ACCESS_TOKEN?: string;
  CRM_USER_EMAIL?: string;
  CRM_BEARER_TOKEN?: string;
  CRM_CLIENT_ID?: string;
  CRM_CLIENT_SECRET?: string;
  CRM_LOGIN_EMAIL?: string;
  CRM_LOGIN_PASSWORD?: string;
  CRM_CHROMIUM_PATH?: string;
  CRM_ALLOW_WRITES?: boolean;
  CRM_HEAVY?: boolean;
  CRM_DEPTH?: Depth;
  CRM_STRICT?: boolean;
  CRM_CERTIFY?: boolean;
  CRM_EMBEDDED?: boolean;
  CRM_CALLBACK_HTTPS?: boolean;
  CRM_FC_SEED?: number;
  CRM_FC_RUNS?: number;
  CRM_FC_PATH?: string;
  CRM_WORKERS?: number;
  CRM_REPEATS?: 'hold' | 'fail';
  CRM_RUN_ID?: string;
  CRM_RECEIVER_PORT?: number;
  CRM_CALLBACK_PORT?: number;
  CRM_EMBEDDED_DECLARES?: string;
  CRM_REQUEST_TIMEOUT_MS?: number;
  CRM_NOTIFICATION_TIMEOUT_MS?: number;
  CRM_MAX_RESPONSE_BYTES?: number;
}

/**
 * The target reaches two receivers of this machine: the webhook receiver and, when the OAuth
 * handshake runs, the OAuth callback receiver. Under CRM_PUBLIC_URL they listen on CRM_RECEIVER_PORT
 * (else the public URL's port, else 8123) and CRM_CALLBACK_PORT (else the public URL's port); on
 * loopback on those two settings where they are set (a server that registers exact redirect URIs,
 * a firewall), else on free ports (undefined). They cannot share one local port: one would take
 * the other's requests.
 */
function receiverPorts(e: SettingValues, oauth: boolean): TargetConfig['receivers'] {
  const own = e.CRM_PUBLIC_URL ? new URL(e.CRM_PUBLIC_URL).port : '';
  const webhookPort = e.CRM_RECEIVER_PORT ?? (own ? Number(own) : e.CRM_PUBLIC_URL ? 8123 : undefined);
  const callbackPort = e.CRM_CALLBACK_PORT ?? (own ? Number(own) : undefined);
  if (oauth && webhookPort !== undefined && callbackPort === webhookPort) {
    const from = (name: string, set: number | undefined) => (set !== undefined ? `${name}=${set}` : `${name} unset (the port of CRM_PUBLIC_URL)`);
    const where = e.CRM_PUBLIC_URL ? `CRM_PUBLIC_URL=${shownValue('CRM_PUBLIC_URL', e.CRM_PUBLIC_URL)}` : 'on loopback';
    throw new ConfigError(
      `${where}: the webhook receiver (${from('CRM_RECEIVER_PORT', e.CRM_RECEIVER_PORT)}) and the OAuth callback receiver (${from('CRM_CALLBACK_PORT', e.CRM_CALLBACK_PORT)}) would both listen on local port ${webhookPort}. ` +
        (e.CRM_PUBLIC_URL
          ? "Set CRM_RECEIVER_PORT and CRM_CALLBACK_PORT to two different local ports, each forwarded from the target (the callback is reached at CRM_PUBLIC_URL's callback path)."
          : 'Set CRM_RECEIVER_PORT and CRM_CALLBACK_PORT to two different free local ports (or unset either: it then takes a free port).'),
    );
  }
  return { webhookPort, callbackPort };
}

let cached: TargetConfig | undefined;

/** The configuration of this process (its environment), read once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): TargetConfig {
  if (env !== process.env) return parseConfig(env);
  return (cached ??= parseConfig(env));
}

/** Where a target answers: the configured one, or one instance of a run of many (the fault matrix: fixtures/instances.ts). */
export interface Endpoint {
  baseUrl: string;
  authUrl: string;
}

/**
 * Points this process at another instance of the target: CRM_BASE_URL and CRM_AUTH_URL are
 * replaced and the configuration is read again, so that everything derived from the target (the
 * API client, the silence latch, the bulk schedule) follows it. A worker serves one project
 * only: the `instance` option of a project (specs/support/fixtures/test.ts) calls this once, at its start.
 */
export function useEndpoint(endpoint: Endpoint, env: NodeJS.ProcessEnv = process.env): TargetConfig {
  env.CRM_BASE_URL = endpoint.baseUrl;
  env.CRM_AUTH_URL = endpoint.authUrl;
  if (env === process.env) cached = undefined;
  return loadConfig(env);
}

/** Registers a secret discovered at run time (an OAuth code or token) for redaction in this process. */
export function addSecret(value: string): void {
  const cfg = loadConfig();
  if (value && !cfg.secrets.includes(value)) cfg.secrets.push(value);
}

/**
 * Traces, screenshots and videos would record credentials, authorization codes and the typed
 * login password (a trace keeps every page's DOM and every request): the configuration keeps
 * them off, and a command line that turns them on (`--trace on`) stops the run.
 */
export function refuseRecording(argv: readonly string[]): void {
  argv.forEach((arg, i) => {
    const m = /^--trace(?:=(.*))?$/.exec(arg);
    if (!m) return;
    const mode = m[1] ?? argv[i + 1];
    if (mode !== undefined && mode !== 'off') {
      throw new ConfigError(
        `--trace ${mode}: traces would record credentials, authorization codes and the login password typed in the OAuth screens; the suite keeps them off (replay a failure with the curl lines of its report instead)`,
      );
    }
  });
}
