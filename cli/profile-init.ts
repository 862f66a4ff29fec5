/**
 * `crm-conformance profile init [--out crm-profile.json] [--force]`: drafts a target profile
 * from what the target can tell through the spec, reading only: the account (name), the
 * pipelines, the projects and tasks found by search (assignees → users, related opportunities
 * and companies, custom field values seen), the activities of the companies found.
 *
 * What the spec gives no way to discover (custom field definitions and their options, project
 * status ids, contact types, an attached file, the lead match field, extensions, the consent
 * screen's application name and permission text) is listed under `_fill_in` of the draft (path →
 * the shape to write and how to find the value: cli/profile-fields.ts) and printed; the key is
 * ignored when the profile is loaded, so the draft is usable as it is. Where the server shows
 * nothing but the spec says (the bulk limits), the draft takes the spec's value, listed there too.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiClient, ConfigError, TargetProfile, TransportError, loadConfig, type ApiResponse } from './suite.js';
import { FILL_IN, type FillInPath } from './profile-fields.js';

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

/** The account's name (GET /account must answer: it is the credentials' check) and the pipelines, as found. */
async function accountFound(api: ApiClient, found: string[]): Promise<string> {
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
  return name;
}

/** The first of these companies with activities of two types (user activities preferred), as the fixture; undefined when none has. */
async function companyWithActivities(api: ApiClient, companyIds: unknown[], found: string[]): Promise<unknown> {
  for (const companyId of companyIds.slice(0, 5)) {
    let res: ApiResponse;
    try {
      res = await api.post(`/companies/${String(companyId)}/activities`, { activity_types: [] });
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
      found.push(`company ${String(companyId)} with activities of types ${pick.map((t) => String(t.id)).join(', ')}`);
      return { company_id: companyId, activity_types: pick };
    }
  }
  return undefined;
}

/** What the records found tell about the fields to fill in. */
interface Seen {
  users: (number | string)[];
  company: boolean;
  projects: Rec[];
  records: Rec[];
}

/**
 * Each member the draft leaves open, or takes from the spec where the server shows nothing (the
 * bulk limits), with how to find its value (cli/profile-fields.ts), and what the records found tell.
 */
function fillInOf(seen: Seen): Record<string, string> {
  const text = (path: FillInPath, after = '') => `${FILL_IN[path].shape} — ${FILL_IN[path].find}${after}`;
  const byDefinition = new Map<string, unknown[]>();
  for (const r of seen.records)
    for (const c of r.custom_fields ?? []) {
      const key = String(c.custom_field_definition_id);
      byDefinition.set(key, [...(byDefinition.get(key) ?? []), c.value]);
    }
  const definitions = [...byDefinition].map(([id, values]) => `${id}: ${guessKind(values)}`);
  const statuses = [...new Set(seen.projects.map((p) => p.status).filter((s): s is string => typeof s === 'string'))];
  const fillIn: Record<string, string> = {
    'fixtures.users': text(
      'fixtures.users',
      seen.users.length ? `; seen as assignees (in the draft, without e-mail): ${seen.users.join(', ')}` : '; no assignee seen',
    ),
  };
  if (!seen.company) fillIn['fixtures.company_with_activities'] = text('fixtures.company_with_activities', '; none found through related records');
  const definitionsSeen = definitions.length ? `; definitions seen on records: ${definitions.join('; ')}` : '; no custom field value seen on records';
  fillIn['fixtures.custom_fields'] = text('fixtures.custom_fields', definitionsSeen);
  fillIn['fixtures.project_statuses'] = text('fixtures.project_statuses', statuses.length ? `; names seen on projects: ${statuses.join(', ')}` : '');
  const open: FillInPath[] = [
    'fixtures.lead_match_field',
    'fixtures.contact_types',
    'fixtures.attached_file',
    'capabilities.extensions',
    'capabilities.bulk_rate_limit',
    'capabilities.bulk_entries_limit',
    'oauth.application_name',
    'oauth.permission_text',
    'oauth.redirect_uris',
  ];
  for (const path of open) fillIn[path] = text(path);
  return fillIn;
}

export async function draftProfile(): Promise<Draft> {
  const cfg = loadConfig();
  const api = new ApiClient();
  const found: string[] = [];
  const name = await accountFound(api, found);
  const projects = await searchAll(api, '/projects/search');
  const tasks = await searchAll(api, '/tasks/search');
  const records = [...projects, ...tasks];
  found.push(`${projects.length} project(s) and ${tasks.length} task(s) found by search`);
  const users = idsOf(records.map((r) => r.assignee_id));
  const related = (type: string) => idsOf(records.filter((r) => r.related_resource?.type === type).map((r) => r.related_resource?.id));
  const opportunities = related('opportunity');
  if (opportunities.length) found.push(`opportunities related to tasks or projects: ${opportunities.join(', ')}`);
  const company = await companyWithActivities(api, related('company'), found);
  const profile = {
    _fill_in: fillInOf({ users, company: !!company, projects, records }),
    name,
    fixtures: {
      users: users.map((id) => ({ id })),
      ...(company ? { company_with_activities: company } : {}),
      custom_fields: {},
      project_statuses: [],
      contact_types: [],
      opportunities: opportunities.map((id) => ({ id })),
    },
    // What the spec says where the server shows nothing: bulk calls are limited (3 per second), 10 entries a request.
    capabilities: { heavy: false, extensions: {}, bulk_rate_limit: true, bulk_entries_limit: 10, webhook_delivery: true },
    oauth: { redirect_uris: ['{public}/oauth/callback'] },
  };
  const check = TargetProfile.safeParse(profile);
  if (!check.success) throw new Error(`the draft does not match the profile schema (a bug): ${check.error.message}`);
  if (!cfg.profileSource.startsWith('(none')) found.push(`(CRM_PROFILE=${cfg.profileSource} was not read into the draft)`);
  return { profile, fillIn: profile._fill_in, found };
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
