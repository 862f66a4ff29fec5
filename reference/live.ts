/**
 * Live mode (REFERENCE_LIVE=<operations a second>, REFERENCE_LIVE_SEED): the other users and
 * integrations of a shared, live account at work while the suite runs. A timer of the App (every
 * {@link LIVE_TICK_MS} ms, unref'd; the rate exact on average, fractions carried over) creates,
 * updates and deletes tasks, projects, people, companies, leads and opportunities, and announces
 * each change with `app.emit` as the area handlers do (the record as presented; an update also
 * the record before it), so the webhook subscriptions of the suite hear of others' records too.
 *
 * - What it touches: the records it created itself, and the seeded records that are no profile
 *   fixture (reference/profile.json names none of them, and no seeded activity or file hangs on
 *   them: the seeded tasks of reference/routes/tasks.ts). Never a record the client created, and
 *   never again one the client wrote to: every write stores a new object (upsert, relationship
 *   removal, the follow extension), so a record that is not the object live mode left is dropped.
 * - What it changes: task status (with completed_date), project status, lead status and status_id,
 *   an opportunity's stage, status, close_date and value; the followed flag of projects and tasks
 *   (as the follow extension does: no modification time, no notification); tags, owners
 *   (`assignee_id`: a user of the profile or none), due and reminder dates, names, details, the
 *   Region custom field, and a task's related_resource (one of its own projects or opportunities,
 *   or none). Every other change sets date_modified, as the update handlers do.
 * - Records from the factories of reference/model.ts (the members a change sets go through them
 *   too: tag order, empty strings, custom field order follow the open choices). Names and e-mails
 *   of its own (`Live task 17 (other user)`, `live-17@others.example`), tags of its own
 *   ({@link LIVE_TAGS}): never equal to the suite's namespaced ones, so no upsert of the suite
 *   matches a live lead.
 * - The mix: creates 30 %, updates 55 %, deletes 15 %, the kinds alike (an update or delete of a
 *   kind with none to touch creates one). At most {@link LIVE_MAX_PER_KIND} records per kind: a
 *   create beyond it first deletes the kind's oldest.
 * - The same seed draws the same operations (when they happen depends on the clock).
 * State per App (a WeakMap): reference/matrix.ts runs many servers in one process.
 */
import type { App, ReferenceOptions } from './app.js';
import { prng } from './choices.js';
import { normalizeCustomFields, type CustomFieldValue } from './custom-fields.js';
import { C, ENTITIES, LEAD_STATUSES, makeCompany, makeLead, makeOpportunity, makePerson, makeProject, makeTask, present, type Rec } from './model.js';
import { FIXTURES } from './profile.js';
import { CLOSE_DATE, parseCloseDate } from './routes/opportunities.js';
import { PIPELINES } from './routes/pipelines.js';
import { PROJECT_STATUSES } from './search.js';

/** Operations a second (`rate`) and the seed of the random operations (ReferenceOptions.live). */
export type LiveOptions = NonNullable<ReferenceOptions['live']>;

export const LIVE_TICK_MS = 50;
/** The most records of one kind live mode keeps. */
export const LIVE_MAX_PER_KIND = 300;
/** Tags other users put on their records. */
export const LIVE_TAGS = ['live-a', 'live-b', 'live-vip'] as const;
const CREATE_SHARE = 0.3;
const UPDATE_SHARE = 0.55;
const DAY = 86_400;
const DETAILS = ['Called back, waiting for an answer', 'Moved to next quarter', 'Updated by the sync integration', 'Needs a second look'];
const PRIORITIES = ['None', 'Low', 'Medium', 'High'];
const REGION = FIXTURES.custom_fields.dropdown;

export type LiveKind = 'tasks' | 'projects' | 'people' | 'companies' | 'leads' | 'opportunities';
export const LIVE_KINDS: readonly LiveKind[] = ['tasks', 'projects', 'people', 'companies', 'leads', 'opportunities'];

type Body = Record<string, unknown>;
type Patch = Partial<Rec>;
/** A record live mode may touch: the stored object as it left it, and its followed flag then. */
type Known = { rec: Rec; followed: boolean };

interface Live {
  app: App;
  rnd: () => number;
  /** The records live mode may touch, per kind, oldest first. */
  pools: Record<LiveKind, Map<number, Known>>;
  /** Counts up for names and e-mails. */
  serial: number;
  done: { create: number; update: number; delete: number };
}

/** A change other users make: the members to write (`shape` passes members of a body through the kind's factory). */
type Change = (l: Live, rec: Rec, shape: (b: Body) => Patch) => Patch;

/** What live mode does to one kind of record. */
interface KindOps {
  /** The record type of notifications. */
  type: string;
  /** The factory of reference/model.ts. */
  make: (app: App, b: Body) => Omit<Rec, 'id'>;
  /** The body of a new record, numbered `n`. */
  create: (l: Live, n: number) => Body;
  changes: readonly Change[];
  /** The follow extension's kinds: some are created followed. */
  followable?: boolean;
}

const pick = <T>(l: Live, xs: readonly T[]): T => xs[Math.floor(l.rnd() * xs.length)];
const chance = (l: Live, p: number): boolean => l.rnd() < p;
const owner = (l: Live): number | null => pick(l, [...FIXTURES.users.map((u) => u.id), null]);
const someTags = (l: Live): string[] => LIVE_TAGS.filter(() => chance(l, 0.35));
/** A moment between `from` and `to` days from now, in whole seconds. */
const daysFromNow = (l: Live, from: number, to: number): number => l.app.now() + Math.floor((from + l.rnd() * (to - from)) * DAY);
const liveName = (what: string, n: number): string => `Live ${what} ${n} (other user)`;
/** A close date as the bulk create answers it (`bulk.close-date`). */
const closeDate = (l: Live, t: number): string => CLOSE_DATE[l.app.choice('bulk.close-date')](parseCloseDate(t)!);

/** A task's related record: one of live mode's own projects or opportunities, or none. */
function relatedOf(l: Live): { id: number | null; type: string | null } {
  const kind = pick(l, ['projects', 'opportunities', undefined] as const);
  const ids = kind ? [...l.pools[kind].keys()] : [];
  return kind && ids.length ? { id: pick(l, ids), type: ENTITIES[kind].type } : { id: null, type: null };
}

/** Changes of every kind: owner, tags, details, name, the Region custom field. */
function commonChanges(what: string): Change[] {
  return [
    (l) => ({ assignee_id: owner(l) }),
    (l, _rec, shape) => shape({ tags: someTags(l) }),
    (l, _rec, shape) => shape({ details: pick(l, DETAILS) }),
    (l, _rec, shape) => shape({ name: liveName(what, ++l.serial) }),
    (l, rec) => ({
      custom_fields: normalizeCustomFields(
        [{ custom_field_definition_id: REGION.id, value: pick(l, REGION.options).id }],
        rec.custom_fields as CustomFieldValue[],
        l.app.choice('records.custom-field-order'),
      ),
    }),
  ];
}

const followToggle: Change = (_l, rec) => ({ _followed: !rec._followed });

const TASKS: KindOps = {
  type: 'task',
  make: makeTask,
  followable: true,
  create: (l, n) => {
    const due = chance(l, 0.7) ? daysFromNow(l, -5, 30) : null;
    return {
      name: liveName('task', n),
      status: chance(l, 0.2) ? 'Completed' : 'Open',
      priority: pick(l, PRIORITIES),
      due_date: due,
      reminder_date: due !== null && chance(l, 0.5) ? due - DAY : null,
      assignee_id: owner(l),
      related_resource: relatedOf(l),
      details: chance(l, 0.5) ? pick(l, DETAILS) : null,
      tags: someTags(l),
    };
  },
  changes: [
    ...commonChanges('task'),
    (l, rec) => (rec.status === 'Completed' ? { status: 'Open', completed_date: null } : { status: 'Completed', completed_date: l.app.now() }),
    followToggle,
    (l) => {
      const due = daysFromNow(l, -3, 30);
      return { due_date: due, reminder_date: chance(l, 0.5) ? due - DAY : null };
    },
    (l) => ({ related_resource: relatedOf(l) }),
    (l, _rec, shape) => shape({ priority: pick(l, PRIORITIES) }),
  ],
};

const PROJECTS: KindOps = {
  type: 'project',
  make: makeProject,
  followable: true,
  create: (l, n) => ({ name: liveName('project', n), assignee_id: owner(l), details: chance(l, 0.5) ? pick(l, DETAILS) : null, tags: someTags(l) }),
  changes: [
    ...commonChanges('project'),
    // A project is created Open (makeProject); its status changes later.
    (l, rec) => ({
      status: pick(
        l,
        PROJECT_STATUSES.filter((s) => s.name !== rec.status),
      ).name,
    }),
    followToggle,
  ],
};

const PEOPLE: KindOps = {
  type: 'person',
  make: makePerson,
  create: (l, n) => ({
    name: liveName('person', n),
    // Name parts given, so that `people.name-parts` has nothing to derive.
    first_name: 'Live',
    last_name: `Person ${n}`,
    emails: [{ email: `live-${n}@others.example`, category: 'work' }],
    assignee_id: owner(l),
    contact_type_id: pick(l, FIXTURES.contact_types).id,
    tags: someTags(l),
  }),
  changes: [
    ...commonChanges('person'),
    (l, _rec, shape) => shape({ title: pick(l, ['Buyer', 'Head of Sales', 'CTO']) }),
    (l) => ({ contact_type_id: pick(l, FIXTURES.contact_types).id }),
  ],
};

const COMPANIES: KindOps = {
  type: 'company',
  make: makeCompany,
  create: (l, n) => ({
    name: liveName('company', n),
    email_domain: 'others.example',
    assignee_id: owner(l),
    contact_type_id: pick(l, FIXTURES.contact_types).id,
    tags: someTags(l),
  }),
  changes: [...commonChanges('company'), (l) => ({ contact_type_id: pick(l, FIXTURES.contact_types).id })],
};

const LEADS: KindOps = {
  type: 'lead',
  make: makeLead,
  create: (l, n) => ({
    name: liveName('lead', n),
    email: { email: `live-${n}@others.example`, category: 'work' },
    assignee_id: owner(l),
    monetary_value: chance(l, 0.5) ? 1000 * (1 + Math.floor(l.rnd() * 50)) : null,
    tags: someTags(l),
  }),
  changes: [
    ...commonChanges('lead'),
    // A lead is created New (makeLead); its status moves on later.
    (l) => {
      const s = pick(l, LEAD_STATUSES);
      return { status: s.name, status_id: s.id };
    },
    (l, _rec, shape) => shape({ monetary_value: 1000 * (1 + Math.floor(l.rnd() * 50)) }),
  ],
};

const OPPORTUNITY_PIPELINES = PIPELINES.filter((p) => p.type === 'opportunity');

const OPPORTUNITIES: KindOps = {
  type: 'opportunity',
  make: makeOpportunity,
  create: (l, n) => {
    const pipeline = pick(l, OPPORTUNITY_PIPELINES);
    return {
      name: liveName('opportunity', n),
      pipeline_id: pipeline.id,
      pipeline_stage_id: pick(l, pipeline.stages).id,
      close_date: chance(l, 0.6) ? closeDate(l, daysFromNow(l, 0, 90)) : null,
      monetary_value: 1000 * (1 + Math.floor(l.rnd() * 100)),
      priority: pick(l, PRIORITIES),
      assignee_id: owner(l),
      tags: someTags(l),
    };
  },
  changes: [
    ...commonChanges('opportunity'),
    (l, rec) => {
      const stages = PIPELINES.find((p) => p.id === Number(rec.pipeline_id))?.stages ?? [];
      return stages.length ? { pipeline_stage_id: pick(l, stages).id } : { details: pick(l, DETAILS) };
    },
    (l, _rec, shape) => shape({ status: pick(l, ['Open', 'Won', 'Lost']) }),
    (l) => ({ close_date: closeDate(l, daysFromNow(l, 0, 90)) }),
    (l, _rec, shape) => shape({ monetary_value: 1000 * (1 + Math.floor(l.rnd() * 100)) }),
  ],
};

/** The operations of each kind: one place per kind. */
const KINDS: Record<LiveKind, KindOps> = {
  tasks: TASKS,
  projects: PROJECTS,
  people: PEOPLE,
  companies: COMPANIES,
  leads: LEADS,
  opportunities: OPPORTUNITIES,
};

const collection = (l: Live, kind: LiveKind) => l.app.store.collection<Rec>(C[kind]);
const known = (rec: Rec): Known => ({ rec, followed: !!rec._followed });

/** The record of the pool as live mode left it; undefined (and out of the pool for good) when it is gone or the client wrote to it. */
function current(l: Live, kind: LiveKind, id: number): Rec | undefined {
  const k = l.pools[kind].get(id);
  const rec = collection(l, kind).get(id);
  if (k && rec === k.rec && !!rec._followed === k.followed) return rec;
  l.pools[kind].delete(id);
  return undefined;
}

function create(l: Live, kind: LiveKind): void {
  const ops = KINDS[kind];
  const pool = l.pools[kind];
  while (pool.size >= LIVE_MAX_PER_KIND) remove(l, kind, pool.keys().next().value!);
  const rec = collection(l, kind).insert(ops.make(l.app, ops.create(l, ++l.serial)));
  if (ops.followable && chance(l, 0.3)) rec._followed = true; // before anyone has seen it
  pool.set(rec.id, known(rec));
  l.app.emit(ops.type, 'new', present(l.app, rec));
  l.done.create++;
}

/** One change of a record of the pool; false when the record is no longer live mode's to touch. */
function update(l: Live, kind: LiveKind, id: number): boolean {
  const rec = current(l, kind, id);
  if (!rec) return false;
  const ops = KINDS[kind];
  const shape = (b: Body): Patch => {
    const built = ops.make(l.app, b) as Body;
    return Object.fromEntries(Object.keys(b).map((k) => [k, built[k]]));
  };
  const change = pick(l, ops.changes)(l, rec, shape);
  // Following is no change of the record (the follow extension's way): no modification time, no notification.
  const quiet = Object.keys(change).every((k) => k.startsWith('_'));
  const next = collection(l, kind).update(id, quiet ? change : { ...change, date_modified: l.app.now() })!;
  l.pools[kind].set(id, known(next));
  if (!quiet) l.app.emit(ops.type, 'update', present(l.app, next), present(l.app, rec));
  l.done.update++;
  return true;
}

function remove(l: Live, kind: LiveKind, id: number): boolean {
  const rec = current(l, kind, id);
  if (!rec) return false;
  collection(l, kind).delete(id);
  l.pools[kind].delete(id);
  l.app.emit(KINDS[kind].type, 'delete', present(l.app, rec));
  l.done.delete++;
  return true;
}

/** One operation: a kind, then create, update or delete (a create when the kind has nothing to touch). */
function step(l: Live): void {
  const kind = pick(l, LIVE_KINDS);
  const r = l.rnd();
  const pool = l.pools[kind];
  if (r >= CREATE_SHARE && pool.size) {
    const id = pick(l, [...pool.keys()]);
    if (r < CREATE_SHARE + UPDATE_SHARE ? update(l, kind, id) : remove(l, kind, id)) return;
  }
  create(l, kind);
}

/**
 * The records live mode must never touch: those reference/profile.json names (the company with
 * activities, the attached file's record, the fixture opportunities), and every record a seeded
 * activity or file hangs on. As `collection:id`.
 */
function untouchable(app: App): Set<string> {
  const out = new Set<string>();
  const collectionOf = (type: unknown) => ENTITIES[String(type)]?.collection ?? Object.values(ENTITIES).find((e) => e.type === type)?.collection;
  const add = (type: unknown, id: unknown) => out.add(`${collectionOf(type)}:${Number(id)}`);
  add('companies', FIXTURES.company_with_activities.company_id);
  add(FIXTURES.attached_file.entity_type, FIXTURES.attached_file.entity_id);
  for (const o of FIXTURES.opportunities) add('opportunities', o.id);
  for (const a of app.store.collection<Rec>(C.activities).all()) add((a.parent as Rec).type, (a.parent as Rec).id);
  for (const f of app.store.collection<Rec>(C.files).all()) add(f._entity_type, f._entity_id);
  return out;
}

/** Live mode of an App: `start()` runs it at its rate; `step(n)` performs n operations at once (the self-tests). */
export interface LiveMode {
  readonly options: LiveOptions;
  start(): void;
  stop(): void;
  step(count: number): void;
  /** Operations performed so far. */
  done(): { create: number; update: number; delete: number };
  /** The records live mode may still touch, per kind. */
  population(): Record<LiveKind, number>;
}

const modes = new WeakMap<App, LiveMode>();

/** Live mode of this App, if it has one. */
export const liveOf = (app: App): LiveMode | undefined => modes.get(app);

/**
 * Live mode for an App whose fixtures are seeded and that no client has written to yet: its seeded
 * records that are no fixture join the pool now. Runs once `start()` is called.
 */
export function createLive(app: App, options: LiveOptions): LiveMode {
  if (modes.has(app)) throw new Error('this server already has a live mode');
  const l: Live = { app, rnd: prng(options.seed), pools: {} as Live['pools'], serial: 0, done: { create: 0, update: 0, delete: 0 } };
  const fixtures = untouchable(app);
  for (const kind of LIVE_KINDS) {
    l.pools[kind] = new Map(
      collection(l, kind)
        .filter((rec) => !fixtures.has(`${C[kind]}:${rec.id}`))
        .map((rec) => [rec.id, known(rec)]),
    );
  }
  let timer: NodeJS.Timeout | undefined;
  const mode: LiveMode = {
    options,
    start: () => {
      timer ??= run(l, options.rate, () => mode.stop());
    },
    stop: () => {
      clearInterval(timer);
      timer = undefined;
    },
    step: (count) => {
      for (let i = 0; i < count; i++) step(l);
    },
    done: () => ({ ...l.done }),
    population: () => Object.fromEntries(LIVE_KINDS.map((k) => [k, l.pools[k].size])) as Record<LiveKind, number>,
  };
  modes.set(app, mode);
  return mode;
}

/**
 * The timer: every tick performs the operations due since the start (rate × time elapsed, so the
 * rate is exact on average); more than a second behind (a busy process), the backlog is dropped
 * rather than run in one burst. An operation that throws stops live mode (the server goes on).
 */
function run(l: Live, rate: number, stop: () => void): NodeJS.Timeout {
  const since = performance.now();
  let performed = 0;
  const timer = setInterval(() => {
    const due = Math.floor((rate * (performance.now() - since)) / 1000);
    if (due - performed > rate) performed = due - Math.ceil(rate);
    try {
      for (; performed < due; performed++) step(l);
    } catch (err) {
      stop();
      console.error(`[reference] live mode stopped: ${(err as Error).stack ?? String(err)}`);
    }
  }, LIVE_TICK_MS);
  timer.unref();
  return timer;
}

/** The line a server prints at start in live mode (reference/main.ts, reference/matrix.ts): its rate and the seed that replays it. */
export const describeLive = (o: LiveOptions): string => `[reference] live     ${o.rate} operations a second by other users (REFERENCE_LIVE_SEED=${o.seed})`;
