/**
 * The doctor's credential checks: `GET /account` with the header credentials and with the Bearer
 * token. A refusal says whether the e-mail is one of the profile's users (a wrong e-mail) or not
 * (a wrong token); an unreachable target stops the remaining checks.
 */
import { Account, type ApiClient, type ApiResponse, type TargetConfig } from './suite.js';
import { attempt, brief, isError, issues, ok2xx, type Answer, type Checks } from './doctor-checks.js';

/** What the header credentials' answer tells, given the Bearer token's. */
function headerLine(checks: Checks, cfg: TargetConfig, res: ApiResponse, bearerOk: boolean): boolean {
  const c = cfg.credentials;
  if (ok2xx(res)) {
    const parsed = Account.safeParse(res.body);
    checks.add(
      'header credentials',
      parsed.success ? 'ok' : 'warn',
      parsed.success
        ? `GET /account answers ${res.status} with the account of ${c.userEmail} (${(res.body as { name?: string }).name ?? 'unnamed'})`
        : `GET /account answers ${res.status} but not an Account: ${issues(parsed.error)}`,
      'the ACCOUNT tests will fail: see the spec § Account',
    );
    return true;
  }
  const emails = cfg.profile.fixtures.users.map((u) => u.email).filter((e): e is string => !!e);
  const notAUser = emails.length && !emails.some((e) => e.toLowerCase() === c.userEmail?.toLowerCase());
  const hint = notAUser
    ? `CRM_USER_EMAIL=${c.userEmail} is not the e-mail of any user of the profile (${emails.join(', ')}): the e-mail is probably wrong`
    : emails.length
      ? `${c.userEmail} is a user of the profile: the access token is probably wrong${bearerOk ? ' (the Bearer token is accepted, so the target is up)' : ''}`
      : bearerOk
        ? 'the Bearer token is accepted, so the target is up: the access token or the e-mail is wrong'
        : 'the access token or the e-mail is wrong';
  checks.add(
    'header credentials',
    'fail',
    `GET /account with X-SVC-AccessToken, X-SVC-Application: developer_api, X-SVC-UserEmail: ${c.userEmail} answers ${brief(res)}; ${hint}`,
    'set CRM_ACCESS_TOKEN to a valid token and CRM_USER_EMAIL to the e-mail of the user that owns it',
  );
  return false;
}

/** The Bearer token's line (its transport failure is the header credentials' to tell, when they were tried). */
function bearerLine(checks: Checks, cfg: TargetConfig, bearer: Answer | undefined, unreachable: string | undefined): string | undefined {
  if (!bearer) {
    checks.add('Bearer token', 'skip', 'CRM_BEARER_TOKEN is not set: Bearer calls use the token of the OAuth handshake, when the OAuth specs run');
    return unreachable;
  }
  if (isError(bearer)) {
    if (!unreachable) checks.add('target reachable', 'fail', bearer.error, `check CRM_BASE_URL (${cfg.baseUrl})`);
    return unreachable ?? bearer.error;
  }
  const ok = ok2xx(bearer);
  checks.add(
    'Bearer token',
    ok ? 'ok' : 'fail',
    ok ? `GET /account with Authorization: Bearer answers ${bearer.status}` : `GET /account with Authorization: Bearer answers ${brief(bearer)}`,
    'set CRM_BEARER_TOKEN to an access token issued by the OAuth token endpoint, or unset it',
  );
  return unreachable;
}

/**
 * Checks the credentials; the client the target accepts (the header credentials, else the Bearer
 * token), or undefined when it accepts neither or cannot be reached (the remaining checks skip).
 */
export async function checkCredentials(checks: Checks, cfg: TargetConfig, api: ApiClient): Promise<ApiClient | undefined> {
  const c = cfg.credentials;
  const probe = async (auth: 'header' | 'bearer') => attempt(() => api.get('/account', { auth }));
  const bearer = c.bearerToken ? await probe('bearer') : undefined;
  const bearerOk = !!bearer && !isError(bearer) && ok2xx(bearer);
  let headerOk = false;
  let unreachable: string | undefined;
  if (c.accessToken) {
    const res = await probe('header');
    if (isError(res)) {
      unreachable = res.error;
      checks.add('target reachable', 'fail', res.error, `check CRM_BASE_URL (${cfg.baseUrl}): the API answers at ${cfg.apiUrl}`);
    } else headerOk = headerLine(checks, cfg, res, bearerOk);
  } else {
    checks.add('header credentials', 'skip', 'CRM_ACCESS_TOKEN is not set: the header-credential tests skip');
  }
  unreachable = bearerLine(checks, cfg, bearer, unreachable);
  if (unreachable || (!headerOk && !bearerOk)) {
    checks.add('remaining checks', 'skip', 'not run: the target does not accept the credentials');
    return undefined;
  }
  return headerOk ? api : api.with({ auth: 'bearer' });
}
