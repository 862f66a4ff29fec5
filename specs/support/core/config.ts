/**
 * The target configuration: every piece of knowledge about a target lives here, read from
 * environment variables and the JSON target profile, validated with Zod at start-up.
 *
 * Loaded by playwright.config.ts in the runner (where, with no CRM_BASE_URL, it picks ports
 * and credentials for the embedded reference server and exports them to the environment the
 * workers inherit) and again by every worker.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { TargetProfile } from '../../../contracts/profile.js';
import { hasRule } from '../../../rules/index.js';
import { ENV as JS_MIRROR_ENV, buildMirror as buildJsMirror } from '../../../scripts/js-mirror.cjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const API_PREFIX = '/developer_api/v1';

/** Raised for a bad configuration value; the message names the variable and what is wrong. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(`crm-conformance configuration error: ${message}`);
    this.name = 'ConfigError';
  }
}

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL' })
  .transform((u) => u.replace(/\/+$/, ''));
const flag = z.enum(['0', '1', 'true', 'false', '']).transform((v) => v === '1' || v === 'true');
const positiveInt = z.string().regex(/^\d+$/, 'must be a whole number').transform(Number);

const Env = z.object({
  CRM_BASE_URL: httpUrl.optional(),
  CRM_AUTH_URL: httpUrl.optional(),
  CRM_ACCESS_TOKEN: z.string().min(1, 'must not be empty').optional(),
  CRM_USER_EMAIL: z.email('must be an e-mail address').optional(),
  CRM_BEARER_TOKEN: z.string().min(1, 'must not be empty').optional(),
  CRM_CLIENT_ID: z.string().min(1).optional(),
  CRM_CLIENT_SECRET: z.string().min(1).optional(),
  CRM_LOGIN_EMAIL: z.string().min(1).optional(),
  CRM_LOGIN_PASSWORD: z.string().min(1).optional(),
  CRM_PUBLIC_URL: httpUrl.optional(),
  CRM_PROFILE: z.string().min(1).optional(),
  CRM_ALLOW_WRITES: flag.optional(),
  CRM_FC_SEED: z.string().regex(/^-?\d+$/, 'must be an integer seed').transform(Number).optional(),
  CRM_FC_RUNS: positiveInt.refine((n) => n >= 1, 'must be at least 1').optional(),
  CRM_FC_PATH: z.string().regex(/^\d+(:\d+)*$/, 'must be a fast-check path such as 12:0:3 (from counterexample.txt)').optional(),
  CRM_HEAVY: flag.optional(),
  CRM_WORKERS: positiveInt.refine((n) => n >= 1 && n <= 64, 'must be a number of workers from 1 to 64').optional(),
  CRM_STRICT: flag.optional(),
  CRM_REPEATS: z.enum(['hold', 'fail'], { error: 'must be hold (a repeat of a failure is held, reported to Playwright as skipped) or fail' }).optional(),
  CRM_RUN_ID: z.string().regex(/^[a-z0-9]{4,16}$/, 'must be 4-16 lower-case letters and digits').optional(),
  CRM_EMBEDDED: flag.optional(),
  // Internal: what the embedded server's open choices make it declare in its profile (JSON; set by playwright.config.ts).
  CRM_EMBEDDED_DECLARES: z.string().optional(),
  CRM_CHROMIUM_PATH: z.string().min(1, 'must name the Chromium executable').refine((p) => existsSync(p), 'file not found').optional(),
  CRM_CALLBACK_HTTPS: flag.optional(),
  CRM_CALLBACK_PORT: positiveInt.refine((n) => n >= 1 && n <= 65535, 'must be a port number (1-65535)').optional(),
  CRM_EXPECTATIONS: z.string().min(1, 'must name a JSON file').optional(),
  CRM_REQUEST_TIMEOUT_MS: positiveInt.refine((n) => n >= 100, 'must be at least 100 (milliseconds)').optional(),
  CRM_NOTIFICATION_TIMEOUT_MS: positiveInt.refine((n) => n >= 100, 'must be at least 100 (milliseconds)').optional(),
  CRM_MAX_RESPONSE_BYTES: positiveInt.refine((n) => n >= 1024, 'must be at least 1024').optional(),
  CRM_COMPILE_CACHE: flag.optional(),
  CRM_ASYNC_STACKS: flag.optional(),
  CRM_PREFORK: flag.optional(),
  CRM_SPEC_URL: z.url({ protocol: /^(https?|file)$/, error: 'must be an http(s):// or file:// URL' }).optional(),
});

/**
 * One entry of the known-failure baseline (CRM_EXPECTATIONS): the tests of a rule, or one test
 * by its full title, are expected to fail; they do not fail the run.
 */
export const Expectation = z
  .strictObject({
    rule: z.string().regex(/^[A-Z]+-\d+$/, 'must be a rule id such as UPSERT-4').optional(),
    title: z.string().min(1, 'must not be empty').optional(),
    reason: z.string().trim().min(1, 'must say why the failure is expected'),
  })
  .refine((e) => (e.rule === undefined) !== (e.title === undefined), 'name either "rule" or "title" (exactly one)');
export type Expectation = z.infer<typeof Expectation>;
const ExpectationList = z.array(Expectation);

/**
 * Runs of each search property (CRM_FC_RUNS). Three times fast-check's default: a run is one or a
 * few searches, cheap for any server. The upsert model runs half as many command sequences (each
 * up to 25 requests), the bulk property one in 36 runs (bulk calls are limited to 3 per second).
 */
export const DEFAULT_FC_RUNS = 300;

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
  heavy: boolean;
  /** Workers of the API lane (CRM_WORKERS, default 2); the bulk and OAuth lanes have one each. */
  workers: number;
  /** SHOULD failures fail the run instead of warning. */
  strict: boolean;
  /** CRM_REPEATS: `hold` (default) a test failing with only problems an earlier test failed on (core/repeats.ts), or `fail` it like any other. */
  repeats: 'hold' | 'fail';
  /** Short id of this run: every created record carries the tag `crm-conformance-<runId>`. */
  runId: string;
  /** Values that must never reach a report, trace, log or attachment. */
  secrets: string[];
  /** Chromium for the OAuth browser specs (CRM_CHROMIUM_PATH); undefined ⇒ searched at run time. */
  chromiumPath?: string;
  /** The OAuth callback receiver: HTTPS with a self-signed certificate (CRM_CALLBACK_HTTPS=1), and the local port it listens on when CRM_PUBLIC_URL is set (CRM_CALLBACK_PORT). */
  callback: { https: boolean; port?: number };
  /** Per-request deadline of the API client (CRM_REQUEST_TIMEOUT_MS, default 15 s). */
  requestTimeoutMs: number;
  /** Longest wait for one webhook notification (CRM_NOTIFICATION_TIMEOUT_MS, default 20 s); shorter only once a wait of the run has lasted it in vain (core/latency.ts). */
  notificationTimeoutMs: number;
  /** CRM_NOTIFICATION_TIMEOUT_MS was set: every wait lasts that long, nothing is learned. */
  notificationTimeoutFixed: boolean;
  /** Largest response body the API client reads (CRM_MAX_RESPONSE_BYTES, default 5 MiB). */
  maxResponseBytes: number;
  /** Known-failure baseline (CRM_EXPECTATIONS); empty when unset. */
  expectations: Expectation[];
  expectationsSource?: string;
  /** Where the specification is published (CRM_SPEC_URL); reports link rule sections to it. */
  specUrl: string;
  /** The workers compile Playwright's and undici's code from a V8 code cache (CRM_COMPILE_CACHE, default on; scripts/compile-cache.cjs). */
  compileCache: boolean;
  /** Stack traces in the workers go on through `await`s to the async callers (CRM_ASYNC_STACKS, default off: fixtures/test.ts). */
  asyncStacks: boolean;
  /** Workers loaded while the runner starts (CRM_PREFORK; unset: for runs of the whole suite, scripts/prefork.cjs). */
  prefork?: boolean;
}

export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(value)'}: ${i.message}`).join('; ');
}

function loadProfile(path: string | undefined, embedded: boolean, declares?: string): { profile: TargetProfile; source: string } {
  const file = path ? resolve(process.cwd(), path) : embedded ? resolve(ROOT, 'reference/profile.json') : undefined;
  if (!file) return { profile: TargetProfile.parse({}), source: '(none: empty profile)' };
  // The embedded server's own profile, with what its open choices declare (e.g. a raised bulk limit).
  const own = !path && embedded && declares ? (JSON.parse(declares) as { capabilities?: Record<string, unknown> }) : undefined;
  if (!existsSync(file)) throw new ConfigError(`CRM_PROFILE: file not found: ${file}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`CRM_PROFILE: ${file} is not valid JSON (${(e as Error).message})`);
  }
  if (own?.capabilities && Object.keys(own.capabilities).length) {
    const base = json as { capabilities?: Record<string, unknown> };
    json = { ...base, capabilities: { ...base.capabilities, ...own.capabilities } };
  }
  const parsed = TargetProfile.safeParse(json);
  if (!parsed.success) throw new ConfigError(`CRM_PROFILE: ${file} does not match the profile schema: ${formatIssues(parsed.error)}`);
  return { profile: parsed.data, source: own?.capabilities && Object.keys(own.capabilities).length ? `${file} with ${JSON.stringify(own.capabilities)} (the reference server's open choices)` : file };
}

/** Reads and validates the known-failure baseline named by CRM_EXPECTATIONS. */
export function loadExpectations(path: string): { expectations: Expectation[]; source: string } {
  const file = resolve(process.cwd(), path);
  if (!existsSync(file)) throw new ConfigError(`CRM_EXPECTATIONS: file not found: ${file}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`CRM_EXPECTATIONS: ${file} is not valid JSON (${(e as Error).message})`);
  }
  const parsed = ExpectationList.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') || '(value)'}: ${i.message}`);
    throw new ConfigError(`CRM_EXPECTATIONS: ${file} is not a list of { "rule" | "title", "reason" }: ${issues.join('; ')}`);
  }
  const unknown = parsed.data.map((e, i) => ({ e, i })).filter(({ e }) => e.rule && !hasRule(e.rule));
  if (unknown.length) throw new ConfigError(`CRM_EXPECTATIONS: ${file}: ${unknown.map(({ e, i }) => `[${i}].rule: unknown rule "${e.rule}"`).join('; ')}`);
  return { expectations: parsed.data, source: file };
}

/**
 * The ports {@link freePorts} chooses from, below Linux's ephemeral range: a run of one target
 * (a few ports) and a run of many (the fault matrix: hundreds) draw from ranges apart, so that a
 * matrix and a run started beside it (as in `npm test`) cannot draw the same port before either
 * has bound it.
 */
const PORT_RANGES = { few: [20_000, 25_999], many: [26_000, 32_767] } as const;
/** The most ports a run of one target asks for. */
const FEW_PORTS = 4;

/**
 * The TCP ports this machine's network namespace has in use (any state), from /proc/net/tcp and
 * /proc/net/tcp6; undefined where those do not exist (not Linux).
 */
function portsInUse(): Set<number> | undefined {
  try {
    const used = new Set<number>();
    for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!existsSync(file)) continue;
      // "  0: 0100007F:511D 00000000:0000 0A …": the local address's port, in hex.
      for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
        const local = line.trim().split(/\s+/)[1];
        if (local) used.add(parseInt(local.slice(local.lastIndexOf(':') + 1), 16));
      }
    }
    return used.size ? used : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds free loopback ports synchronously (the Playwright config is evaluated synchronously).
 * Ports come from 20000-32767, below Linux's ephemeral range, so that the outgoing connections
 * of parallel runs cannot take a port between this check and the server's start. On Linux the
 * ports in use are read from /proc/net; elsewhere a child process binds each candidate (some
 * 90 ms of the run's start-up).
 */
export function freePorts(count: number): number[] {
  const used = portsInUse();
  const range = PORT_RANGES[count <= FEW_PORTS ? 'few' : 'many'];
  if (used && count <= (range[1] - range[0]) / 2) {
    const ports = new Set<number>();
    while (ports.size < count) {
      const p = range[0] + Math.floor(Math.random() * (range[1] - range[0] + 1));
      if (!used.has(p)) ports.add(p);
    }
    return [...ports];
  }
  const script = `const net=require('net');const ps=[];const tryPort=()=>{const p=${range[0]}+Math.floor(Math.random()*${range[1] - range[0] + 1});if(ps.includes(p))return tryPort();const s=net.createServer();s.once('error',tryPort);s.listen(p,'127.0.0.1',()=>{ps.push(p);s.close(()=>{if(ps.length<${count})tryPort();else console.log(ps.join(','))})})};tryPort();`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim().split(',').map(Number);
}

/** Internal: the process id of the run's starter, inherited by its workers (see prepareEmbeddedEnvironment). */
export const RUN_PROCESS_ENV = 'CRM_RUN_PROCESS';

const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

/**
 * Called once in the runner process: with no CRM_BASE_URL, choose ports and fresh
 * credentials for the embedded reference server and export them so workers see the same.
 */
export function prepareEmbeddedEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  env.CRM_RUN_ID ??= randomBytes(4).toString('hex');
  // The process that starts the run (internal): its workers inherit it, so the run's files
  // (core/run-files.ts) are shared by this run's processes only, even when shards or runs with one
  // CRM_RUN_ID run at the same time on one machine.
  env[RUN_PROCESS_ENV] ??= String(process.pid);
  if (env.CRM_BASE_URL && env.CRM_EMBEDDED !== '1') return;
  if (env.CRM_EMBEDDED === '1') return; // already prepared (worker, or config re-evaluated)
  const [api, auth] = freePorts(2);
  env.CRM_EMBEDDED = '1';
  env.CRM_BASE_URL = `http://127.0.0.1:${api}`;
  // A different origin than the API, as the spec allows ({auth_url}).
  env.CRM_AUTH_URL ??= `http://localhost:${auth}`;
  env.CRM_ACCESS_TOKEN ??= token('ref-access');
  env.CRM_USER_EMAIL ??= 'integrator@reference.example';
  env.CRM_BEARER_TOKEN ??= token('ref-bearer');
  env.CRM_CLIENT_ID ??= 'reference-client';
  env.CRM_CLIENT_SECRET ??= token('ref-client-secret');
  env.CRM_LOGIN_EMAIL ??= 'owner@reference.example';
  env.CRM_LOGIN_PASSWORD ??= token('ref-password');
}

/** The V8 code cache of the workers' packages (scripts/compile-cache.cjs). */
export const COMPILE_CACHE = resolve(ROOT, 'scripts/compile-cache.cjs');

/**
 * Called in the runner: its workers, which inherit NODE_OPTIONS, load the code cache first (some
 * 0.2 s less CPU each to start, and less to compile as they run); the runner itself has loaded most
 * of its code by now, and uses the cache for the rest. On Node 20 the workers also load the suite
 * compiled to JavaScript ({@link useJsMirror}). With CRM_COMPILE_CACHE=0 neither: the option is
 * taken out of NODE_OPTIONS, should the run have inherited it.
 */
export async function useCompileCache(cfg: TargetConfig, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const option = `--require=${JSON.stringify(COMPILE_CACHE)}`;
  const others = (env.NODE_OPTIONS ?? '').split(option).map((s) => s.trim()).filter(Boolean).join(' ');
  if (!cfg.compileCache || !existsSync(COMPILE_CACHE)) {
    if (env.NODE_OPTIONS?.includes(option)) env.NODE_OPTIONS = others;
    dropJsMirror(env);
    return;
  }
  env.NODE_OPTIONS = [others, option].filter(Boolean).join(' ');
  if (env !== process.env) return;
  createRequire(import.meta.url)(COMPILE_CACHE);
  // The configuration is loaded by every worker too; the runner alone keeps the mirror.
  if (env.TEST_WORKER_INDEX === undefined) await useJsMirror(env);
}

/**
 * On Node 20, where the code cache routes Playwright's `import()` through itself, the workers
 * start without Playwright's module-loader thread (PW_DISABLE_TS_ESM=1) and load the suite's
 * TypeScript compiled to JavaScript, which the runner keeps up to date here (scripts/js-mirror.cjs):
 * the first test begins some 0.2 s sooner and a run takes 1-2 s less CPU. Where that cannot be
 * (Node 22 has in-thread loader hooks; esbuild missing; the mirror not writable), the workers load
 * the TypeScript through Playwright's loader, as the runner does.
 */
async function useJsMirror(env: NodeJS.ProcessEnv): Promise<void> {
  const fallBack = (why: string) => {
    dropJsMirror(env);
    console.error(`[crm-conformance] the workers load the TypeScript through Playwright's loader (the JavaScript mirror failed: ${why})`);
  };
  // PW_DISABLE_TS_ESM set by the user (not with a mirror of ours): their choice, left alone.
  if (env.PW_DISABLE_TS_ESM && env[JS_MIRROR_ENV] === undefined) return;
  // Node 22 and later: Node's own compile cache, Playwright's in-thread hooks, no mirror needed.
  if ('enableCompileCache' in Module) return dropJsMirror(env);
  // On Node 20 the hook routes Playwright's import() (scripts/compile-cache.cjs); without it no mirror can be loaded.
  if (typeof (globalThis as { __crmConformanceImport?: unknown }).__crmConformanceImport !== 'function') return fallBack('the compile cache hook is not in place');
  try {
    const { root, dir } = await buildJsMirror(ROOT);
    env[JS_MIRROR_ENV] = JSON.stringify({ root, dir });
    env.PW_DISABLE_TS_ESM = '1';
  } catch (err) {
    fallBack(String((err as Error)?.message ?? err).split('\n')[0]);
  }
}

/** Takes a mirror of ours out of the environment (an inherited one included). */
function dropJsMirror(env: NodeJS.ProcessEnv): void {
  if (env[JS_MIRROR_ENV] === undefined) return;
  delete env[JS_MIRROR_ENV];
  delete env.PW_DISABLE_TS_ESM;
}

/** Environment for the embedded reference server process (what it must accept). */
export function referenceServerEnv(cfg: TargetConfig): Record<string, string> {
  const api = new URL(cfg.baseUrl);
  const auth = new URL(cfg.authUrl);
  return {
    REFERENCE_PORT: api.port,
    REFERENCE_AUTH_PORT: auth.origin === api.origin ? '' : auth.port,
    REFERENCE_AUTH_HOST: auth.hostname,
    REFERENCE_ACCESS_TOKEN: cfg.credentials.accessToken ?? '',
    REFERENCE_USER_EMAIL: cfg.credentials.userEmail ?? '',
    REFERENCE_BEARER_TOKEN: cfg.credentials.bearerToken ?? '',
    REFERENCE_CLIENT_ID: cfg.oauth.clientId ?? '',
    REFERENCE_CLIENT_SECRET: cfg.oauth.clientSecret ?? '',
    REFERENCE_LOGIN_EMAIL: cfg.oauth.loginEmail ?? '',
    REFERENCE_LOGIN_PASSWORD: cfg.oauth.loginPassword ?? '',
  };
}

let cached: TargetConfig | undefined;

/** Reads and validates the configuration; throws {@link ConfigError} on any bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): TargetConfig {
  if (cached && env === process.env) return cached;
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('CRM_'))));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    const shown = name.includes('TOKEN') || name.includes('SECRET') || name.includes('PASSWORD') ? '(hidden)' : JSON.stringify(env[name]);
    throw new ConfigError(`${name}=${shown}: ${issue.message}`);
  }
  const e = parsed.data;
  if (!e.CRM_BASE_URL) throw new ConfigError('CRM_BASE_URL is not set and the embedded server was not prepared');
  const embedded = e.CRM_EMBEDDED ?? false;
  const { profile, source } = loadProfile(e.CRM_PROFILE, embedded, e.CRM_EMBEDDED_DECLARES);
  const baseline = e.CRM_EXPECTATIONS ? loadExpectations(e.CRM_EXPECTATIONS) : undefined;
  const loopback = isLoopback(e.CRM_BASE_URL);
  const allowWrites = loopback || (e.CRM_ALLOW_WRITES ?? false);
  if (!allowWrites) {
    throw new ConfigError(
      `CRM_BASE_URL=${e.CRM_BASE_URL} is not a loopback address and CRM_ALLOW_WRITES is not set. ` +
        'The suite creates records (each tagged with the run id and listed in reports/created-records.json). ' +
        'Set CRM_ALLOW_WRITES=1 to allow it on this account.',
    );
  }
  if (!e.CRM_ACCESS_TOKEN && !e.CRM_BEARER_TOKEN) {
    throw new ConfigError('no credentials: set CRM_ACCESS_TOKEN and CRM_USER_EMAIL (header credentials) or CRM_BEARER_TOKEN');
  }
  if (e.CRM_ACCESS_TOKEN && !e.CRM_USER_EMAIL) throw new ConfigError('CRM_ACCESS_TOKEN is set but CRM_USER_EMAIL is not: the header credentials need both');
  const cfg: TargetConfig = {
    embedded,
    baseUrl: e.CRM_BASE_URL,
    apiUrl: e.CRM_BASE_URL + API_PREFIX,
    authUrl: e.CRM_AUTH_URL ?? e.CRM_BASE_URL,
    credentials: { accessToken: e.CRM_ACCESS_TOKEN, userEmail: e.CRM_USER_EMAIL, bearerToken: e.CRM_BEARER_TOKEN },
    oauth: { clientId: e.CRM_CLIENT_ID, clientSecret: e.CRM_CLIENT_SECRET, loginEmail: e.CRM_LOGIN_EMAIL, loginPassword: e.CRM_LOGIN_PASSWORD },
    publicUrl: e.CRM_PUBLIC_URL,
    profile,
    profileSource: source,
    loopback,
    allowWrites,
    fc: { seed: e.CRM_FC_SEED, runs: e.CRM_FC_RUNS ?? DEFAULT_FC_RUNS, path: e.CRM_FC_PATH },
    heavy: (e.CRM_HEAVY ?? false) || profile.capabilities.heavy,
    workers: e.CRM_WORKERS ?? 2,
    strict: e.CRM_STRICT ?? false,
    repeats: e.CRM_REPEATS ?? 'hold',
    runId: e.CRM_RUN_ID ?? 'local',
    secrets: [e.CRM_ACCESS_TOKEN, e.CRM_BEARER_TOKEN, e.CRM_CLIENT_SECRET, e.CRM_LOGIN_PASSWORD].filter((s): s is string => !!s),
    chromiumPath: e.CRM_CHROMIUM_PATH,
    callback: { https: e.CRM_CALLBACK_HTTPS ?? false, port: e.CRM_CALLBACK_PORT },
    requestTimeoutMs: e.CRM_REQUEST_TIMEOUT_MS ?? 15_000,
    notificationTimeoutMs: e.CRM_NOTIFICATION_TIMEOUT_MS ?? 20_000,
    notificationTimeoutFixed: e.CRM_NOTIFICATION_TIMEOUT_MS !== undefined,
    maxResponseBytes: e.CRM_MAX_RESPONSE_BYTES ?? 5 * 1024 * 1024,
    expectations: baseline?.expectations ?? [],
    expectationsSource: baseline?.source,
    specUrl: e.CRM_SPEC_URL ?? pathToFileURL(resolve(ROOT, '../shared/spec/crm-developer-api.md')).href,
    compileCache: e.CRM_COMPILE_CACHE ?? true,
    asyncStacks: e.CRM_ASYNC_STACKS ?? false,
    prefork: e.CRM_PREFORK,
  };
  if (env === process.env) cached = cfg;
  return cfg;
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
      throw new ConfigError(`--trace ${mode}: traces would record credentials, authorization codes and the login password typed in the OAuth screens; the suite keeps them off (replay a failure with the curl lines of its report instead)`);
    }
  });
}
