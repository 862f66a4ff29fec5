/**
 * What an OAuth test tried, step by step, as classes and never values (spec § OAuth 2.0
 * authorization code grant): each authorization request (which parameters were the valid ones,
 * another value or left out), the screens shown, the decision and what reached the callback; each
 * token request (each member valid, another value, left out; a code used before). The `oauth`
 * fixture (fixtures/oauth.ts) attaches them to the test as {@link OAUTH_STEPS_ATTACHMENT}; the
 * coverage map (reporting/coverage/) counts the steps and error paths a run tried. The browser's
 * requests are not recorded exchanges, and the token request's secrets are redacted in them: these
 * records are the only account of which path a request took.
 */

export const OAUTH_STEPS_ATTACHMENT = 'oauth-steps.json';

/** A parameter as sent: the valid value, another value, or left out. */
export type ParamClass = 'valid' | 'other' | 'missing';

export interface AuthorizeStep {
  step: 'authorize';
  params: Record<'response_type' | 'client_id' | 'redirect_uri' | 'scope', ParamClass> & { state: 'given' | 'missing' };
  /** What the suite was to press on the consent screen (none: stop there). */
  decision?: 'authorize' | 'deny';
  /** The screens shown, in order. */
  screens: string[];
  /** What reached the callback: its method and which members it carried (`code`, `error`, `state`). */
  callback?: { method: string; code: boolean; error: boolean; state: boolean };
  /** Where the browser stopped without reaching the callback. */
  stoppedAt?: string;
}

export interface TokenStep {
  step: 'token';
  members: Record<'grant_type' | 'code' | 'redirect_uri' | 'client_id' | 'client_secret', ParamClass | 'reused'>;
  status: number;
}

export type OAuthStep = AuthorizeStep | TokenStep;

const classOf = (value: string | null | undefined, valid: string): ParamClass =>
  value === null || value === undefined ? 'missing' : value === valid ? 'valid' : 'other';

/** The classes of an authorization request URL, against the valid parameters. */
export function authorizeParams(
  url: string,
  valid: { response_type: string; client_id: string; redirect_uri: string; scope: string },
): AuthorizeStep['params'] {
  const q = new URL(url).searchParams;
  return {
    response_type: classOf(q.get('response_type'), valid.response_type),
    client_id: classOf(q.get('client_id'), valid.client_id),
    redirect_uri: classOf(q.get('redirect_uri'), valid.redirect_uri),
    scope: classOf(q.get('scope'), valid.scope),
    state: q.has('state') ? 'given' : 'missing',
  };
}

/**
 * The classes of a token request's form, against the valid form; `codes` are the codes this test
 * obtained from a callback and those it exchanged already (a code exchanged before is `reused`,
 * a code never obtained `other`). Notes the code as exchanged.
 */
export function tokenMembers(
  form: Record<string, string>,
  valid: { grant_type: string; redirect_uri: string; client_id: string; client_secret: string },
  codes: { obtained: Set<string>; exchanged: Set<string> },
): TokenStep['members'] {
  const code = form.code;
  const codeClass = code === undefined ? 'missing' : codes.exchanged.has(code) ? 'reused' : codes.obtained.has(code) ? 'valid' : 'other';
  if (code !== undefined) codes.exchanged.add(code);
  return {
    grant_type: classOf(form.grant_type, valid.grant_type),
    code: codeClass,
    redirect_uri: classOf(form.redirect_uri, valid.redirect_uri),
    client_id: classOf(form.client_id, valid.client_id),
    client_secret: classOf(form.client_secret, valid.client_secret),
  };
}
