/**
 * What a webhook notification is about, whatever its shape ("Payload of a notification: not
 * shown"): a record's id wherever it stands as its record's identifier, at any depth, not an
 * envelope's own ids ({@link identifies}, {@link concerns}); the secret's pairs nested anywhere,
 * at the top level or in a header ({@link missingSecretPairsIn}); custom field values.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ReceivedRequest } from './webhook-recording.js';

/** Every scalar of a JSON value. */
function scalars(v: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(v)) v.forEach((x) => scalars(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => scalars(x, out));
  else out.push(v);
  return out;
}

/** Every object of a JSON value, the value itself included. */
function objects(v: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(v)) v.forEach((x) => objects(x, out));
  else if (v && typeof v === 'object') {
    out.push(v as Record<string, unknown>);
    Object.values(v).forEach((x) => objects(x, out));
  }
  return out;
}

/** Does the payload name any of these values (a record id as number or string, a unique name) anywhere? */
export function mentions(payload: unknown, ...needles: unknown[]): boolean {
  const wanted = new Set(needles.filter((n) => n !== undefined && n !== null && n !== '').map(String));
  return scalars(payload).some((s) => (typeof s === 'string' || typeof s === 'number') && wanted.has(String(s)));
}

/** The record kinds of the spec, as a payload may name them (`type: "company"`, `kind: "company.new"`, `"companies"`). */
const KINDS = new Map([
  ['lead', 'lead'],
  ['leads', 'lead'],
  ['person', 'person'],
  ['people', 'person'],
  ['company', 'company'],
  ['companies', 'company'],
  ['opportunity', 'opportunity'],
  ['opportunities', 'opportunity'],
  ['project', 'project'],
  ['projects', 'project'],
  ['task', 'task'],
  ['tasks', 'task'],
]);

/** Members that name the kind of the object holding them (`type: "project"`, `kind: "project.new"`). */
const KIND_MEMBERS = new Set(['type', 'kind', 'entity', 'entity_type', 'object', 'object_type', 'resource_type', 'record_type', 'model']);
/** Members holding the identifier of the object (or, plural, of the records) they stand in. */
const ID_MEMBERS = new Set(['id', 'record_id', 'resource_id', 'object_id', 'entity_id']);
const IDS_MEMBERS = new Set(['ids', 'record_ids', 'resource_ids', 'object_ids', 'entity_ids']);
/**
 * Objects that are not the record, by the member that holds them: the envelope's own parts (the
 * subscription, the webhook, the delivery, the event and its attempts) and records the record
 * refers to (related_resource, parent, owner …). An `id` in one of them is theirs.
 */
const FOREIGN =
  /^(subscriptions?|webhooks?|hooks?|deliver(y|ies)|events?|attempts?|requests?|related(_resources?)?|relationships?|parents?|owners?|assignees?|creators?|authors?|users?|accounts?|links?|meta(data)?|trace)$/i;
/** Members of the top level that make it an envelope (whose own `id` is then not the record's). */
const ENVELOPE = /^((subscription|webhook|hook|delivery|event|notification)s?_?id|subscriptions?|webhooks?|deliver(y|ies)|notifications?)$/i;

/** Where an identifier stands in a payload: `data.records[].id` (array positions as `[]`). */
export interface IdentifierSlot {
  path: string;
  value: string;
  /** The kind of the object it identifies, as the payload names it (undefined: not named). */
  kind?: string;
}

const kindOf = (x: unknown) => (typeof x === 'string' ? KINDS.get(x.toLowerCase().split(/[.:/]/)[0]) : undefined);
const isScalarId = (x: unknown): x is string | number => typeof x === 'string' || typeof x === 'number';

/**
 * Every identifier of the payload that may be its record's, at any depth: the `id` (and `ids`)
 * members of objects that are not the envelope's own parts nor records the record refers to
 * ({@link FOREIGN}); the top level's own `id` only where the top level is no envelope (it names no
 * subscription, webhook, delivery or event, and holds no record of its own deeper down). Each with
 * the kind the payload names for it: the object's own `type`/`kind`, else an ancestor's, else the
 * member holding it (`projects: [...]`), else the one kind the payload names outside its
 * subscription (`event.type`: a subscription's type is what it asked for, not what happened).
 */
export function identifierSlots(payload: unknown): IdentifierSlot[] {
  const slots: (IdentifierSlot & { depth: number })[] = [];
  const elsewhere = new Set<string>();
  const visit = (v: unknown, path: string, owner: string | undefined, inherited: string | undefined, depth: number, foreign: boolean) => {
    if (Array.isArray(v)) return v.forEach((x) => visit(x, `${path}[]`, owner, inherited, depth, foreign));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const own = Object.entries(o)
      .filter(([k]) => KIND_MEMBERS.has(k.toLowerCase()))
      .map(([, x]) => kindOf(x))
      .find((k) => k !== undefined);
    const kind = own ?? inherited ?? (owner !== undefined ? KINDS.get(owner.toLowerCase()) : undefined);
    const theirs = owner !== undefined && FOREIGN.test(owner);
    if (own && !foreign && (!theirs || /^events?$/i.test(owner))) elsewhere.add(own);
    for (const [k, x] of Object.entries(o)) {
      const at = path ? `${path}.${k}` : k;
      if (!theirs && !foreign && ID_MEMBERS.has(k) && isScalarId(x)) slots.push({ path: at, value: String(x), kind, depth });
      else if (!theirs && !foreign && IDS_MEMBERS.has(k) && Array.isArray(x))
        x.filter(isScalarId).forEach((i) => slots.push({ path: `${at}[]`, value: String(i), kind, depth }));
      else if (x && typeof x === 'object') visit(x, at, k, theirs ? undefined : kind, depth + 1, foreign || theirs);
    }
  };
  visit(payload, '', undefined, undefined, 0, false);
  const only = elsewhere.size === 1 ? [...elsewhere][0] : undefined;
  const top = payload && typeof payload === 'object' && !Array.isArray(payload) ? Object.keys(payload) : [];
  const envelope = top.some((k) => ENVELOPE.test(k) || (k === 'event' && typeof (payload as Record<string, unknown>).event === 'object'));
  const deeper = slots.some((x) => x.depth > 0);
  return slots
    .filter((x) => !(x.depth === 0 && ID_MEMBERS.has(x.path) && (envelope || deeper)))
    .map(({ path, value, kind }) => ({ path, value, kind: kind ?? only }));
}

/**
 * The paths at which this record's id stands as its identifier (see {@link identifies}): learned
 * from a notification known to be about it, to read others of the same target.
 */
export function identityPaths(payload: unknown, id: unknown, kind: string): string[] {
  return [
    ...new Set(
      identifierSlots(payload)
        .filter((x) => x.value === String(id) && (x.kind === undefined || x.kind === kind))
        .map((x) => x.path),
    ),
  ];
}

/**
 * Does the payload carry this record, of this kind, as its identifier, wherever it stands? Where
 * {@link mentions} is too eager: ids of two kinds may be equal (a server counting each kind's ids
 * from 1), and a small id may equal any other number of the payload (a subscription id, a
 * delivery or event id of an envelope, a count). Only the identifiers that may be its record's
 * are read ({@link identifierSlots}): not those of the envelope's own parts, nor of records it
 * refers to; a payload that names another kind for it is about that kind. `at`: only the paths
 * learned from a notification of the same target ({@link identityPaths}).
 */
export function identifies(payload: unknown, id: unknown, kind: string, at?: readonly string[]): boolean {
  const paths = at?.length ? new Set(at) : undefined;
  return identifierSlots(payload).some((x) => x.value === String(id) && (x.kind === undefined || x.kind === kind) && (!paths || paths.has(x.path)));
}

/**
 * Is the notification about this record (for the waits of a test)? By its unique name anywhere,
 * else by its id as an identifier ({@link identifies}): a notification the suite cannot
 * attribute (a verification request, another record whose number happens to be equal) is not it.
 */
export function concerns(payload: unknown, rec: { id: unknown; name?: string }, kind: string): boolean {
  return (rec.name !== undefined && mentions(payload, rec.name)) || identifies(payload, rec.id, kind);
}

/**
 * The secret pairs a notification lacks, wherever it carries them (not shown): in its body, nested
 * or at the top level, or in a header whose value is a JSON object holding them.
 */
export function missingSecretPairsIn(r: ReceivedRequest, secret: Record<string, unknown>): string[] {
  const inHeaders: unknown[] = [];
  for (const v of Object.values(r.headers)) {
    if (!v.trimStart().startsWith('{')) continue;
    try {
      inHeaders.push(JSON.parse(v));
    } catch {
      /* not JSON */
    }
  }
  const missing = missingSecretPairs(r.body, secret);
  return missing.filter((k) => !inHeaders.some((h) => !missingSecretPairs(h, { [k]: secret[k] }).length));
}

/** The secret pairs the payload lacks: each pair must appear unchanged in some object of it (nested or top level). */
export function missingSecretPairs(payload: unknown, secret: Record<string, unknown>): string[] {
  const objs = objects(payload);
  return Object.entries(secret)
    .filter(([k, v]) => !objs.some((o) => Object.prototype.hasOwnProperty.call(o, k) && isDeepStrictEqual(o[k], v)))
    .map(([k]) => k);
}

/** The values of every custom field value entry of that definition found in the payload. */
export function customFieldValues(payload: unknown, definitionId: unknown): unknown[] {
  return objects(payload)
    .filter((o) => 'custom_field_definition_id' in o && String(o.custom_field_definition_id) === String(definitionId))
    .map((o) => o.value);
}
