/**
 * Many reference servers in one process: the fault matrix (scripts/calibrate.ts --matrix) runs
 * every fault's instance side by side, each an App of its own (own store, own switched-on
 * faults, own OAuth codes and tokens, own bulk window) on its own API and authorization ports.
 * Instances share nothing but the process: the reference keeps no module-level mutable state
 * (per-server state lives in the App or in WeakMaps keyed by it).
 *
 * Environment: the credentials of reference/main.ts (reference/env.ts), REFERENCE_CHOICES /
 * REFERENCE_VARIANT for every instance, REFERENCE_LIVE / REFERENCE_LIVE_SEED (live mode, each
 * instance its own, at the same rate and seed), and REFERENCE_INSTANCES, a JSON list of
 * `{ "name": "…", "faults": ["…"], "port": 20001, "authPort": 20002 }`.
 * Prints `[reference] API <n> instances` once every instance listens.
 */
import { parseChoices } from './choices.js';
import { referenceCredentials, referenceLive } from './env.js';
import { describeLive } from './live.js';
import { startReference, type RunningReference } from './server.js';

export interface Instance {
  /** Label (the fault's name); also the Playwright project that tests the instance. */
  name: string;
  faults: string[];
  port: number;
  authPort: number;
}

export const INSTANCES_ENV = 'REFERENCE_INSTANCES';

const env = process.env;
/** Starts every instance; they run until SIGTERM or SIGINT. */
async function main(): Promise<void> {
  const running: RunningReference[] = [];
  try {
    const instances = JSON.parse(env[INSTANCES_ENV] ?? '[]') as Instance[];
    if (!instances.length) throw new Error(`${INSTANCES_ENV} lists no instance`);
    const credentials = referenceCredentials(env);
    const choices = parseChoices(env.REFERENCE_CHOICES, env.REFERENCE_VARIANT === '1');
    const authHost = env.REFERENCE_AUTH_HOST || 'localhost';
    const live = referenceLive(env);
    for (const i of instances) {
      running.push(await startReference({ credentials, faults: new Set(i.faults), choices, port: i.port, authPort: i.authPort, authHost, live }));
    }
    if (live) {
      console.log(describeLive(live));
      console.error(describeLive(live));
    }
    console.log(`[reference] API      ${instances.length} instances, ${running[0].apiUrl} … ${running.at(-1)!.apiUrl}`);
  } catch (err) {
    console.error(`[reference] cannot start the instances: ${(err as Error).message}`);
    await Promise.all(running.map((r) => r.close()));
    process.exit(1);
  }
  const stop = () => Promise.all(running.map((r) => r.close())).then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
