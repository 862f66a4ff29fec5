/**
 * spec § Authentication → Header credentials (and step 7 of the OAuth grant): every API
 * endpoint of the spec (contracts/endpoints.ts) refuses a request without credentials, with a
 * wrong access token, with a wrong Bearer token, and (SHOULD) with header credentials whose
 * X-SVC-UserEmail is not the token's owner. The status of a refusal is "not shown": any 4xx
 * answer is a refusal (a 5xx is the server failing, no refusal). Path parameters name real
 * records where the profile or the API provides them (so that a refusal is not merely "not
 * found"), and bodies are harmless even if wrongly accepted (namespaced names, unchanged values).
 *
 * AUTH-6: a refused write changes no data, shown with valid credentials afterwards.
 */
import { API_ENDPOINTS, type Endpoint } from '../../contracts/endpoints.js';
import type { Activity, Project } from '../../contracts/index.js';
import type { ApiClient, Auth, Namespace, TargetConfig } from '../support/fixtures/test.js';
import type { TargetProfile } from '../../contracts/profile.js';
import { expect, rule, test } from '../support/fixtures/test.js';
import type { Hooks } from '../support/fixtures/hooks.js';

interface Case {
  rule: 'AUTH-3' | 'AUTH-4' | 'AUTH-5' | 'AUTH-7';
  what: string;
  skip?(target: TargetConfig): string | undefined;
  auth(target: TargetConfig): Auth;
}

const WRONG_TOKEN = 'wrong-token-for-conformance';

const CASES: Case[] = [
  { rule: 'AUTH-3', what: 'a request without credentials', auth: () => 'none' },
  {
    rule: 'AUTH-4',
    what: 'a wrong access token',
    auth: (t) => ({
      headers: {
        'X-SVC-AccessToken': WRONG_TOKEN,
        'X-SVC-Application': 'developer_api',
        'X-SVC-UserEmail': t.credentials.userEmail ?? 'nobody@conformance.invalid',
      },
    }),
  },
  {
    rule: 'AUTH-5',
    what: 'header credentials whose X-SVC-UserEmail is not the token owner',
    skip: (t) => (t.credentials.accessToken ? undefined : 'no header credentials configured (CRM_ACCESS_TOKEN, CRM_USER_EMAIL)'),
    auth: (t) => ({
      headers: {
        'X-SVC-AccessToken': t.credentials.accessToken ?? '',
        'X-SVC-Application': 'developer_api',
        'X-SVC-UserEmail': 'not-the-owner@conformance.invalid',
      },
    }),
  },
  { rule: 'AUTH-7', what: 'a wrong Bearer token', auth: () => ({ headers: { Authorization: 'Bearer wrong-bearer-for-conformance' } }) },
];

interface Ctx {
  api: ApiClient;
  ns: Namespace;
  profile: TargetProfile;
  hooks: Hooks;
}

const ok = (status: number) => status >= 200 && status < 300;

/** The first Activity of the profile's company, read with valid credentials. */
async function fixtureActivity({ api, profile }: Ctx): Promise<Activity | undefined> {
  const fx = profile.fixtures.company_with_activities;
  if (!fx) return undefined;
  const res = await api.post<Activity[]>(`/companies/${encodeURIComponent(String(fx.company_id))}/activities`, { activity_types: fx.activity_types });
  return ok(res.status) && Array.isArray(res.body) ? res.body[0] : undefined;
}

/** Real values for the path parameters (numbers where neither profile nor API provides one). */
async function pathParams(ep: Endpoint, ctx: Ctx): Promise<{ params: Record<string, string>; activity?: Activity }> {
  const { api, ns, profile, hooks } = ctx;
  const fx = profile.fixtures;
  const needs = (p: string) => ep.path.includes(`{${p}}`);
  const params: Record<string, string> = {};
  let activity: Activity | undefined;
  if (needs('lead_id')) {
    const name = ns.name('lead');
    const res = await api.put<{ id?: unknown }>('/leads/upsert', { properties: { name, tags: ns.tags }, match: { field_name: 'name', field_value: name } });
    params.lead_id = ok(res.status) && res.body?.id !== undefined ? String(res.body.id) : '1';
  }
  if (needs('company_id')) params.company_id = String(fx.company_with_activities?.company_id ?? fx.attached_file?.entity_id ?? 1);
  if (needs('activity_id')) {
    activity = await fixtureActivity(ctx);
    params.activity_id = String(activity?.id ?? 1);
  }
  if (needs('entity_type')) params.entity_type = fx.attached_file?.entity_type ?? 'companies';
  if (needs('entity_id')) {
    params.entity_id = ep.path.startsWith('/{entity}/')
      ? String(fx.relationship?.entity_id ?? 1)
      : String(fx.attached_file?.entity_id ?? fx.company_with_activities?.company_id ?? 1);
  }
  if (needs('file_id')) params.file_id = String(fx.attached_file?.file_id ?? 1);
  if (needs('entity')) params.entity = fx.relationship?.entity ?? 'people';
  if (needs('webhook_id')) params.webhook_id = String((await hooks.subscribe(hooks.channel('auth-table'), { type: 'project', event: 'delete' })).id);
  return { params, activity };
}

/** A body that reaches the handler yet changes nothing that matters if it were wrongly accepted. */
function harmlessBody(ep: Endpoint, ctx: Ctx, activity?: Activity): unknown {
  const { ns, hooks } = ctx;
  const name = ns.name('refused');
  switch (`${ep.method} ${ep.path}`) {
    case 'POST /leads/{lead_id}/convert':
      return { details: { person: { name } } };
    case 'PUT /leads/upsert':
      return { properties: { name, tags: ns.tags }, match: { field_name: 'name', field_value: name } };
    case 'POST /people':
    case 'POST /companies':
    case 'POST /projects':
      return { name, tags: ns.tags };
    case 'PUT /activities/{activity_id}':
      return activity ? { activity_date: activity.activity_date, details: activity.details } : ep.sampleBody;
    case 'DELETE /{entity}/{entity_id}/related':
      return { resource: { id: 999_999_999, type: 'company' } };
    case 'POST /webhooks':
      return { target: hooks.channel('refused').url, type: 'project', event: 'delete' };
    default:
      return ep.sampleBody;
  }
}

const fill = (path: string, params: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(params[p] ?? '1'));

for (const c of CASES) {
  for (const ep of API_ENDPOINTS) {
    test(
      ...rule(c.rule, `${ep.method} ${ep.path} refuses ${c.what}`, async ({ api, ns, profile, target, hooks }) => {
        const why = c.skip?.(target);
        test.skip(!!why, why ?? '');
        const ctx = { api, ns, profile, hooks };
        const { params, activity } = await pathParams(ep, ctx);
        const body = harmlessBody(ep, ctx, activity);
        const res = await api.send({ method: ep.method, path: fill(ep.path, params), body, auth: c.auth(target) });
        if (ep.method === 'POST' && ep.path === '/webhooks' && ok(res.status)) hooks.track(res.body as { id: unknown });
        expect(res).toBeRefused();
      }),
    );
  }
}

const REFUSALS = CASES.filter((c) => c.rule === 'AUTH-3' || c.rule === 'AUTH-4');

for (const c of REFUSALS) {
  test(
    ...rule('AUTH-6', `a POST /projects refused for ${c.what} creates no project`, async ({ api, ns, target }) => {
      const name = ns.name('refused project');
      const res = await api.post('/projects', { name, tags: ns.tags }, { auth: c.auth(target) });
      expect(res).toBeRefused();
      const search = await api.post<Project[]>('/projects/search', { name });
      expect(search).toHaveStatus(200);
      const found = (Array.isArray(search.body) ? search.body : []).filter((p) => p.name === name);
      expect(
        found.map((p) => p.id),
        `no project named ${JSON.stringify(name)} exists after the refused create`,
      ).toEqual([]);
    }),
  );

  test(
    ...rule('AUTH-6', `a DELETE /webhooks/{id} refused for ${c.what} leaves the subscription in place`, async ({ api, target, hooks }) => {
      const sub = await hooks.subscribe(hooks.channel('kept'), { type: 'project', event: 'delete' });
      const path = `/webhooks/${encodeURIComponent(String(sub.id))}`;
      const res = await api.delete(path, undefined, { auth: c.auth(target) });
      expect(res).toBeRefused();
      expect(await api.get(path), 'the subscription still exists after the refused DELETE').toHaveStatus(200);
    }),
  );
}

test(
  ...rule('AUTH-6', 'a PUT /activities/{id} refused for a request without credentials leaves the Activity unchanged', async ({ api, ns, profile, hooks }) => {
    const before = await fixtureActivity({ api, ns, profile, hooks });
    test.skip(!before, 'the profile has no company_with_activities fixture with activities');
    const path = `/activities/${encodeURIComponent(String(before!.id))}`;
    const res = await api.put(
      path,
      { activity_date: (before!.activity_date ?? Math.floor(Date.now() / 1000)) - 86_400, details: `${before!.details} (changed by ${ns.id})` },
      { auth: 'none' },
    );
    const after = await api.get<Activity>(path);
    if (ok(res.status) || after.body?.details !== before!.details) {
      // Put the fixture back as it was.
      await api.put(path, { activity_date: before!.activity_date, details: before!.details });
    }
    expect(res).toBeRefused();
    expect(after).toHaveStatus(200);
    expect({ details: after.body.details, activity_date: after.body.activity_date }, 'the Activity is unchanged after the refused update').toEqual({
      details: before!.details,
      activity_date: before!.activity_date,
    });
  }),
);
