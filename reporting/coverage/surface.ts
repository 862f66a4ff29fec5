/**
 * The spec's surface as the coverage map counts it, built from the contracts, never by hand:
 * every endpoint of contracts/endpoints.ts (method, path template, host), its path parameters, the
 * members of its request contract and their value classes (reporting/coverage/nodes.ts), the
 * statuses the spec shows (its success contract's `2xx` and the `answers` by status), the members
 * of each answer contract; then the state transitions (§ States and transitions), the
 * notification kinds (§ Events) and the OAuth steps and error paths (§ OAuth 2.0 authorization
 * code grant) the spec shows. Each class has a stable id, the gap id of rules/coverage-reasons.json:
 *
 *     POST /projects/search request sort_direction=desc
 *     POST /projects/search request page_number<0
 *     POST /leads/{lead_id}/convert request details.company.name empty-string
 *     PUT /leads/upsert status 422
 *     POST /projects/search response 2xx ProjectList[].tags empty-list
 *     transition lead-conversion company-joined-by-name
 *     notification person/update
 *     oauth token code reused
 */
import { ENDPOINTS, type Endpoint } from '../../contracts/endpoints.js';
import { contractSchemas, FILE_ENTITY_TYPES, standaloneJsonSchema } from '../../contracts/openapi.js';
import { WebhookEvent, WebhookType } from '../../contracts/resources.js';
import { requestNode, responseMembers, type Json, type Node, type Registry, type Scalar } from './nodes.js';

export type Section = 'request' | 'response' | 'status' | 'transition' | 'notification' | 'oauth';

export interface ClassDef {
  id: string;
  section: Section;
  /** The endpoint (`POST /projects/search`), or the group (`lead-conversion`, `authorize`). */
  owner: string;
  /** The member (`sort_direction`, `{entity_type}`, `ProjectList[].tags`), the status, or the step's part. */
  member: string;
  token: string;
}

export interface AnswerSurface {
  /** `2xx` (the success contract) or a status the spec shows (`422`). */
  status: string;
  classIndex: number;
  /** The contracts its body may match; a list answer's items each match one of them. */
  contracts: { name: string; list: boolean; members: Map<string, Node> }[];
}

export interface EndpointSurface {
  key: string;
  endpoint: Endpoint;
  pattern: RegExp;
  staticSegments: number;
  params: Node[];
  request?: Node;
  answers: AnswerSurface[];
}

export interface Surface {
  classes: ClassDef[];
  byId: Map<string, number>;
  endpoints: EndpointSurface[];
  /** Classes of the transitions, notifications and OAuth steps by `owner token`. */
  named: Map<string, number>;
}

/**
 * Values the spec names for a request member beyond its contract: § Projects and § Tasks "`-2`
 * selects records with no owner" / "Tasks with no project"; § Lead upsert "The supported match
 * criteria are name, email and custom fields".
 */
const SPEC_VALUES: Record<string, Record<string, Scalar[]>> = {
  'POST /projects/search': { 'assignee_ids[]': [-2] },
  'POST /tasks/search': { 'assignee_ids[]': [-2], 'project_ids[]': [-2] },
  'PUT /leads/upsert': { 'match.field_name': ['name', 'email'] },
};

/**
 * Limits the spec sets beyond the contracts, as classes of a request: § Bulk create rule 1 ("A
 * request with more than 10 entries gets status 422": `=10-items`, `>10-items`) and § Limits
 * ("Records reachable in one search | first 100,000, whatever the pagination": a page that starts
 * past them, `(body) past-100000`).
 */
export const SPEC_LIMITS: Record<string, { list?: Record<string, number>; searchCap?: number }> = {
  'POST /opportunities/bulk_create': { list: { opportunities: 10 } },
  'POST /projects/search': { searchCap: 100_000 },
  'POST /tasks/search': { searchCap: 100_000 },
};

/** § States and transitions ("Moves that the interface shows") and § Lead upsert rules 2 to 4. */
export const TRANSITIONS: Record<string, { label: string; outcomes: string[] }> = {
  'lead-conversion': {
    label: 'Lead conversion (POST /leads/{lead_id}/convert)',
    outcomes: [
      'person-created',
      'company-created',
      'company-joined-by-id',
      'company-joined-by-name',
      'no-company-empty-name',
      'no-company-omitted',
      'opportunity-created',
      'no-opportunity',
      'lead-gone',
    ],
  },
  'lead-upsert': { label: 'Lead upsert (PUT /leads/upsert)', outcomes: ['created-status-new', 'updated', 'conflict-422'] },
  'relationship-removal': { label: 'Relationship removal (DELETE /{entity}/{entity_id}/related)', outcomes: ['removed', 'related-record-kept', 'record-kept'] },
  'webhook-subscription': { label: 'Webhook subscription', outcomes: ['subscribed', 'read-back', 'unsubscribed', 'gone-after-unsubscribe'] },
};

/** § OAuth 2.0 authorization code grant: each step, on success and on each error path. */
export const OAUTH_STEPS: Record<string, { label: string; outcomes: string[] }> = {
  authorize: {
    label: 'Authorization request (GET {auth_url}/oauth/authorize)',
    outcomes: [
      'valid',
      ...['response_type', 'client_id', 'redirect_uri', 'scope'].flatMap((p) => [`${p} other-value`, `${p} missing`]),
      'state given',
      'state missing',
    ],
  },
  login: { label: 'Login (step 2)', outcomes: ['login-screen', 'already-logged-in'] },
  consent: { label: 'Consent screen (step 2)', outcomes: ['shown', 'authorize', 'deny'] },
  callback: { label: 'Callback to redirect_uri (step 3)', outcomes: ['post', 'code', 'error', 'state-echoed'] },
  token: {
    label: 'Token request (POST {auth_url}/oauth/token)',
    outcomes: [
      'valid',
      ...['grant_type', 'code', 'redirect_uri', 'client_id', 'client_secret'].flatMap((p) => [`${p} other-value`, `${p} missing`]),
      'code reused',
    ],
  },
};

export const NOTIFICATION_KINDS = WebhookType.options.flatMap((t) => WebhookEvent.options.map((e) => `${t}/${e}`));

const keyOf = (e: Endpoint) => `${e.method} ${e.path}`;
const idOf = (owner: string, section: Section, member: string, token: string) =>
  `${owner} ${section}${member ? ` ${member}` : ''}${/^[=<>]/.test(token) ? token : ` ${token}`}`;

function registry(classes: ClassDef[], byId: Map<string, number>, owner: string, section: Section, specValues?: Record<string, Scalar[]>): Registry {
  return {
    add: (member, token) => {
      const id = section === 'status' ? `${owner} status ${token}` : idOf(owner, section, member, token);
      const known = byId.get(id);
      if (known !== undefined) return known;
      byId.set(id, classes.length);
      classes.push({ id, section, owner, member, token });
      return classes.length - 1;
    },
    specValues: (path) => specValues?.[path],
    listLimit: (path) => SPEC_LIMITS[owner]?.list?.[path],
    searchCap: (path) => (path === '(body)' ? SPEC_LIMITS[owner]?.searchCap : undefined),
  };
}

/**
 * A path parameter: `{entity_type}` of the files ("one of leads, people, opportunities, companies,
 * projects"), `{entity}` (`people` shown), the files' `{entity_id}` and `{file_id}` ("are
 * numbers"). Any other identifier's format is not fixed by the spec: it has no classes.
 */
function paramNode(name: string, e: Endpoint, reg: Registry): Node {
  const member = `{${name}}`;
  const values: Scalar[] | undefined = name === 'entity_type' ? [...FILE_ENTITY_TYPES] : name === 'entity' ? ['people'] : undefined;
  const n: Node = { kind: values ? 'enum' : 'identifier', path: member, optional: false, nullable: false, values, cls: {} };
  const numbers = e.path.includes('/files/') && (name === 'entity_id' || name === 'file_id');
  const tokens = values ? [...values.map((v) => `=${v}`), 'other-value'] : numbers ? ['numeric', 'non-numeric'] : [];
  for (const t of tokens) n.cls[t] = reg.add(member, t);
  return n;
}

function answersOf(e: Endpoint, key: string, schemas: Map<string, Json>, classes: ClassDef[], byId: Map<string, number>): AnswerSurface[] {
  const statuses = [...(e.response ? [['2xx', { contracts: [e.response] }] as const] : []), ...Object.entries(e.answers ?? {})].filter(
    ([s]) => s !== 'default',
  );
  return statuses.map(([status, a]) => {
    const classIndex = registry(classes, byId, key, 'status').add('', status);
    const reg = registry(classes, byId, key, 'response');
    const contracts = (a.contracts ?? []).map((name) => {
      const schema = schemas.get(name)!;
      const list = ('list' in a && !!a.list) || schema.type === 'array';
      const label = (m: string) => `${status} ${name}${list ? '[]' : ''}.${m}`;
      const { members } = responseMembers('list' in a && a.list ? { type: 'array', items: schema } : schema, label, reg);
      return { name, list, members };
    });
    return { status, classIndex, contracts };
  });
}

function endpointSurface(e: Endpoint, schemas: Map<string, Json>, classes: ClassDef[], byId: Map<string, number>): EndpointSurface {
  const key = keyOf(e);
  const reg = registry(classes, byId, key, 'request', SPEC_VALUES[key]);
  const names = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const params = names.map((n) => paramNode(n, e, reg));
  // The OAuth endpoints' requests are counted as the OAuth steps (their values are secrets, redacted).
  const request = e.request && e.host === 'api' ? requestNode(schemas.get(e.request)!, '(body)', false, reg) : undefined;
  const pattern = new RegExp(`^${e.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`);
  const staticSegments = e.path.split('/').filter((s) => s && !s.startsWith('{')).length;
  return { key, endpoint: e, pattern, staticSegments, params, request, answers: answersOf(e, key, schemas, classes, byId) };
}

function namedClasses(classes: ClassDef[], byId: Map<string, number>): Map<string, number> {
  const named = new Map<string, number>();
  const add = (section: Section, owner: string, token: string) => {
    const id = `${section} ${owner} ${token}`;
    byId.set(id, classes.length);
    classes.push({ id, section, owner, member: '', token });
    named.set(`${owner} ${token}`, classes.length - 1);
  };
  for (const [owner, t] of Object.entries(TRANSITIONS)) for (const o of t.outcomes) add('transition', owner, o);
  for (const kind of NOTIFICATION_KINDS) {
    const id = `notification ${kind}`;
    byId.set(id, classes.length);
    classes.push({ id, section: 'notification', owner: 'notification', member: '', token: kind });
    named.set(`notification ${kind}`, classes.length - 1);
  }
  for (const [owner, t] of Object.entries(OAUTH_STEPS)) for (const o of t.outcomes) add('oauth', owner, o);
  return named;
}

/** Builds the surface (once per process: {@link surface}). */
export function buildSurface(endpoints: Endpoint[] = ENDPOINTS): Surface {
  const schemas = new Map(contractSchemas().map((c) => [c.name, standaloneJsonSchema(c) as Json]));
  const classes: ClassDef[] = [];
  const byId = new Map<string, number>();
  const list = endpoints.map((e) => endpointSurface(e, schemas, classes, byId));
  const named = namedClasses(classes, byId);
  return { classes, byId, endpoints: list, named };
}

let built: Surface | undefined;
/** The surface of the suite's contracts, built on first use. */
export const surface = (): Surface => (built ??= buildSurface());

/**
 * The endpoint a request is for: an API path (after `/developer_api/v1`) or an OAuth path, matched
 * to the templates, the one with the most fixed segments first (`s3_signed_url` before `{file_id}`).
 */
export function endpointMatcher(s: Surface): (method: string, url: string) => { e: EndpointSurface; params: string[] } | undefined {
  const bySegments = [...s.endpoints].sort((a, b) => b.staticSegments - a.staticSegments);
  const fixed = new Map(s.endpoints.filter((e) => !e.params.length).map((e) => [`${e.endpoint.host} ${e.key}`, e]));
  return (method, url) => {
    const p = pathOf(url);
    if (!p) return undefined;
    const hit = fixed.get(`${p.host} ${method} ${p.path}`);
    if (hit) return { e: hit, params: [] };
    for (const e of bySegments) {
      if (e.endpoint.method !== method || e.endpoint.host !== p.host || !e.params.length) continue;
      const m = e.pattern.exec(p.path);
      if (m) return { e, params: m.slice(1) };
    }
    return undefined;
  };
}

const API_MARK = '/developer_api/v1';

/** The host kind and path of a URL: the API's path after `/developer_api/v1`, or an OAuth path. */
export function pathOf(url: string): { host: 'api' | 'auth'; path: string } | undefined {
  const start = url.indexOf('://');
  const slash = url.indexOf('/', start < 0 ? 0 : start + 3);
  if (slash < 0) return undefined;
  let end = url.length;
  for (const c of ['?', '#']) {
    const i = url.indexOf(c, slash);
    if (i >= 0 && i < end) end = i;
  }
  const path = url.slice(slash, end);
  const at = path.indexOf(API_MARK);
  if (at >= 0) return { host: 'api', path: path.slice(at + API_MARK.length).replace(/\/$/, '') || '/' };
  const oauth = /\/oauth\/(authorize|token)$/.exec(path);
  return oauth ? { host: 'auth', path: oauth[0] } : undefined;
}
