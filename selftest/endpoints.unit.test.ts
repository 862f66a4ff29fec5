/**
 * contracts/endpoints.ts is the list every table-driven check reads (the credentials specs of
 * specs/authentication/every-endpoint.spec.ts, the OpenAPI export): an endpoint missing from it is
 * skipped by them without a word. So the reference server's routes (reference/routes/*.ts, under
 * every alternative of every open choice) and the list agree, both ways, but for the routes the
 * spec does not show (an allow-list, each with its reason); and the endpoints that rules name
 * (rules/rules.json `endpoint`) are on the list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../contracts/endpoints.js';
import { RULES } from '../rules/index.js';
import { App } from '../reference/app.js';
import { alternativeChoices, maxAlternatives } from '../reference/choices.js';
import { Router, type Handler } from '../reference/http.js';
import { AREA_MODULES } from '../reference/routes/index.js';

/** Routes of the reference server that are no endpoint of the spec, with why they exist. */
const NOT_IN_THE_SPEC: Record<string, string> = {
  'api POST /tasks': "the profile's create_task extension (capabilities.extensions.create_task): the spec has no task create",
  'api POST /{entity_type}/{entity_id}/follow': "the profile's follow extension (capabilities.extensions.follow)",
  'api DELETE /{entity_type}/{entity_id}/follow': 'unfollow, of the follow extension (the doctor undoes its follow)',
  'api GET /webhooks': 'the open choice webhook.listing: a server may list its subscriptions (not shown by the spec)',
  'auth POST /oauth/login': "the reference's own login form: how the login screen submits is the server's (the spec shows the screens, not their forms)",
  'auth POST /oauth/decision': "the reference's own consent form (Authorize or Deny): as the login form",
};

/** A Router that lists what is added to it. */
class ListingRouter extends Router {
  readonly listed: string[] = [];
  constructor(private readonly host: string) {
    super();
  }
  override add(method: string, pattern: string, handler: Handler): this {
    this.listed.push(`${this.host} ${method} ${pattern}`);
    return super.add(method, pattern, handler);
  }
}

/** Every API and authorization route the reference server registers, under each alternative of each open choice. */
function referenceRoutes(): Set<string> {
  const routes = new Set<string>();
  const credentials = { accessToken: 'a', userEmail: 'u@x.example', bearerToken: 'b', clientId: 'c', clientSecret: 's', loginEmail: 'l', loginPassword: 'p' };
  for (let k = 0; k < maxAlternatives(); k++) {
    const app = new App({ credentials, faults: new Set(), choices: alternativeChoices(k) });
    const api = new ListingRouter('api');
    const auth = new ListingRouter('auth');
    for (const m of AREA_MODULES) {
      m.seed?.(app);
      m.api?.(api, app);
      m.auth?.(auth, app);
    }
    for (const r of [...api.listed, ...auth.listed]) routes.add(r);
  }
  return routes;
}

const listed = new Set(ENDPOINTS.map((e) => `${e.host} ${e.method} ${e.path}`));

test("every route of the reference server is on contracts/endpoints.ts, or allow-listed (the profile's extensions, the login forms)", () => {
  const routes = referenceRoutes();
  assert.ok(routes.size > 20, `the reference server's routes were listed (${routes.size})`);
  const missing = [...routes].filter((r) => !listed.has(r) && !(r in NOT_IN_THE_SPEC));
  assert.deepEqual(
    missing,
    [],
    'routes missing from contracts/endpoints.ts: the credentials specs and the OpenAPI export skip them. Add each to ENDPOINTS (CONTRIBUTING: "Adding an endpoint"), or, for a route the spec does not show, to NOT_IN_THE_SPEC here with its reason',
  );
  const stale = Object.keys(NOT_IN_THE_SPEC).filter((r) => !routes.has(r));
  assert.deepEqual(stale, [], 'allow-listed routes the reference server no longer has');
  const listedToo = Object.keys(NOT_IN_THE_SPEC).filter((r) => listed.has(r));
  assert.deepEqual(listedToo, [], 'allow-listed routes that are on contracts/endpoints.ts after all');
});

test('every endpoint of contracts/endpoints.ts is a route of the reference server', () => {
  const routes = referenceRoutes();
  assert.deepEqual(
    [...listed].filter((e) => !routes.has(e)),
    [],
    'endpoints the reference server does not serve (host api: reference/routes/*.ts `api`, host auth: `auth`)',
  );
  assert.equal(listed.size, ENDPOINTS.length, 'no endpoint is listed twice');
});

test('every endpoint a rule names is on contracts/endpoints.ts', () => {
  const paths = new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`));
  const unknown = RULES.flatMap((r) => (r.endpoint ? r.endpoint.split(', ').map((e) => `${r.id}: ${e}`) : [])).filter((x) => !paths.has(x.split(': ')[1]));
  assert.deepEqual(unknown, [], 'rules naming an endpoint that contracts/endpoints.ts does not list');
});
