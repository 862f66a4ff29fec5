/**
 * The credentials the reference server accepts, from its environment (REFERENCE_ACCESS_TOKEN,
 * REFERENCE_USER_EMAIL, REFERENCE_BEARER_TOKEN, REFERENCE_CLIENT_ID, REFERENCE_CLIENT_SECRET,
 * REFERENCE_LOGIN_EMAIL, REFERENCE_LOGIN_PASSWORD); unset or empty ⇒ the development defaults.
 */
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
