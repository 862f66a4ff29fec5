/**
 * The doctor's OAuth checks, with CRM_CLIENT_ID: the authorization page answers for the
 * redirect_uri the run's OAuth specs will send (its callback receiver's, on the port the run takes:
 * CRM_CALLBACK_PORT, the port CRM_PUBLIC_URL forwards to, or a free one), the login as the OAuth
 * specs do it (in Chromium, with a callback receiver where the run's listens, up to the consent
 * screen: FAIL when the suite cannot log in), the consent screen's texts of the profile, and the
 * browser the OAuth specs would use.
 */
import { callbackOptions, freePorts, receiverUrlOf, redirectUriOf, tryOAuthLogin, type ApiClient, type ApiResponse, type TargetConfig } from './suite.js';
import { accepted, attempt, brief, isError, type Answer, type Checks } from './doctor-checks.js';
import { addFix } from './profile-fields.js';

/** The run's callback: where its receiver listens, the redirect_uri it sends, and whether its port is a free one of each run. */
interface RunCallback {
  receiver: Exclude<ReturnType<typeof callbackOptions>, { reason: string }> & { port: number };
  redirect: string;
  authorizeUrl: (receiverUrl: string) => string;
  freePort: boolean;
}

/** The callback the run will use; a free port (the run's without CRM_CALLBACK_PORT) is chosen here, as the run chooses one. */
function runCallback(cfg: TargetConfig): RunCallback | { reason: string } {
  const options = callbackOptions(cfg);
  if ('reason' in options) return options;
  const receiver = { ...options, port: options.port ?? freePorts(1)[0] };
  const redirect = redirectUriOf(cfg, receiverUrlOf(receiver, receiver.port));
  const params = (receiverUrl: string) => ({
    response_type: 'code',
    client_id: cfg.oauth.clientId!,
    redirect_uri: redirectUriOf(cfg, receiverUrl),
    scope: 'developer/v1/all',
    state: 'crm-conformance-doctor',
  });
  return {
    receiver,
    redirect,
    authorizeUrl: (receiverUrl) => `${cfg.authUrl}/oauth/authorize?${new URLSearchParams(params(receiverUrl))}`,
    // A free port matters where the redirect URI carries it (`{public}` on loopback), not for an absolute one.
    freePort: options.port === undefined && redirect.includes(receiverUrlOf(receiver, receiver.port)),
  };
}

/** The authorization request with the run's redirect_uri, its redirects followed: whether it answers 2xx. */
async function pagesLine(checks: Checks, cfg: TargetConfig, api: ApiClient, callback: RunCallback): Promise<boolean> {
  const { redirect, receiver } = callback;
  let url = callback.authorizeUrl(receiverUrlOf(receiver, receiver.port));
  const raw = api.with({ auth: 'none' });
  let res: Answer = { error: 'no request' };
  for (let hop = 0; hop < 5; hop++) {
    res = await attempt(() => raw.get(url));
    if (isError(res) || res.status < 300 || res.status >= 400 || !res.headers.location) break;
    url = new URL(res.headers.location, url).href;
  }
  const sent = callback.freePort
    ? `redirect_uri ${redirect}: the run's, on a free port that changes from run to run (CRM_CALLBACK_PORT fixes it)`
    : `redirect_uri ${redirect}: the run's`;
  const fix = callback.freePort
    ? `let client ${cfg.oauth.clientId} accept a loopback redirect_uri on any port (RFC 8252 § 7.3), or set CRM_CALLBACK_PORT=${receiver.port} and register ${redirect}; and check CRM_CLIENT_ID`
    : `register ${redirect} for client ${cfg.oauth.clientId} (the redirect_uri the run sends: profile oauth.redirect_uris, {public} = CRM_PUBLIC_URL, else the callback receiver on loopback at CRM_CALLBACK_PORT) and check CRM_CLIENT_ID`;
  if (isError(res))
    checks.add(
      'OAuth pages',
      'fail',
      `GET ${cfg.authUrl}/oauth/authorize: ${res.error}`,
      'check CRM_AUTH_URL (the authorization host; defaults to CRM_BASE_URL)',
    );
  else if (!accepted(res)) checks.add('OAuth pages', 'fail', `GET ${cfg.authUrl}/oauth/authorize (${sent}) answers ${brief(res)}`, fix);
  else checks.add('OAuth pages', 'ok', `GET ${cfg.authUrl}/oauth/authorize (${sent}) answers ${(res as ApiResponse).status}`);
  return accepted(res);
}

/** The settings the login needs that are not set. */
const missingLogin = (cfg: TargetConfig): string[] =>
  (
    [
      ['CRM_CLIENT_SECRET', cfg.oauth.clientSecret],
      ['CRM_LOGIN_EMAIL', cfg.oauth.loginEmail],
      ['CRM_LOGIN_PASSWORD', cfg.oauth.loginPassword],
    ] as const
  )
    .filter(([, v]) => !v)
    .map(([k]) => k);

type LoginCheck = Awaited<ReturnType<typeof tryOAuthLogin>>;

/** The line of a login that was tried: FAIL when the suite cannot log in or reach a consent screen with Authorize and Deny. */
function outcomeLine(checks: Checks, cfg: TargetConfig, check: LoginCheck): void {
  const name = 'OAuth login';
  const { outcome } = check;
  const email = cfg.oauth.loginEmail!;
  const profileNote = `(target profile: ${cfg.profileSource})`;
  const where = new URL(cfg.authUrl).host;
  const overrides = Object.entries(cfg.profile.oauth.screens)
    .filter(([, v]) => v)
    .map(([k]) => `oauth.screens.${k}`);
  const how = overrides.length
    ? `controls found by what they are; the profile's ${overrides.join(', ')} take${overrides.length > 1 ? '' : 's'} precedence where ${overrides.length > 1 ? 'they match' : 'it matches'}`
    : 'controls found by what they are: no oauth.screens labels needed';
  if (outcome.cannotLogIn) {
    const detail = `the suite cannot log in at ${where} as ${email}: ${outcome.cannotLogIn.problem}; the OAuth rules would not be judged`;
    checks.add(name, 'fail', detail, `${outcome.cannotLogIn.fix} ${profileNote}`);
  } else if (outcome.stoppedAt !== 'consent') {
    checks.add(
      name,
      'fail',
      `no consent screen after the login (${check.described}); the OAuth rules would fail or not be judged`,
      outcome.screens.includes('login')
        ? 'check CRM_LOGIN_EMAIL and CRM_LOGIN_PASSWORD, and the page the login leads to'
        : `check CRM_CLIENT_ID and the registered redirect URI (oauth.redirect_uris of the profile) ${profileNote}`,
    );
  } else if (!check.authorize || !check.deny) {
    const lacking = [!check.authorize && 'Authorize', !check.deny && 'Deny'].filter(Boolean).join(' and ');
    const members = [!check.authorize && 'oauth.screens.authorize_button', !check.deny && 'oauth.screens.deny_button'].filter(Boolean).join(' and ');
    checks.add(
      name,
      'fail',
      `logged in as ${email}, but the consent screen shows no ${lacking} control (spec § OAuth 2.0, step 2: "with Authorize and Deny")`,
      `if the screen names them otherwise, set ${members} to those names ${profileNote}`,
    );
  } else {
    const login = outcome.screens.includes('login') ? `logged in as ${email}` : 'no login asked';
    checks.add(name, 'ok', `${login} at ${where}; the consent screen shows Authorize and Deny (${how})`);
  }
}

/**
 * The login as the OAuth specs do it (specs/support/oauth-page.ts), up to the consent screen:
 * FAIL when the suite cannot log in (the OAuth rules would not be judged), with the setting to
 * change; nothing is authorized.
 */
async function loginLine(checks: Checks, cfg: TargetConfig, callback: RunCallback, pagesOk: boolean, browserPath: string | undefined): Promise<void> {
  const name = 'OAuth login';
  const missing = missingLogin(cfg);
  if (missing.length) {
    const detail = `CRM_CLIENT_ID is set but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not: the OAuth specs skip`;
    checks.add(name, 'warn', detail, `set ${missing.join(' and ')} (a user who can log in on the authorization host), or unset CRM_CLIENT_ID`);
    return;
  }
  if (!pagesOk) return checks.add(name, 'skip', 'not tried: the authorization request fails (above)');
  if (!browserPath) return checks.add(name, 'skip', 'not tried: no browser (below)');
  try {
    const check = await tryOAuthLogin({
      executablePath: browserPath,
      receiver: callback.receiver,
      url: callback.authorizeUrl,
      screens: cfg.profile.oauth.screens,
      email: cfg.oauth.loginEmail!,
      password: cfg.oauth.loginPassword!,
    });
    outcomeLine(checks, cfg, check);
  } catch (err) {
    const detail = `the login could not be tried: ${(err as Error).message.split('\n')[0]}`;
    checks.add(name, 'fail', detail, 'check the browser (CRM_CHROMIUM_PATH) and CRM_AUTH_URL');
  }
}

/** The consent screen's texts OAUTH-3 checks: the application's name and the permission, from the profile. */
function consentTextsLine(checks: Checks, cfg: TargetConfig): void {
  const { application_name: name, permission_text: permission } = cfg.profile.oauth;
  if (name && permission)
    checks.add('OAuth consent texts', 'ok', `application "${name}", permission "${permission}" (checked by OAUTH-3 on the consent screen)`);
  else if (!name)
    checks.add('OAuth consent texts', 'warn', 'the profile gives no oauth.application_name: OAUTH-3 checks the buttons only', addFix('oauth.application_name'));
  else
    checks.add(
      'OAuth consent texts',
      'warn',
      'the profile gives no oauth.permission_text: OAUTH-3 does not check the permission',
      addFix('oauth.permission_text'),
    );
}

/** Every OAuth line, the browser's last. */
export async function checkOAuth(checks: Checks, cfg: TargetConfig, api: ApiClient, browser?: Promise<{ path?: string; searched: string[] }>): Promise<void> {
  const found = browser ? await browser : undefined;
  if (!cfg.oauth.clientId) checks.add('OAuth pages', 'skip', 'CRM_CLIENT_ID is not set: the OAuth specs skip');
  else {
    const callback = runCallback(cfg);
    if ('reason' in callback) checks.add('OAuth callback', 'fail', callback.reason, 'set CRM_CALLBACK_PORT to the local port CRM_PUBLIC_URL forwards to');
    else await loginLine(checks, cfg, callback, await pagesLine(checks, cfg, api, callback), found?.path);
    consentTextsLine(checks, cfg);
  }
  if (found) {
    checks.add(
      'browser for OAuth',
      found.path ? 'ok' : 'warn',
      found.path ? `Chromium at ${found.path}` : `no Chromium found (searched ${found.searched.join(', ')}): the OAuth browser specs skip`,
      'npx playwright install --only-shell chromium, or set CRM_CHROMIUM_PATH',
    );
  }
}
