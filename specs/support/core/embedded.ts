/**
 * The embedded reference server's side of the configuration: free ports and fresh credentials
 * chosen once in the runner (with no CRM_BASE_URL), and the environment the server process gets.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError, type TargetConfig } from './config.js';

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

/** Settings that describe a server of the user's: with none of them and no CRM_BASE_URL, the embedded server is meant. */
const TARGET_SETTINGS = [
  'CRM_PROFILE',
  'CRM_AUTH_URL',
  'CRM_ALLOW_WRITES',
  'CRM_ACCESS_TOKEN',
  'CRM_USER_EMAIL',
  'CRM_BEARER_TOKEN',
  'CRM_CLIENT_ID',
  'CRM_CLIENT_SECRET',
  'CRM_LOGIN_EMAIL',
  'CRM_LOGIN_PASSWORD',
];

/**
 * Called once in the runner process: with no CRM_BASE_URL, choose ports and fresh credentials
 * for the embedded reference server and export them so workers see the same. Settings of a
 * server of the user's without CRM_BASE_URL stop the run (a forgotten or misspelt CRM_BASE_URL
 * must not test the embedded server with the user's profile); CRM_EMBEDDED=1 asks for the
 * embedded server with them on purpose.
 */
export function prepareEmbeddedEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  env.CRM_RUN_ID ??= randomBytes(4).toString('hex');
  // The process that starts the run (internal): its workers inherit it, so the run's files
  // (core/run-files.ts) are shared by this run's processes only, even when shards or runs with one
  // CRM_RUN_ID run at the same time on one machine.
  env[RUN_PROCESS_ENV] ??= String(process.pid);
  if (env.CRM_BASE_URL) return; // a target of the user's, or the embedded server already prepared (a worker)
  const meant = env.CRM_EMBEDDED === '1' || env.CRM_EMBEDDED === 'true';
  const theirs = TARGET_SETTINGS.filter((k) => env[k] !== undefined && env[k] !== '');
  if (!meant && theirs.length) {
    throw new ConfigError(
      `CRM_BASE_URL is not set, so this run would test the suite's own embedded reference server, but ${theirs.join(', ')} ${theirs.length > 1 ? 'describe' : 'describes'} a server of yours. ` +
        "Set CRM_BASE_URL to your server's base URL (check its spelling); or, to run the embedded server with these values on purpose, set CRM_EMBEDDED=1.",
    );
  }
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

/** The latency the embedded server adds to every answer (REFERENCE_LATENCY_MS: the bench's far targets), in ms; 0 without. */
export const embeddedLatencyMs = (env: NodeJS.ProcessEnv): number => Math.max(0, Number(env.REFERENCE_LATENCY_MS) || 0);

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
