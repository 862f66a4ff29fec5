/**
 * The doctor's checks that write, only when writes are allowed: one probe project (tagged
 * `crm-conformance-<run id>` and `crm-conformance-doctor`) carrying a value of every usable custom
 * field of the profile, each value read back; a webhook round trip from the target to the
 * receiver the run would use (subscribed before the project is created, deleted after); each
 * extension of the profile (a task through create_task; a follow and unfollow of the project).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Project, Recording, listen, type ApiResponse, type TargetConfig } from './suite.js';
import { accepted, attempt, isError, issues, told, type Probe } from './doctor-checks.js';
import type { UsableField } from './doctor-fixtures.js';

/** Longest the doctor waits for the webhook notification of its probe record. */
export const WEBHOOK_DEADLINE_MS = 10_000;

interface Receiver {
  url: string;
  port: number;
  hits: () => { path: string; body: string }[];
  close: () => Promise<void>;
}

/**
 * The receiver of the round trip: the suite's own recording server (resources/webhook-recording.ts)
 * on the local port the run's webhook receiver takes (CRM_RECEIVER_PORT, or the port CRM_PUBLIC_URL
 * forwards to), or an ephemeral loopback port.
 */
async function startReceiver(cfg: TargetConfig): Promise<Receiver> {
  const recording = new Recording(randomBytes(16).toString('hex'));
  const server: Server = createServer(recording.handle);
  const port = await listen(server, cfg.receivers.webhookPort ?? 0);
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

/** The receiver with a `project`/`new` subscription to it, or undefined (a FAIL line says why). */
async function subscribe({ checks, cfg, client }: Probe, tag: string): Promise<{ receiver: Receiver; subscription: unknown } | undefined> {
  let receiver: Receiver;
  try {
    receiver = await startReceiver(cfg);
  } catch (err) {
    const fix = cfg.publicUrl
      ? 'set CRM_RECEIVER_PORT to a free local port that CRM_PUBLIC_URL forwards to'
      : 'set CRM_RECEIVER_PORT to a free local port, or unset it';
    checks.add('receivers reachable', 'fail', `the local receiver cannot listen: ${(err as Error).message}`, fix);
    return undefined;
  }
  const res = await attempt(() => client.post('/webhooks', { target: receiver.url, type: 'project', event: 'new', secret: { doctor: tag } }));
  if (accepted(res)) return { receiver, subscription: (res.body as { id?: unknown }).id };
  checks.add(
    'receivers reachable',
    'fail',
    `POST /webhooks for ${receiver.url} answers ${told(res)}`,
    cfg.publicUrl
      ? 'CRM_PUBLIC_URL must be a URL the target accepts as a webhook target'
      : 'set CRM_PUBLIC_URL to an address at which the target reaches this machine',
  );
  await receiver.close();
  return undefined;
}

/** A value of each usable custom field, as the probe project carries it. */
const valueOf = (d: UsableField[1]): unknown =>
  d.data_type === 'Dropdown' ? d.options[0].id : d.data_type === 'MultiSelect' ? [d.options[0].id] : d.data_type === 'Float' ? 42.5 : 'crm-conformance doctor';

/** Each custom field value of the created project: stored as sent (an option may come back by its name). */
function valueLines({ checks }: Probe, created: ApiResponse, usable: UsableField[]): void {
  const body = created.body as { custom_fields?: unknown };
  const echoed = Array.isArray(body.custom_fields) ? (body.custom_fields as { custom_field_definition_id: unknown; value: unknown }[]) : [];
  for (const [slot, d] of usable) {
    const sent = valueOf(d);
    const got = echoed.find((e) => String(e.custom_field_definition_id) === String(d.id));
    const label = `custom field ${slot} (${d.id}) value`;
    if (!got) {
      const detail = `the created project carries no value of definition ${d.id}: the target does not have it on projects`;
      checks.add(label, 'fail', detail, `set fixtures.custom_fields.${slot} to a definition available on projects`);
      continue;
    }
    const v = got.value;
    const fine =
      d.data_type === 'Dropdown'
        ? v === sent || d.options.some((o) => o.name === v)
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
}

/** Creates the probe project; its id, or undefined (a FAIL line says why). */
async function probeProject(probe: Probe, tag: string, name: string, usable: UsableField[]): Promise<unknown> {
  const custom = usable.map(([, d]) => ({ custom_field_definition_id: d.id, value: valueOf(d) }));
  const created = await attempt(() => probe.client.post('/projects', { name, tags: [tag, 'crm-conformance-doctor'], custom_fields: custom }));
  const projectId = accepted(created) ? (created.body as { id?: unknown }).id : undefined;
  if (projectId === undefined || isError(created)) {
    probe.checks.add(
      'probe project',
      'fail',
      `POST /projects answers ${told(created)}${custom.length ? ' (with a value of each custom field of the profile)' : ''}`,
      custom.length
        ? "a custom field of the profile is probably of another type on the target: check each definition's data_type"
        : 'the project tests need POST /projects (spec § Projects)',
    );
    return undefined;
  }
  valueLines(probe, created, usable);
  const shape = Project.safeParse(created.body);
  probe.checks.add(
    'probe project',
    shape.success ? 'ok' : 'warn',
    shape.success
      ? `project ${String(projectId)} created (tag ${tag})`
      : `project ${String(projectId)} created, but the answer is not a Project: ${issues(shape.error)}`,
  );
  return projectId;
}

/** Waits for the probe project's notification at the receiver; then deletes the subscription and closes the receiver. */
async function notificationLine({ checks, cfg, client }: Probe, round: { receiver: Receiver; subscription: unknown }, name: string, projectId: unknown) {
  const { receiver, subscription } = round;
  const deadline = Date.now() + WEBHOOK_DEADLINE_MS;
  const mine = () => receiver.hits().find((h) => projectId !== undefined && (h.body.includes(name) || new RegExp(`\\b${String(projectId)}\\b`).test(h.body)));
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

function parseExtension(raw: string): { method: string; path: string } | undefined {
  const m = /^\s*([A-Z]+)\s+(\S+)\s*$/.exec(raw);
  return m ? { method: m[1], path: m[2] } : undefined;
}

/** One extension of the profile answers 2xx: a task through create_task; a follow (and unfollow) of the probe project. */
async function extensionLine({ checks, client }: Probe, key: 'create_task' | 'follow', raw: string, tag: string, projectId: unknown): Promise<void> {
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
  else if (!accepted(res)) checks.add(label, 'fail', `${e.method} ${path} answers ${told(res)}`, fix);
  else {
    checks.add(label, 'ok', `${e.method} ${path} answers ${res.status}`);
    if (key === 'follow' && e.method === 'POST') await attempt(() => client.send({ method: 'DELETE', path }));
  }
}

/** The checks that write (or, writes not allowed, the lines that say they did not run). */
export async function checkWrites(probe: Probe, writes: boolean, usable: UsableField[]): Promise<void> {
  const { checks, cfg } = probe;
  const ext = cfg.profile.capabilities.extensions;
  const tag = `crm-conformance-${cfg.runId}`;
  if (!writes) {
    checks.add('receivers reachable', 'skip', 'needs a record created: writes are not allowed');
    if (ext.create_task || ext.follow) checks.add('extensions', 'skip', 'need writes: not allowed');
    return;
  }
  const delivery = cfg.profile.capabilities.webhook_delivery;
  const round = delivery ? await subscribe(probe, tag) : undefined;
  if (!delivery) checks.add('receivers reachable', 'skip', 'capabilities.webhook_delivery is false: the event tests skip');
  const name = `${tag} doctor ${randomBytes(3).toString('hex')}`;
  const projectId = await probeProject(probe, tag, name, usable);
  if (round) await notificationLine(probe, round, name, projectId);
  if (ext.create_task) await extensionLine(probe, 'create_task', ext.create_task, tag, projectId);
  else checks.add('extension create_task', 'skip', 'not in the profile: the tests that need tasks search only what exists');
  if (ext.follow) await extensionLine(probe, 'follow', ext.follow, tag, projectId);
}
