/**
 * The reference server as a user starts it (`npm run reference`, `crm-conformance reference`):
 * a process of its own on free ports, and the set-up (CRM_* variables) of a user of it. For the
 * self-tests of the command-line tool (doctor.test.ts, package.test.ts) and the benchmark's doctor row.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePorts } from '../specs/support/core/embedded.js';

/** Starts the reference server alone; resolves once it prints its URLs. */
export async function startReferenceProcess(
  command: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  ports: [number, number] = freePorts(2) as [number, number],
): Promise<{ child: ChildProcess; api: string; auth: string; stop: () => Promise<void>; ports: [number, number] }> {
  const [apiPort, authPort] = ports;
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env: { ...env, REFERENCE_PORT: String(apiPort), REFERENCE_AUTH_PORT: String(authPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((ok, ko) => {
    const timer = setTimeout(() => ko(new Error(`reference server did not start within 30 s: ${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      if (/\[reference\] OAuth/.test(out)) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      ko(new Error(`reference server exited (${code}): ${out}`));
    });
  });
  child.removeAllListeners('exit');
  const stop = () =>
    new Promise<void>((ok) => {
      if (child.exitCode !== null) return ok();
      child.once('exit', () => ok());
      child.kill('SIGTERM');
    });
  return { child, api: `http://127.0.0.1:${apiPort}`, auth: `http://localhost:${authPort}`, stop, ports };
}

/** The set-up of a user of the reference server (its standalone defaults). */
export function referenceEnv(api: string, auth: string, profile: string): Record<string, string> {
  return {
    CRM_BASE_URL: api,
    CRM_AUTH_URL: auth,
    CRM_ACCESS_TOKEN: 'reference-access-token',
    CRM_USER_EMAIL: 'integrator@reference.example',
    CRM_BEARER_TOKEN: 'reference-bearer-token',
    CRM_CLIENT_ID: 'reference-client',
    CRM_CLIENT_SECRET: 'reference-client-secret',
    CRM_LOGIN_EMAIL: 'owner@reference.example',
    CRM_LOGIN_PASSWORD: 'reference-password',
    CRM_PROFILE: profile,
  };
}
