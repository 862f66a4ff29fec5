/**
 * The reference server's settings from its environment.
 * - The credentials it accepts (REFERENCE_ACCESS_TOKEN, REFERENCE_USER_EMAIL, REFERENCE_BEARER_TOKEN,
 *   REFERENCE_CLIENT_ID, REFERENCE_CLIENT_SECRET, REFERENCE_LOGIN_EMAIL, REFERENCE_LOGIN_PASSWORD);
 *   unset or empty ⇒ the development defaults.
 * - Live mode (REFERENCE_LIVE, REFERENCE_LIVE_SEED; reference/live.ts).
 */
import { randomInt } from 'node:crypto';
import type { ReferenceOptions } from './app.js';

export function referenceCredentials(env: NodeJS.ProcessEnv = process.env): ReferenceOptions['credentials'] {
  const pick = (name: string, fallback: string) => (env[name] && env[name] !== '' ? env[name]! : fallback);
  return {
    accessToken: pick('REFERENCE_ACCESS_TOKEN', 'reference-access-token'),
    userEmail: pick('REFERENCE_USER_EMAIL', 'integrator@reference.example'),
    bearerToken: pick('REFERENCE_BEARER_TOKEN', 'reference-bearer-token'),
    clientId: pick('REFERENCE_CLIENT_ID', 'reference-client'),
    clientSecret: pick('REFERENCE_CLIENT_SECRET', 'reference-client-secret'),
    loginEmail: pick('REFERENCE_LOGIN_EMAIL', 'owner@reference.example'),
    loginPassword: pick('REFERENCE_LOGIN_PASSWORD', 'reference-password'),
  };
}

/** The most operations a second live mode takes: beyond it, other users' work would take the server's CPU from the suite. */
export const LIVE_MAX_RATE = 10_000;
const SEED_MAX = 2 ** 32 - 1;

/**
 * Live mode: REFERENCE_LIVE, operations a second by other users of the account (a number above 0;
 * unset, empty or 0 ⇒ off), and REFERENCE_LIVE_SEED, the seed of their random operations (a whole
 * number; unset or empty ⇒ a random one). A bad value throws a one-line message naming the variable.
 */
export function referenceLive(env: NodeJS.ProcessEnv = process.env): ReferenceOptions['live'] {
  const raw = (env.REFERENCE_LIVE ?? '').trim();
  if (raw === '') return undefined;
  const rate = Number(raw);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(raw) || rate > LIVE_MAX_RATE) {
    throw new Error(
      `REFERENCE_LIVE=${JSON.stringify(env.REFERENCE_LIVE)}: live mode takes the operations a second by other users of the account, ` +
        `a number above 0 and at most ${LIVE_MAX_RATE} (e.g. 20 or 200); unset, empty or 0 for off`,
    );
  }
  if (rate === 0) return undefined;
  const seedRaw = (env.REFERENCE_LIVE_SEED ?? '').trim();
  if (seedRaw !== '' && (!/^\d+$/.test(seedRaw) || Number(seedRaw) > SEED_MAX)) {
    throw new Error(
      `REFERENCE_LIVE_SEED=${JSON.stringify(env.REFERENCE_LIVE_SEED)}: the seed of live mode's operations, a whole number from 0 to ${SEED_MAX}; unset or empty for a random one`,
    );
  }
  return { rate, seed: seedRaw === '' ? randomInt(0, 2 ** 31) : Number(seedRaw) };
}
