/**
 * `crm-conformance doctor`: in seconds, before any test, checks the configuration and the target
 * profile against the target and prints one line per check, each failed line with how to fix it:
 * credentials (header and Bearer), each fixture of the profile found and of the right shape, each
 * extension answering, custom field fixtures usable, the receivers reachable from the target (a
 * webhook round trip through CRM_PUBLIC_URL), the OAuth login as the OAuth specs do it (in
 * Chromium, up to the consent screen: FAIL when the suite cannot log in), and
 * whether writes are allowed. FAIL lines are fatal: `crm-conformance run` does not start on one
 * (its short form prints only what is not OK). WARN lines are not.
 *
 * Writes (one project, tagged `crm-conformance-<run id>` and `crm-conformance-doctor`, carrying a
 * value of every custom field of the profile; a task through the create_task extension; a
 * follow and unfollow; one webhook subscription, deleted again) only when writes are allowed.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { z } from 'zod';
import {
  Account,
  ApiClient,
  Company,
  ConfigError,
  FileMetadata,
  Project,
  Recording,
  TransportError,
  findChromium,
  fixedPort,
  listen,
  loadConfig,
  redactText,
  tryOAuthLogin,
  type ApiResponse,
  type CustomFieldFixture,
  type TargetConfig,
} from './suite.js';

export type Status = 'ok' | 'warn' | 'fail' | 'skip';
export interface Line {
  check: string;
  status: Status;
  detail: string;
  fix?: string;
}
export interface DoctorReport {
  lines: Line[];
  fatal: boolean;
  ms: number;
  target?: string;
  /** Records the doctor created (tagged crm-conformance-<run id> and crm-conformance-doctor). */
  created?: { path: string; id: unknown }[];
}

/** Longest the doctor waits for the webhook notification of its probe record. */
export const WEBHOOK_DEADLINE_MS = 10_000;

const SLOT_TYPES: Record<string, CustomFieldFixture['data_type']> = { dropdown: 'Dropdown', multi_select: 'MultiSelect', text: 'String', number: 'Float' };

/** Secrets never reach a line (answers are quoted in them); before the configuration loads there are none to know. */
function safe(text: string): string {
  try {
    return redactText(text);
  } catch {
    return text;
  }
}

class Checks {
  readonly lines: Line[] = [];
  add(check: string, status: Status, detail: string, fix?: string): void {
    this.lines.push({ check, status, detail: safe(detail), ...(fix && status !== 'ok' && status !== 'skip' ? { fix: safe(fix) } : {}) });
  }
}

const ok2xx = (res: ApiResponse) => res.status >= 200 && res.status < 300;
const brief = (res: ApiResponse) => `${res.status}${res.text ? ` ${res.text.replace(/\s+/g, ' ').slice(0, 120)}` : ''}`;
const issues = (err: z.ZodError) =>
  err.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');

/** Sends, turning a transport failure into an answer-less result. */
async function attempt(fn: () => Promise<ApiResponse>): Promise<ApiResponse | { error: string }> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof TransportError) return { error: err.message.split('\n')[0] };
    throw err;
  }
}
const isError = (r: ApiResponse | { error: string }): r is { error: string } => 'error' in r;

function parseExtension(raw: string): { method: string; path: string } | undefined {
  const m = /^\s*([A-Z]+)\s+(\S+)\s*$/.exec(raw);
  return m ? { method: m[1], path: m[2] } : undefined;
}

/**
 * The receiver of the round trip: the suite's own recording server (resources/webhook-recording.ts)
 * on the local port CRM_PUBLIC_URL forwards to (the hub's rule), or an ephemeral loopback port.
 */
async function startReceiver(
  cfg: TargetConfig,
): Promise<{ url: string; port: number; hits: () => { path: string; body: string }[]; close: () => Promise<void> }> {
  const recording = new Recording(randomBytes(16).toString('hex'));
  const server: Server = createServer(recording.handle);
  const port = await listen(server, cfg.publicUrl ? fixedPort(cfg.publicUrl) : 0);
  const base = cfg.publicUrl ?? `http://127.0.0.1:${port}`;
  return {
    url: `${base}/hooks/doctor-${randomBytes(4).toString('hex')}/project-new`,
    port,
    hits: () => recording.requests('/').map((r) => ({ path: r.path, body: r.text })),
    close: () =>
      new Promise<void>((ok) => {
        recording.releaseAll();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** The configuration, or the lines that say why there is none. Writes not allowed ⇒ read-only checks. */
function configure(checks: Checks): { cfg: TargetConfig; writes: boolean } | undefined {
  try {
    const cfg = loadConfig();
    return { cfg, writes: cfg.allowWrites };
  } catch (first) {
    if (!(first instanceof ConfigError)) throw first;
    let err: ConfigError = first;
    if (/CRM_ALLOW_WRITES is not set/.test(err.message)) {
      process.env.CRM_ALLOW_WRITES = '1'; // this process only: the checks below stay read-only
      try {
        return { cfg: loadConfig(), writes: false };
      } catch (again) {
        if (!(again instanceof ConfigError)) throw again;
        err = again; // the second attempt's error is the one to report
      }
    }
    const message = err.message.replace(/^crm-conformance configuration error: /, '');
    const fix = /CRM_BASE_URL is not set/.test(message)
      ? 'set CRM_BASE_URL to your server (without CRM_BASE_URL, `crm-conformance run` tests the embedded reference server and needs no doctor)'
      : 'correct the variable or the profile named above';
    checks.add('configuration', 'fail', message, fix);
    return undefined;
  }
}

export async function runDoctor(): Promise<DoctorReport> {
  const started = Date.now();
  const checks = new Checks();
  const conf = configure(checks);
  if (!conf) return { lines: checks.lines, fatal: true, ms: Date.now() - started };
  const { cfg, writes } = conf;
  const profile = cfg.profile;
  checks.add('configuration', 'ok', `target ${cfg.baseUrl}; profile ${cfg.profileSource}`);
  if (writes)
    checks.add(
      'writes allowed',
      'ok',
      cfg.loopback ? 'loopback target: writes allowed' : 'CRM_ALLOW_WRITES=1: the run may create records (tagged, listed in reports/created-records.json)',
    );
  else {
    checks.add(
      'writes allowed',
      'fail',
      `${cfg.baseUrl} is not a loopback address and CRM_ALLOW_WRITES is not set: the suite refuses to run; the checks below do not write`,
      'set CRM_ALLOW_WRITES=1 once you accept that the run creates records on this account (each tagged crm-conformance-<run id>, listed in reports/created-records.json)',
    );
  }
  const api = new ApiClient(undefined, { honour429: true });
  // Loading the browser module takes seconds: started now, awaited at the end.
  const chromiumLookup = cfg.oauth.clientId
    ? findChromium(cfg.chromiumPath).catch((err: Error) => ({ path: undefined, searched: [`(lookup failed: ${err.message})`] }))
    : undefined;

  /* ---- credentials ---- */
  const c = cfg.credentials;
  const emails = profile.fixtures.users.map((u) => u.email).filter((e): e is string => !!e);
  let headerOk = false;
  let bearerOk = false;
  let unreachable: string | undefined;
  const probe = async (auth: 'header' | 'bearer') => attempt(() => api.get('/account', { auth }));
  const bearer = c.bearerToken ? await probe('bearer') : undefined;
  if (bearer && !isError(bearer)) bearerOk = ok2xx(bearer);
  if (c.accessToken) {
    const res = await probe('header');
    if (isError(res)) {
      unreachable = res.error;
      checks.add('target reachable', 'fail', res.error, `check CRM_BASE_URL (${cfg.baseUrl}): the API answers at ${cfg.apiUrl}`);
    } else if (ok2xx(res)) {
      headerOk = true;
      const parsed = Account.safeParse(res.body);
      checks.add(
        'header credentials',
        parsed.success ? 'ok' : 'warn',
        parsed.success
          ? `GET /account answers ${res.status} with the account of ${c.userEmail} (${(res.body as { name?: string }).name ?? 'unnamed'})`
          : `GET /account answers ${res.status} but not an Account: ${issues(parsed.error)}`,
        'the ACCOUNT tests will fail: see the spec § Account',
      );
    } else {
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
    }
  } else {
    checks.add('header credentials', 'skip', 'CRM_ACCESS_TOKEN is not set: the header-credential tests skip');
  }
  if (bearer) {
    if (isError(bearer)) {
      if (!unreachable) {
        unreachable = bearer.error;
        checks.add('target reachable', 'fail', bearer.error, `check CRM_BASE_URL (${cfg.baseUrl})`);
      }
    } else {
      checks.add(
        'Bearer token',
        bearerOk ? 'ok' : 'fail',
        bearerOk ? `GET /account with Authorization: Bearer answers ${bearer.status}` : `GET /account with Authorization: Bearer answers ${brief(bearer)}`,
        'set CRM_BEARER_TOKEN to an access token issued by the OAuth token endpoint, or unset it',
      );
    }
  } else {
    checks.add('Bearer token', 'skip', 'CRM_BEARER_TOKEN is not set: Bearer calls use the token of the OAuth handshake, when the OAuth specs run');
  }
  if (unreachable || (!headerOk && !bearerOk)) {
    checks.add('remaining checks', 'skip', 'not run: the target does not accept the credentials');
    return { lines: checks.lines, fatal: true, ms: Date.now() - started, target: cfg.baseUrl };
  }
  const client = headerOk ? api : api.with({ auth: 'bearer' });

  /* ---- fixtures ---- */
  const fx = profile.fixtures;
  if (!fx.users.length)
    checks.add(
      'fixture users',
      'warn',
      'the profile names no user: tests that set assignee_id skip',
      'add fixtures.users: [{ "id": <user id>, "email": "<e-mail>" }] (the spec has no user listing)',
    );
  else
    checks.add(
      'fixture users',
      emails.length && c.userEmail && !emails.some((e) => e.toLowerCase() === c.userEmail!.toLowerCase()) ? 'warn' : 'ok',
      `${fx.users.length} user(s): ${fx.users.map((u) => u.id).join(', ')} (ids cannot be checked: the spec has no user endpoint)`,
      `CRM_USER_EMAIL=${c.userEmail} is not among the users' e-mails: add its user to fixtures.users`,
    );

  if (fx.company_with_activities) {
    const { company_id, activity_types } = fx.company_with_activities;
    const res = await attempt(() => client.get(`/companies/${company_id}`));
    if (isError(res) || !ok2xx(res)) {
      checks.add(
        'fixture company_with_activities',
        'fail',
        `GET /companies/${company_id} answers ${isError(res) ? res.error : brief(res)}: no such company`,
        'set fixtures.company_with_activities.company_id to the id of a company of this account',
      );
    } else {
      const shape = Company.safeParse(res.body);
      const acts = await attempt(() => client.post(`/companies/${company_id}/activities`, { activity_types }));
      const list = !isError(acts) && ok2xx(acts) && Array.isArray(acts.body) ? (acts.body as { type?: { id?: unknown } }[]) : undefined;
      const seen = new Set((list ?? []).map((a) => String(a.type?.id)));
      const missing = activity_types.filter((t) => !seen.has(String(t.id)));
      if (!shape.success) checks.add('fixture company_with_activities', 'warn', `company ${company_id} found, but not a Company: ${issues(shape.error)}`);
      else if (!list)
        checks.add(
          'fixture company_with_activities',
          'fail',
          `POST /companies/${company_id}/activities answers ${isError(acts) ? acts.error : brief(acts)}`,
          'check fixtures.company_with_activities.activity_types: each { "id", "category" } of an activity type of the account',
        );
      else if (missing.length)
        checks.add(
          'fixture company_with_activities',
          'fail',
          `company ${company_id} has no activity of type ${missing.map((t) => `${t.id}/${t.category}`).join(', ')} (${list.length} activities of types ${[...seen].join(', ') || 'none'})`,
          'log activities of at least two types on the company, or list the types it has',
        );
      else
        checks.add(
          'fixture company_with_activities',
          'ok',
          `company ${company_id}: ${list.length} activities of types ${activity_types.map((t) => t.id).join(', ')}`,
        );
    }
  } else
    checks.add(
      'fixture company_with_activities',
      'warn',
      'not in the profile: the company activity tests skip',
      'add fixtures.company_with_activities { company_id, activity_types: [two { id, category }] }',
    );

  if (fx.attached_file) {
    const f = fx.attached_file;
    const path = `/${f.entity_type}/${f.entity_id}/files/${f.file_id}`;
    const res = await attempt(() => client.get(path));
    if (isError(res) || !ok2xx(res))
      checks.add(
        'fixture attached_file',
        'fail',
        `GET ${path} answers ${isError(res) ? res.error : brief(res)}: no such file`,
        'set fixtures.attached_file to a file attached to a record of this account ({ entity_type, entity_id, file_id })',
      );
    else {
      const shape = FileMetadata.safeParse(res.body);
      checks.add(
        'fixture attached_file',
        shape.success ? 'ok' : 'warn',
        shape.success ? `GET ${path} answers the file metadata` : `GET ${path} answers ${res.status} but not file metadata: ${issues(shape.error)}`,
      );
    }
  } else
    checks.add(
      'fixture attached_file',
      'warn',
      'not in the profile: the file metadata tests skip',
      'add fixtures.attached_file { entity_type, entity_id, file_id }',
    );

  const fields = Object.entries(fx.custom_fields).filter((e): e is [string, CustomFieldFixture] => !!e[1]);
  const usableFields: [string, CustomFieldFixture][] = [];
  for (const [slot, def] of fields) {
    const name = `custom field ${slot} (${def.id})`;
    const expected = SLOT_TYPES[slot];
    if (def.data_type !== expected) {
      checks.add(
        name,
        'fail',
        `data_type is ${def.data_type}; the ${slot} slot holds a ${expected} field`,
        `set fixtures.custom_fields.${slot} to a ${expected} definition (or move this one to the slot of its type)`,
      );
      continue;
    }
    if ((expected === 'Dropdown' || expected === 'MultiSelect') && def.options.length < 2) {
      checks.add(
        name,
        'fail',
        `${def.options.length} option(s): the tests need at least two`,
        `list the definition's options in fixtures.custom_fields.${slot}.options ([{ "id", "name" }])`,
      );
      continue;
    }
    const missingOn = ['project', 'task'].filter((t) => def.available_on.length && !def.available_on.includes(t));
    const filter =
      expected === 'Float'
        ? { custom_field_definition_id: def.id, minimum_value: -1e12, maximum_value: 1e12 }
        : { custom_field_definition_id: def.id, allow_empty: true };
    const res = await attempt(() => client.post('/projects/search', { page_size: 1, custom_fields: [filter] }));
    if (isError(res) || !ok2xx(res)) {
      checks.add(
        name,
        'fail',
        `POST /projects/search filtering on definition ${def.id} answers ${isError(res) ? res.error : brief(res)}: the target does not know this definition on projects`,
        `set fixtures.custom_fields.${slot}.id to a ${expected} custom field definition available on projects and tasks`,
      );
      continue;
    }
    usableFields.push([slot, def]);
    checks.add(
      name,
      missingOn.length ? 'warn' : 'ok',
      missingOn.length
        ? `available_on lacks ${missingOn.join(', ')}: the search tests on those skip`
        : `${expected}${def.options.length ? ` with ${def.options.length} options` : ''}, accepted in a project search filter`,
      `add ${missingOn.join(', ')} to available_on if the definition is available there`,
    );
  }
  if (!fields.length)
    checks.add(
      'custom fields',
      'warn',
      'the profile names no custom field: the custom field tests skip',
      'add fixtures.custom_fields { dropdown, multi_select, text, number }',
    );

  if (fx.lead_match_field)
    checks.add(
      'fixture lead_match_field',
      'ok',
      `definition ${fx.lead_match_field.definition_id} as match.field_name "${fx.lead_match_field.match_field_name}" (checked by the upsert tests: the match shape is not shown by the spec)`,
    );
  else
    checks.add(
      'fixture lead_match_field',
      'warn',
      'not in the profile: the custom-field upsert tests skip',
      'add fixtures.lead_match_field { definition_id, match_field_name }',
    );

  if (fx.project_statuses.length) {
    const res = await attempt(() => client.post('/projects/search', { page_size: 1, status_ids: fx.project_statuses.map((s) => s.id) }));
    checks.add(
      'fixture project_statuses',
      !isError(res) && ok2xx(res) ? 'ok' : 'fail',
      !isError(res) && ok2xx(res)
        ? `${fx.project_statuses.map((s) => `${s.id} ${s.name}`).join(', ')}: accepted as status_ids`
        : `POST /projects/search with status_ids ${fx.project_statuses.map((s) => s.id).join(', ')} answers ${isError(res) ? res.error : brief(res)}`,
      'set fixtures.project_statuses to the project status ids and names of the account',
    );
  } else checks.add('fixture project_statuses', 'warn', 'not in the profile: the status_ids search tests skip', 'add fixtures.project_statuses [{ id, name }]');

  if (fx.opportunities.length) {
    const res = await attempt(() => client.post('/tasks/search', { page_size: 1, opportunity_ids: fx.opportunities.map((o) => o.id) }));
    checks.add(
      'fixture opportunities',
      !isError(res) && ok2xx(res) ? 'ok' : 'fail',
      !isError(res) && ok2xx(res)
        ? `${fx.opportunities.map((o) => o.id).join(', ')} accepted as opportunity_ids (the spec has no GET /opportunities/{id})`
        : `POST /tasks/search with opportunity_ids answers ${isError(res) ? res.error : brief(res)}`,
      'set fixtures.opportunities to ids of opportunities of this account, or remove them (the tests then create their own)',
    );
  }

  /* ---- writes: a probe project (custom fields, webhook round trip), extensions ---- */
  const ext = profile.capabilities.extensions;
  const tag = `crm-conformance-${cfg.runId}`;
  if (!writes) {
    checks.add('receivers reachable', 'skip', 'needs a record created: writes are not allowed');
    if (ext.create_task || ext.follow) checks.add('extensions', 'skip', 'need writes: not allowed');
  } else {
    const delivery = profile.capabilities.webhook_delivery;
    let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
    let subscription: unknown;
    if (delivery) {
      try {
        receiver = await startReceiver(cfg);
      } catch (err) {
        checks.add(
          'receivers reachable',
          'fail',
          `the local receiver cannot listen: ${(err as Error).message}`,
          'set CRM_RECEIVER_PORT to a free local port that CRM_PUBLIC_URL forwards to',
        );
      }
      if (receiver) {
        const res = await attempt(() => client.post('/webhooks', { target: receiver!.url, type: 'project', event: 'new', secret: { doctor: tag } }));
        if (isError(res) || !ok2xx(res)) {
          checks.add(
            'receivers reachable',
            'fail',
            `POST /webhooks for ${receiver.url} answers ${isError(res) ? res.error : brief(res)}`,
            cfg.publicUrl
              ? 'CRM_PUBLIC_URL must be a URL the target accepts as a webhook target'
              : 'set CRM_PUBLIC_URL to an address at which the target reaches this machine',
          );
          await receiver.close();
          receiver = undefined;
        } else subscription = (res.body as { id?: unknown }).id;
      }
    } else checks.add('receivers reachable', 'skip', 'capabilities.webhook_delivery is false: the event tests skip');

    const name = `${tag} doctor ${randomBytes(3).toString('hex')}`;
    const customValues = usableFields.map(([, d]) => ({
      custom_field_definition_id: d.id,
      value:
        d.data_type === 'Dropdown'
          ? d.options[0].id
          : d.data_type === 'MultiSelect'
            ? [d.options[0].id]
            : d.data_type === 'Float'
              ? 42.5
              : 'crm-conformance doctor',
    }));
    const created = await attempt(() => client.post('/projects', { name, tags: [tag, 'crm-conformance-doctor'], custom_fields: customValues }));
    const projectId = !isError(created) && ok2xx(created) ? (created.body as { id?: unknown }).id : undefined;
    if (projectId === undefined) {
      checks.add(
        'probe project',
        'fail',
        `POST /projects answers ${isError(created) ? created.error : brief(created)}${customValues.length ? ' (with a value of each custom field of the profile)' : ''}`,
        customValues.length
          ? "a custom field of the profile is probably of another type on the target: check each definition's data_type"
          : 'the project tests need POST /projects (spec § Projects)',
      );
    } else if (!isError(created)) {
      const shape = Project.safeParse(created.body);
      const echoed = Array.isArray((created.body as { custom_fields?: unknown }).custom_fields)
        ? (created.body as { custom_fields: { custom_field_definition_id: unknown; value: unknown }[] }).custom_fields
        : [];
      for (const [slot, d] of usableFields) {
        const sent = customValues.find((v) => v.custom_field_definition_id === d.id)!.value;
        const got = echoed.find((e) => String(e.custom_field_definition_id) === String(d.id));
        const names = d.options.map((o) => o.name);
        const label = `custom field ${slot} (${d.id}) value`;
        if (!got) {
          checks.add(
            label,
            'fail',
            `the created project carries no value of definition ${d.id}: the target does not have it on projects`,
            `set fixtures.custom_fields.${slot} to a definition available on projects`,
          );
          continue;
        }
        const v = got.value;
        const fine =
          d.data_type === 'Dropdown'
            ? v === sent || names.includes(v as string)
            : d.data_type === 'MultiSelect'
              ? Array.isArray(v) && v.every((x) => x === d.options[0].id || x === d.options[0].name)
              : d.data_type === 'Float'
                ? typeof v === 'number'
                : typeof v === 'string';
        checks.add(
          label,
          fine ? 'ok' : 'fail',
          fine
            ? `${JSON.stringify(sent)} stored as ${JSON.stringify(v)}`
            : `sent ${JSON.stringify(sent)} (a ${d.data_type} value), got ${JSON.stringify(v)}: the definition is of another type on the target`,
          `set data_type (and options) of fixtures.custom_fields.${slot} to what definition ${d.id} is on the target`,
        );
      }
      checks.add(
        'probe project',
        shape.success ? 'ok' : 'warn',
        shape.success
          ? `project ${String(projectId)} created (tag ${tag})`
          : `project ${String(projectId)} created, but the answer is not a Project: ${issues(shape.error)}`,
      );
    }

    if (receiver) {
      const deadline = Date.now() + WEBHOOK_DEADLINE_MS;
      const mine = () =>
        receiver!.hits().find((h) => projectId !== undefined && (h.body.includes(name) || new RegExp(`\\b${String(projectId)}\\b`).test(h.body)));
      while (projectId !== undefined && !mine() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const hit = mine();
      const waited = Math.round((WEBHOOK_DEADLINE_MS - Math.max(0, deadline - Date.now())) / 100) / 10;
      if (projectId === undefined) checks.add('receivers reachable', 'skip', 'no probe record was created: nothing to be notified of');
      else if (hit) checks.add('receivers reachable', 'ok', `project/new notification received at ${receiver.url} in ${waited} s`);
      else
        checks.add(
          'receivers reachable',
          'fail',
          `no notification reached ${receiver.url} within ${WEBHOOK_DEADLINE_MS / 1000} s (${receiver.hits().length} other request(s) arrived on local port ${receiver.port})`,
          cfg.publicUrl
            ? `CRM_PUBLIC_URL must forward to local port ${receiver.port} (CRM_RECEIVER_PORT) of this machine and be reachable from the target; or set capabilities.webhook_delivery to false`
            : 'the target cannot reach 127.0.0.1 of this machine: set CRM_PUBLIC_URL (a tunnel or public address forwarding to CRM_RECEIVER_PORT)',
        );
      if (subscription !== undefined) await attempt(() => client.delete(`/webhooks/${encodeURIComponent(String(subscription))}`));
      await receiver.close();
    }

    /* extensions */
    const extensionLine = async (key: 'create_task' | 'follow', raw: string) => {
      const e = parseExtension(raw);
      const label = `extension ${key}`;
      if (!e) {
        checks.add(label, 'fail', `"${raw}" is not "METHOD /path"`, `write capabilities.extensions.${key} as e.g. "POST /tasks"`);
        return;
      }
      let path = e.path;
      let body: unknown = { name: `${tag} doctor task`, tags: [tag, 'crm-conformance-doctor'] };
      if (key === 'follow') {
        if (projectId === undefined) {
          checks.add(label, 'skip', 'no probe project to follow');
          return;
        }
        path = path.replace('{entity_type}', 'projects').replace('{entity_id}', String(projectId));
        body = undefined;
      }
      const res = await attempt(() => client.send({ method: e.method, path, body }));
      const fix = `the target does not offer ${raw}: remove capabilities.extensions.${key} from the profile (the affected tests then skip) or correct the path`;
      if (isError(res)) checks.add(label, 'fail', `${e.method} ${path}: ${res.error}`, fix);
      else if (!ok2xx(res)) checks.add(label, 'fail', `${e.method} ${path} answers ${brief(res)}`, fix);
      else {
        checks.add(label, 'ok', `${e.method} ${path} answers ${res.status}`);
        if (key === 'follow' && e.method === 'POST') await attempt(() => client.send({ method: 'DELETE', path }));
      }
    };
    if (ext.create_task) await extensionLine('create_task', ext.create_task);
    else checks.add('extension create_task', 'skip', 'not in the profile: the tests that need tasks search only what exists');
    if (ext.follow) await extensionLine('follow', ext.follow);
  }

  /* ---- OAuth pages and login ---- */
  const o = cfg.oauth;
  const found = chromiumLookup ? await chromiumLookup : undefined;
  if (!o.clientId) checks.add('OAuth pages', 'skip', 'CRM_CLIENT_ID is not set: the OAuth specs skip');
  else {
    const template = profile.oauth.redirect_uris[0] ?? '{public}/oauth/callback';
    const redirectFor = (receiverUrl: string) => template.replace('{public}', cfg.publicUrl ?? receiverUrl);
    const authorizeUrl = (receiverUrl: string) =>
      `${cfg.authUrl}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: o.clientId!, redirect_uri: redirectFor(receiverUrl), scope: 'developer/v1/all', state: 'crm-conformance-doctor' })}`;
    const redirect = redirectFor('http://127.0.0.1:8123');
    let url = authorizeUrl('http://127.0.0.1:8123');
    const raw = api.with({ auth: 'none' });
    let res: ApiResponse | { error: string } = { error: 'no request' };
    for (let hop = 0; hop < 5; hop++) {
      res = await attempt(() => raw.get(url));
      if (isError(res) || res.status < 300 || res.status >= 400 || !res.headers.location) break;
      url = new URL(res.headers.location, url).href;
    }
    const pagesOk = !isError(res) && ok2xx(res);
    if (isError(res))
      checks.add(
        'OAuth pages',
        'fail',
        `GET ${cfg.authUrl}/oauth/authorize: ${res.error}`,
        'check CRM_AUTH_URL (the authorization host; defaults to CRM_BASE_URL)',
      );
    else if (!ok2xx(res))
      checks.add(
        'OAuth pages',
        'fail',
        `GET ${cfg.authUrl}/oauth/authorize (redirect_uri ${redirect}) answers ${brief(res)}`,
        `register ${redirect} for client ${o.clientId} (profile oauth.redirect_uris; {public} stands for CRM_PUBLIC_URL) and check CRM_CLIENT_ID`,
      );
    else checks.add('OAuth pages', 'ok', `GET ${cfg.authUrl}/oauth/authorize (redirect_uri ${redirect}) answers ${res.status}`);
    await loginLine(checks, cfg, {
      pagesOk,
      browserPath: found?.path,
      authorizeUrl,
      callbackPath: new URL(redirectFor('http://x.invalid'), 'http://x.invalid').pathname,
    });
  }

  if (found) {
    checks.add(
      'browser for OAuth',
      found.path ? 'ok' : 'warn',
      found.path ? `Chromium at ${found.path}` : `no Chromium found (searched ${found.searched.join(', ')}): the OAuth browser specs skip`,
      'npx playwright install --only-shell chromium, or set CRM_CHROMIUM_PATH',
    );
  }

  const created = api.recorder.created.filter((c) => c.path !== '/webhooks' && !c.path.endsWith('/follow'));
  return { lines: checks.lines, fatal: checks.lines.some((l) => l.status === 'fail'), ms: Date.now() - started, target: cfg.baseUrl, created };
}

/**
 * The login as the OAuth specs do it (specs/support/oauth-page.ts), up to the consent screen:
 * FAIL when the suite cannot log in (the OAuth rules would not be judged), with the setting to
 * change; nothing is authorized.
 */
interface LoginTry {
  pagesOk: boolean;
  browserPath?: string;
  authorizeUrl: (receiverUrl: string) => string;
  callbackPath: string;
}
async function loginLine(checks: Checks, cfg: TargetConfig, x: LoginTry): Promise<void> {
  const o = cfg.oauth;
  const name = 'OAuth login';
  const missing = [
    ['CRM_CLIENT_SECRET', o.clientSecret],
    ['CRM_LOGIN_EMAIL', o.loginEmail],
    ['CRM_LOGIN_PASSWORD', o.loginPassword],
  ]
    .filter(([, v]) => !v)
    .map(([k]) => k!);
  if (missing.length) {
    checks.add(
      name,
      'warn',
      `CRM_CLIENT_ID is set but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not: the OAuth specs skip`,
      `set ${missing.join(' and ')} (a user who can log in on the authorization host), or unset CRM_CLIENT_ID`,
    );
    return;
  }
  if (!x.pagesOk) {
    checks.add(name, 'skip', 'not tried: the authorization request fails (above)');
    return;
  }
  if (!x.browserPath) {
    checks.add(name, 'skip', 'not tried: no browser (below)');
    return;
  }
  const profileNote = `(target profile: ${cfg.profileSource})`;
  let check: Awaited<ReturnType<typeof tryOAuthLogin>>;
  try {
    check = await tryOAuthLogin({
      executablePath: x.browserPath,
      https: cfg.callback.https,
      callbackPath: x.callbackPath,
      url: x.authorizeUrl,
      screens: cfg.profile.oauth.screens,
      email: o.loginEmail!,
      password: o.loginPassword!,
    });
  } catch (err) {
    checks.add(
      name,
      'fail',
      `the login could not be tried: ${(err as Error).message.split('\n')[0]}`,
      'check the browser (CRM_CHROMIUM_PATH) and CRM_AUTH_URL',
    );
    return;
  }
  const { outcome } = check;
  const where = new URL(cfg.authUrl).host;
  const overrides = Object.entries(cfg.profile.oauth.screens)
    .filter(([, v]) => v)
    .map(([k]) => `oauth.screens.${k}`);
  const how = overrides.length
    ? `controls found by what they are; the profile's ${overrides.join(', ')} take${overrides.length > 1 ? '' : 's'} precedence where ${overrides.length > 1 ? 'they match' : 'it matches'}`
    : 'controls found by what they are: no oauth.screens labels needed';
  if (outcome.cannotLogIn) {
    checks.add(
      name,
      'fail',
      `the suite cannot log in at ${where} as ${o.loginEmail}: ${outcome.cannotLogIn.problem}; the OAuth rules would not be judged`,
      `${outcome.cannotLogIn.fix} ${profileNote}`,
    );
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
    checks.add(
      name,
      'fail',
      `logged in as ${o.loginEmail}, but the consent screen shows no ${lacking} control (spec § OAuth 2.0, step 2: "with Authorize and Deny")`,
      `if the screen names them otherwise, set ${[!check.authorize && 'oauth.screens.authorize_button', !check.deny && 'oauth.screens.deny_button'].filter(Boolean).join(' and ')} to those names ${profileNote}`,
    );
  } else {
    checks.add(
      name,
      'ok',
      `${outcome.screens.includes('login') ? `logged in as ${o.loginEmail}` : 'no login asked'} at ${where}; the consent screen shows Authorize and Deny (${how})`,
    );
  }
}

const MARK: Record<Status, string> = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL', skip: 'skip' };

/** The table; the short form (start of a run) shows only what is not OK, and one summary line. */
export function formatReport(report: DoctorReport, options: { short?: boolean } = {}): string {
  const shown = options.short ? report.lines.filter((l) => l.status === 'fail' || l.status === 'warn') : report.lines;
  const width = Math.min(40, Math.max(0, ...shown.map((l) => l.check.length)));
  const out = shown.map((l) => `${MARK[l.status]}  ${l.check.padEnd(width)}  ${l.detail}${l.fix ? `\n${' '.repeat(width + 8)}fix: ${l.fix}` : ''}`);
  const count = (s: Status) => report.lines.filter((l) => l.status === s).length;
  out.push(
    `crm-conformance doctor${report.target ? ` (${report.target})` : ''}: ${count('ok')} ok, ${count('warn')} warning(s), ${count('fail')} failure(s), ${count('skip')} skipped in ${(report.ms / 1000).toFixed(1)} s${report.fatal ? ' — NOT READY' : ' — ready'}`,
  );
  return out.join('\n');
}

/** Set by `crm-conformance run` once its doctor passed, so that the run's global setup does not check again. */
export const DOCTOR_DONE_ENV = 'CRM_DOCTOR_DONE';

/**
 * The doctor's short form at the start of a run (for the suite's global setup): prints the lines
 * that are not OK and the summary, and throws when one is FAIL. Nothing to do for the embedded
 * reference server, or when `crm-conformance run` has just checked (CRM_DOCTOR_DONE=1).
 */
export async function preflight(): Promise<void> {
  if (process.env[DOCTOR_DONE_ENV] === '1' || process.env.CRM_EMBEDDED === '1') return;
  const report = await runDoctor();
  console.log(formatReport(report, { short: true }));
  if (report.fatal) throw new Error('crm-conformance: the run does not start: fix the FAIL lines above (`npx crm-conformance doctor` shows every check)');
}

export async function doctorCommand(args: string[]): Promise<number> {
  // A run id of its own: the tag of the probe records, and no state shared with other processes.
  process.env.CRM_RUN_ID ||= randomBytes(4).toString('hex');
  const report = await runDoctor();
  console.log(args.includes('--json') ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.fatal ? 1 : 0;
}
