/**
 * The doctor's checks of the profile's fixtures, read-only: the users (which the spec cannot
 * list), the company with activities, the attached file, each custom field (of its slot's type,
 * with options where it needs them, accepted in a search filter), the lead match field, the
 * project statuses and the opportunities (accepted as search criteria).
 */
import { Company, FileMetadata, type CustomFieldFixture } from './suite.js';
import { accepted, attempt, issues, told, type Probe } from './doctor-checks.js';
import { addFix } from './profile-fields.js';

const SLOT_TYPES: Record<string, CustomFieldFixture['data_type']> = { dropdown: 'Dropdown', multi_select: 'MultiSelect', text: 'String', number: 'Float' };

/** A custom field of the profile that passed its checks: its slot and definition. */
export type UsableField = [string, CustomFieldFixture];

function usersLine({ checks, cfg }: Probe): void {
  const users = cfg.profile.fixtures.users;
  const email = cfg.credentials.userEmail;
  const emails = users.map((u) => u.email).filter((e): e is string => !!e);
  if (!users.length) {
    checks.add('fixture users', 'warn', 'the profile names no user: tests that set assignee_id skip', addFix('fixtures.users'));
    return;
  }
  checks.add(
    'fixture users',
    emails.length && email && !emails.some((e) => e.toLowerCase() === email.toLowerCase()) ? 'warn' : 'ok',
    `${users.length} user(s): ${users.map((u) => u.id).join(', ')} (ids cannot be checked: the spec has no user endpoint)`,
    `CRM_USER_EMAIL=${email} is not among the users' e-mails: add its user to fixtures.users`,
  );
}

async function companyLine({ checks, cfg, client }: Probe): Promise<void> {
  const name = 'fixture company_with_activities';
  const fixture = cfg.profile.fixtures.company_with_activities;
  if (!fixture) {
    checks.add(name, 'warn', 'not in the profile: the company activity tests skip', addFix('fixtures.company_with_activities'));
    return;
  }
  const { company_id, activity_types } = fixture;
  const res = await attempt(() => client.get(`/companies/${company_id}`));
  if (!accepted(res)) {
    checks.add(
      name,
      'fail',
      `GET /companies/${company_id} answers ${told(res)}: no such company`,
      'set fixtures.company_with_activities.company_id to the id of a company of this account',
    );
    return;
  }
  const shape = Company.safeParse(res.body);
  const acts = await attempt(() => client.post(`/companies/${company_id}/activities`, { activity_types }));
  const list = accepted(acts) && Array.isArray(acts.body) ? (acts.body as { type?: { id?: unknown } }[]) : undefined;
  const seen = new Set((list ?? []).map((a) => String(a.type?.id)));
  const missing = activity_types.filter((t) => !seen.has(String(t.id)));
  if (!shape.success) checks.add(name, 'warn', `company ${company_id} found, but not a Company: ${issues(shape.error)}`);
  else if (!list)
    checks.add(
      name,
      'fail',
      `POST /companies/${company_id}/activities answers ${told(acts)}`,
      'check fixtures.company_with_activities.activity_types: each { "id", "category" } of an activity type of the account',
    );
  else if (missing.length)
    checks.add(
      name,
      'fail',
      `company ${company_id} has no activity of type ${missing.map((t) => `${t.id}/${t.category}`).join(', ')} (${list.length} activities of types ${[...seen].join(', ') || 'none'})`,
      'log activities of at least two types on the company, or list the types it has',
    );
  else checks.add(name, 'ok', `company ${company_id}: ${list.length} activities of types ${activity_types.map((t) => t.id).join(', ')}`);
}

async function attachedFileLine({ checks, cfg, client }: Probe): Promise<void> {
  const f = cfg.profile.fixtures.attached_file;
  if (!f) {
    checks.add('fixture attached_file', 'warn', 'not in the profile: the file metadata tests skip', addFix('fixtures.attached_file'));
    return;
  }
  const path = `/${f.entity_type}/${f.entity_id}/files/${f.file_id}`;
  const res = await attempt(() => client.get(path));
  if (!accepted(res)) {
    checks.add(
      'fixture attached_file',
      'fail',
      `GET ${path} answers ${told(res)}: no such file`,
      'set fixtures.attached_file to a file attached to a record of this account ({ entity_type, entity_id, file_id })',
    );
    return;
  }
  const shape = FileMetadata.safeParse(res.body);
  checks.add(
    'fixture attached_file',
    shape.success ? 'ok' : 'warn',
    shape.success ? `GET ${path} answers the file metadata` : `GET ${path} answers ${res.status} but not file metadata: ${issues(shape.error)}`,
  );
}

/** One custom field of the profile: of its slot's type, with two options where it needs them, accepted in a project search filter. */
async function customFieldLine({ checks, client }: Probe, slot: string, def: CustomFieldFixture): Promise<boolean> {
  const name = `custom field ${slot} (${def.id})`;
  const expected = SLOT_TYPES[slot];
  if (def.data_type !== expected) {
    const fix = `set fixtures.custom_fields.${slot} to a ${expected} definition (or move this one to the slot of its type)`;
    checks.add(name, 'fail', `data_type is ${def.data_type}; the ${slot} slot holds a ${expected} field`, fix);
    return false;
  }
  if ((expected === 'Dropdown' || expected === 'MultiSelect') && def.options.length < 2) {
    const fix = `list the definition's options in fixtures.custom_fields.${slot}.options ([{ "id", "name" }])`;
    checks.add(name, 'fail', `${def.options.length} option(s): the tests need at least two`, fix);
    return false;
  }
  const missingOn = ['project', 'task'].filter((t) => def.available_on.length && !def.available_on.includes(t));
  const filter =
    expected === 'Float'
      ? { custom_field_definition_id: def.id, minimum_value: -1e12, maximum_value: 1e12 }
      : { custom_field_definition_id: def.id, allow_empty: true };
  const res = await attempt(() => client.post('/projects/search', { page_size: 1, custom_fields: [filter] }));
  if (!accepted(res)) {
    checks.add(
      name,
      'fail',
      `POST /projects/search filtering on definition ${def.id} answers ${told(res)}: the target does not know this definition on projects`,
      `set fixtures.custom_fields.${slot}.id to a ${expected} custom field definition available on projects and tasks`,
    );
    return false;
  }
  checks.add(
    name,
    missingOn.length ? 'warn' : 'ok',
    missingOn.length
      ? `available_on lacks ${missingOn.join(', ')}: the search tests on those skip`
      : `${expected}${def.options.length ? ` with ${def.options.length} options` : ''}, accepted in a project search filter`,
    `add ${missingOn.join(', ')} to available_on if the definition is available there`,
  );
  return true;
}

/** The lead match field (which no request can check), the project statuses and the opportunities (accepted as search criteria). */
async function criteriaLines({ checks, cfg, client }: Probe): Promise<void> {
  const fx = cfg.profile.fixtures;
  if (fx.lead_match_field)
    checks.add(
      'fixture lead_match_field',
      'ok',
      `definition ${fx.lead_match_field.definition_id} as match.field_name "${fx.lead_match_field.match_field_name}" (checked by the upsert tests: the match shape is not shown by the spec)`,
    );
  else checks.add('fixture lead_match_field', 'warn', 'not in the profile: the custom-field upsert tests skip', addFix('fixtures.lead_match_field'));

  if (fx.project_statuses.length) {
    const res = await attempt(() => client.post('/projects/search', { page_size: 1, status_ids: fx.project_statuses.map((s) => s.id) }));
    checks.add(
      'fixture project_statuses',
      accepted(res) ? 'ok' : 'fail',
      accepted(res)
        ? `${fx.project_statuses.map((s) => `${s.id} ${s.name}`).join(', ')}: accepted as status_ids`
        : `POST /projects/search with status_ids ${fx.project_statuses.map((s) => s.id).join(', ')} answers ${told(res)}`,
      'set fixtures.project_statuses to the project status ids and names of the account',
    );
  } else checks.add('fixture project_statuses', 'warn', 'not in the profile: the status_ids search tests skip', addFix('fixtures.project_statuses'));

  if (fx.opportunities.length) {
    const res = await attempt(() => client.post('/tasks/search', { page_size: 1, opportunity_ids: fx.opportunities.map((o) => o.id) }));
    checks.add(
      'fixture opportunities',
      accepted(res) ? 'ok' : 'fail',
      accepted(res)
        ? `${fx.opportunities.map((o) => o.id).join(', ')} accepted as opportunity_ids (the spec has no GET /opportunities/{id})`
        : `POST /tasks/search with opportunity_ids answers ${told(res)}`,
      'set fixtures.opportunities to ids of opportunities of this account, or remove them (the tests then create their own)',
    );
  }
}

/** Checks every fixture of the profile; the custom fields that passed (the probe project carries a value of each). */
export async function checkFixtures(probe: Probe): Promise<UsableField[]> {
  usersLine(probe);
  await companyLine(probe);
  await attachedFileLine(probe);
  const fields = Object.entries(probe.cfg.profile.fixtures.custom_fields).filter((e): e is UsableField => !!e[1]);
  const usable: UsableField[] = [];
  for (const [slot, def] of fields) if (await customFieldLine(probe, slot, def)) usable.push([slot, def]);
  if (!fields.length)
    probe.checks.add('custom fields', 'warn', 'the profile names no custom field: the custom field tests skip', addFix('fixtures.custom_fields'));
  await criteriaLines(probe);
  return usable;
}
