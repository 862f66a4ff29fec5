/**
 * Runs the reference server alone: `npm run reference`.
 * Environment: REFERENCE_PORT, REFERENCE_AUTH_PORT (empty ⇒ same origin), REFERENCE_AUTH_HOST,
 * REFERENCE_ACCESS_TOKEN, REFERENCE_USER_EMAIL, REFERENCE_BEARER_TOKEN, REFERENCE_CLIENT_ID,
 * REFERENCE_CLIENT_SECRET, REFERENCE_LOGIN_EMAIL, REFERENCE_LOGIN_PASSWORD,
 * REFERENCE_FAULTS=a,b (switchable faults), REFERENCE_CHOICES (the alternatives taken for the
 * spec's open choices: default, variant, alt:<k>, <seed>, <id>=<alternative>; reference/choices.ts),
 * REFERENCE_VARIANT=1 (the variant set, as REFERENCE_CHOICES=variant),
 * REFERENCE_LATENCY_MS (every API request answered this much later: a server across a network),
 * REFERENCE_LIVE=<operations a second> (live mode, reference/live.ts: other users of the account
 * create, update and delete records meanwhile, e.g. 20 or 200; unset, empty or 0 ⇒ off) and
 * REFERENCE_LIVE_SEED (the seed of their operations; unset ⇒ a random one).
 * At start it prints the choices taken as one replayable line:
 *   [reference] choices  REFERENCE_CHOICES=webhook.payload=ids-only,…  (from "alt:2")
 * and, in live mode, the line that replays its operations (on stdout and stderr):
 *   [reference] live     200 operations a second by other users (REFERENCE_LIVE_SEED=12345)
 */
import { faultCatalog, startReference } from './server.js';
import { describeLive } from './live.js';
import { describeChoices, parseChoices } from './choices.js';
import { referenceCredentials, referenceLive } from './env.js';

const env = process.env;
const pick = (name: string, fallback: string) => (env[name] && env[name] !== '' ? env[name]! : fallback);

if (process.argv.includes('--list-faults')) {
  for (const f of faultCatalog()) console.log(`${f.name.padEnd(40)} ${f.rules.join(',').padEnd(24)} ${f.description}`);
  process.exit(0);
}

const credentials = referenceCredentials(env);
const faults = new Set(
  (env.REFERENCE_FAULTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const authPortRaw = env.REFERENCE_AUTH_PORT;

/** Starts the server; it runs until SIGTERM or SIGINT. */
async function main(): Promise<void> {
  try {
    const choices = parseChoices(env.REFERENCE_CHOICES, env.REFERENCE_VARIANT === '1');
    const live = referenceLive(env);
    const running = await startReference({
      credentials,
      faults,
      choices,
      port: Number(pick('REFERENCE_PORT', '4010')),
      authPort: authPortRaw === undefined ? 4011 : authPortRaw === '' ? undefined : Number(authPortRaw),
      authHost: pick('REFERENCE_AUTH_HOST', 'localhost'),
      latencyMs: Number(env.REFERENCE_LATENCY_MS) || 0,
      live,
    });
    const standalone = !env.REFERENCE_ACCESS_TOKEN;
    console.log(`[reference] API      ${running.apiUrl}/developer_api/v1`);
    console.log(`[reference] OAuth    ${running.authUrl}/oauth/authorize`);
    if (faults.size) console.log(`[reference] faults   ${[...faults].join(', ')}`);
    if (Number(env.REFERENCE_LATENCY_MS) > 0) console.log(`[reference] latency  ${Number(env.REFERENCE_LATENCY_MS)} ms added to every API request`);
    const asked = [env.REFERENCE_VARIANT === '1' ? 'REFERENCE_VARIANT=1' : '', env.REFERENCE_CHOICES ? `REFERENCE_CHOICES=${env.REFERENCE_CHOICES}` : '']
      .filter(Boolean)
      .join(' ');
    const line = `[reference] choices  REFERENCE_CHOICES=${describeChoices(choices)}${asked ? `  (from ${asked})` : ''}`;
    console.log(line);
    // Also on stderr when not the default, so that a Playwright run (which shows the server's
    // stderr only) prints the line that replays it.
    if (asked) console.error(line);
    if (live) {
      const liveLine = describeLive(live);
      console.log(liveLine);
      console.error(liveLine);
    }
    if (standalone) {
      // Only the built-in development defaults are printed, never credentials passed in.
      console.log(
        `[reference] try: curl -H 'X-SVC-AccessToken: ${credentials.accessToken}' -H 'X-SVC-Application: developer_api' -H 'X-SVC-UserEmail: ${credentials.userEmail}' ${running.apiUrl}/developer_api/v1/account`,
      );
    }
    const stop = () => running.close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  } catch (err) {
    console.error(`[reference] cannot start: ${(err as Error).message}`);
    process.exit(1);
  }
}

void main();
