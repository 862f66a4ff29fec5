/**
 * Runs the reference server alone: `npm run reference`.
 * Environment: REFERENCE_PORT, REFERENCE_AUTH_PORT (empty ⇒ same origin), REFERENCE_AUTH_HOST,
 * REFERENCE_ACCESS_TOKEN, REFERENCE_USER_EMAIL, REFERENCE_BEARER_TOKEN, REFERENCE_CLIENT_ID,
 * REFERENCE_CLIENT_SECRET, REFERENCE_LOGIN_EMAIL, REFERENCE_LOGIN_PASSWORD,
 * REFERENCE_FAULTS=a,b (switchable faults), REFERENCE_VARIANT=1 (variant mode).
 */
import { faultCatalog, startReference } from './server.js';

const env = process.env;
const pick = (name: string, fallback: string) => (env[name] && env[name] !== '' ? env[name]! : fallback);

if (process.argv.includes('--list-faults')) {
  for (const f of faultCatalog()) console.log(`${f.name.padEnd(40)} ${f.rules.join(',').padEnd(24)} ${f.description}`);
  process.exit(0);
}

const credentials = {
  accessToken: pick('REFERENCE_ACCESS_TOKEN', 'reference-access-token'),
  userEmail: pick('REFERENCE_USER_EMAIL', 'integrator@reference.example'),
  bearerToken: pick('REFERENCE_BEARER_TOKEN', 'reference-bearer-token'),
  clientId: pick('REFERENCE_CLIENT_ID', 'reference-client'),
  clientSecret: pick('REFERENCE_CLIENT_SECRET', 'reference-client-secret'),
  loginEmail: pick('REFERENCE_LOGIN_EMAIL', 'owner@reference.example'),
  loginPassword: pick('REFERENCE_LOGIN_PASSWORD', 'reference-password'),
};
const faults = new Set((env.REFERENCE_FAULTS ?? '').split(',').map((s) => s.trim()).filter(Boolean));
const variant = env.REFERENCE_VARIANT === '1';
const authPortRaw = env.REFERENCE_AUTH_PORT;

try {
  const running = await startReference({
    credentials,
    faults,
    variant,
    port: Number(pick('REFERENCE_PORT', '4010')),
    authPort: authPortRaw === undefined ? 4011 : authPortRaw === '' ? undefined : Number(authPortRaw),
    authHost: pick('REFERENCE_AUTH_HOST', 'localhost'),
  });
  const standalone = !env.REFERENCE_ACCESS_TOKEN;
  console.log(`[reference] API      ${running.apiUrl}/developer_api/v1`);
  console.log(`[reference] OAuth    ${running.authUrl}/oauth/authorize`);
  if (faults.size) console.log(`[reference] faults   ${[...faults].join(', ')}`);
  if (variant) console.log('[reference] variant mode');
  if (standalone) {
    // Only the built-in development defaults are printed, never credentials passed in.
    console.log(`[reference] try: curl -H 'X-SVC-AccessToken: ${credentials.accessToken}' -H 'X-SVC-Application: developer_api' -H 'X-SVC-UserEmail: ${credentials.userEmail}' ${running.apiUrl}/developer_api/v1/account`);
  }
  const stop = () => running.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (err) {
  console.error(`[reference] cannot start: ${(err as Error).message}`);
  process.exit(1);
}
