/**
 * `crm-conformance profile init [--out crm-profile.json] [--force]`: drafts a target profile
 * from what the target can tell through the spec, reading only: the account (name), the
 * pipelines, the projects and tasks found by search (assignees → users, related opportunities
 * and companies, custom field values seen), the activities of the companies found.
 *
 * What the spec gives no way to discover (custom field definitions and their options, project
 * status ids, contact types, an attached file, the lead match field, extensions, the consent
 * screen's application name and permission text)
 * is listed under `_fill_in` of the draft (path → what to write there) and printed; the key is
 * ignored when the profile is loaded, so the draft is usable as it is.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiClient, ConfigError, TargetProfile, TransportError, loadConfig, type ApiResponse } from './suite.js';

type Rec = {
  id?: unknown;
  assignee_id?: unknown;
  status?: unknown;
  related_resource?: { id?: unknown; type?: unknown } | null;
  custom_fields?: { custom_field_definition_id?: unknown; value?: unknown }[];
};

export interface Draft {
  profile: Record<string, unknown>;
  /** Profile path → what the user must write there. */
  fillIn: Record<string, string>;
  /** What was found, for the summary. */
  found: string[];
}

const PAGES = 3;
const PAGE_SIZE = 100;

async function searchAll(api: ApiClient, path: string): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let page = 1; page <= PAGES; page++) {
    const res = await api.post(path, { page_number: page, page_size: PAGE_SIZE });
    if (res.status < 200 || res.status >= 300 || !Array.isArray(res.body)) break;
    out.push(...(res.body as Rec[]));
    if (res.body.length < PAGE_SIZE) break;
  }
  return out;
}

const idsOf = (values: unknown[]) =>
  [...new Set(values.filter((v): v is number | string => (typeof v === 'number' && v >= 0) || (typeof v === 'string' && v !== '')).map(String))].map((v) =>
    /^\d+$/.test(v) ? Number(v) : v,
  );

/** What kind of custom field the values seen suggest (definitions are "not shown" by the spec). */
function guessKind(values: unknown[]): string {
  const set = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (!set.length) return 'no values seen';
  if (set.every(Array.isArray)) return `lists (MultiSelect?) of ${JSON.stringify([...new Set(set.flat())].slice(0, 6))}`;
  if (set.every((v) => typeof v === 'number'))
    return set.every(Number.isInteger) ? `integers (Dropdown option ids or Float?) ${JSON.stringify([...new Set(set)].slice(0, 6))}` : 'numbers (Float?)';
  if (set.every((v) => typeof v === 'string')) return `text (String, or Dropdown option names?) ${JSON.stringify([...new Set(set)].slice(0, 4))}`;
  return 'mixed values';
}

export async function draftProfile(): Promise<Draft> {
  const cfg = loadConfig();
  const api = new ApiClient();
  const found: string[] = [];
  const fillIn: Record<string, string> = {};

  const account = await api.get<{ id?: unknown; name?: string }>('/account');
  if (account.status < 200 || account.status >= 300)
    throw new Error(`GET /account answers ${account.status}: run \`crm-conformance doctor\` to check the credentials`);
  const name = account.body?.name ?? 'target';
  found.push(`account ${String(account.body?.id)} "${name}"`);
  const pipelines = await api.get('/pipelines');
  if (Array.isArray(pipelines.body))
    found.push(
      `${pipelines.body.length} pipeline(s): ${(pipelines.body as { id: unknown; name: string; type: string }[]).map((p) => `${String(p.id)} ${p.name} (${p.type})`).join(', ')}`,
    );

  const projects = await searchAll(api, '/projects/search');
  const tasks = await searchAll(api, '/tasks/search');
  const records = [...projects, ...tasks];
  found.push(`${projects.length} project(s) and ${tasks.length} task(s) found by search`);

  const users = idsOf(records.map((r) => r.assignee_id));
  fillIn['fixtures.users'] = users.length
    ? `users seen as assignees: ${users.join(', ')}; add each one's "email" (the spec has no user listing), the user of CRM_USER_EMAIL first`
    : 'no assignee seen: list the users of the account as [{ "id", "email" }] (the spec has no user listing)';

  const related = (type: string) => idsOf(records.filter((r) => r.related_resource?.type === type).map((r) => r.related_resource?.id));
  const opportunities = related('opportunity');
  if (opportunities.length) found.push(`opportunities related to tasks or projects: ${opportunities.join(', ')}`);

  let companyWithActivities: unknown;
  for (const companyId of related('company').slice(0, 5)) {
    let res: ApiResponse;
    try {
      res = await api.post(`/companies/${companyId}/activities`, { activity_types: [] });
    } catch (err) {
      if (err instanceof TransportError) continue;
      throw err;
    }
    if (!Array.isArray(res.body)) continue;
    const types = new Map<string, { id: unknown; category: unknown }>();
    for (const a of res.body as { type?: { id?: unknown; category?: unknown } }[])
      if (a.type?.id !== undefined) types.set(String(a.type.id), { id: a.type.id, category: a.type.category });
    const user = [...types.values()].filter((t) => t.category === 'user');
    const pick = (user.length >= 2 ? user : [...types.values()]).slice(0, 2);
    if (pick.length >= 2) {
      companyWithActivities = { company_id: companyId, activity_types: pick };
      found.push(`company ${companyId} with activities of types ${pick.map((t) => String(t.id)).join(', ')}`);
      break;
    }
  }
  if (!companyWithActivities)
    fillIn['fixtures.company_with_activities'] =
      'a company with activities of at least two types: { "company_id", "activity_types": [{ "id", "category" }, …] } (none found through related records)';

  const byDefinition = new Map<string, unknown[]>();
  for (const r of records)
    for (const c of r.custom_fields ?? []) {
      const key = String(c.custom_field_definition_id);
      byDefinition.set(key, [...(byDefinition.get(key) ?? []), c.value]);
    }
  const seen = [...byDefinition].map(([id, values]) => `${id}: ${guessKind(values)}`);
  fillIn['fixtures.custom_fields'] =
    `custom field definitions (types and options are not shown by the spec): { "dropdown", "multi_select", "text", "number" }, each { "id", "data_type", "options": [{ "id", "name" }], "available_on" }${seen.length ? `; definitions seen on records: ${seen.join('; ')}` : '; no custom field value seen on records'}`;
  fillIn['fixtures.lead_match_field'] =
    'a Lead custom field usable for upsert matching: { "definition_id", "match_field_name" } (the match shape is not shown by the spec)';
  const statuses = [...new Set(projects.map((p) => p.status).filter((s): s is string => typeof s === 'string'))];
  fillIn['fixtures.project_statuses'] =
    `project status ids and names [{ "id", "name" }] (records show only names${statuses.length ? `: ${statuses.join(', ')}` : ''})`;
  fillIn['fixtures.contact_types'] = 'contact type ids and names of the account [{ "id", "name" }]';
  fillIn['fixtures.attached_file'] =
    'a file attached to a record: { "entity_type", "entity_id", "file_id" } (the file listing endpoint is not shown by the spec)';
  fillIn['capabilities.extensions'] =
    'documented extensions of your server that create what the spec cannot: { "create_task": "POST /…", "follow": "POST /{entity_type}/{entity_id}/…" }; leave {} when there are none';
  fillIn['capabilities.bulk_rate_limit'] = 'true when the server answers 429 above 3 bulk requests per second';
  fillIn['capabilities.bulk_entries_limit'] =
    "entries per bulk-create request: the documented 10, or your server's own limit (the spec says it may be raised or lowered)";
  fillIn['oauth'] =
    'the application name and permission text of the consent screen and the registered redirect URIs ({public} = CRM_PUBLIC_URL); the login and consent controls are found by what they are (`crm-conformance doctor` tries the login): add oauth.screens labels only where it says so';

  const profile = {
    _fill_in: fillIn,
    name,
    fixtures: {
      users: users.map((id) => ({ id })),
      ...(companyWithActivities ? { company_with_activities: companyWithActivities } : {}),
      custom_fields: {},
      project_statuses: [],
      contact_types: [],
      opportunities: opportunities.map((id) => ({ id })),
    },
    capabilities: { heavy: false, extensions: {}, bulk_rate_limit: false, bulk_entries_limit: 10, webhook_delivery: true },
    oauth: {
      redirect_uris: [`{public}/oauth/callback`],
    },
  };
  const check = TargetProfile.safeParse(profile);
  if (!check.success) throw new Error(`the draft does not match the profile schema (a bug): ${check.error.message}`);
  if (!cfg.profileSource.startsWith('(none')) found.push(`(CRM_PROFILE=${cfg.profileSource} was not read into the draft)`);
  return { profile, fillIn, found };
}

export async function profileInitCommand(args: string[]): Promise<number> {
  let out = 'crm-profile.json';
  const force = args.includes('--force');
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') out = args[++i] ?? out;
    else if (args[i].startsWith('--out=')) out = args[i].slice(6);
  }
  process.env.CRM_RUN_ID ||= randomBytes(4).toString('hex');
  const file = resolve(process.cwd(), out);
  if (out !== '-' && existsSync(file) && !force) {
    console.error(`crm-conformance profile init: ${file} exists (--force overwrites it)`);
    return 2;
  }
  let draft: Draft;
  try {
    draft = await draftProfile();
  } catch (err) {
    if (err instanceof ConfigError || err instanceof TransportError || err instanceof Error) {
      console.error(`crm-conformance profile init: ${err.message.split('\n')[0]}`);
      return 1;
    }
    throw err;
  }
  const json = `${JSON.stringify(draft.profile, null, 2)}\n`;
  if (out === '-') process.stdout.write(json);
  else writeFileSync(file, json);
  const log = out === '-' ? console.error : console.log;
  log(`Found: ${draft.found.join('; ')}.`);
  log(
    `${out === '-' ? 'Draft written to stdout' : `Draft written to ${out}`}. Fill in (listed under "_fill_in"; that key is ignored when the profile is loaded):`,
  );
  for (const [path, what] of Object.entries(draft.fillIn)) log(`  - ${path}: ${what}`);
  log(`Then: CRM_PROFILE=${out === '-' ? '<file>' : out} npx crm-conformance doctor`);
  return 0;
}
