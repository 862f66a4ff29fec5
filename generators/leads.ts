/**
 * A model of lead upsert and conversion (spec § Lead upsert, § Lead conversion) for
 * `fc.commands` + `fc.asyncModelRun`.
 *
 * Every run works on its own small pools of names, e-mails and custom-field values (three of
 * each, unique to the run, lower case and differing in more than case, so that the outcome never
 * depends on the case sensitivity of the match, which the spec leaves open). With so few values,
 * random upserts soon hit 0, 1 and 2..n matching Leads. The model predicts each answer:
 *
 * - no match → a new Lead (status New) with the properties sent; the member the upsert matched on,
 *   when `properties` does not set it, is null or the match value (a server may store the match
 *   value on the new Lead: "a new Lead is created from `properties`" does not forbid it), and the
 *   model goes on with what the server chose;
 * - one match → that Lead, updated with the properties sent, the rest unchanged;
 * - 2..30 matches → 422 carrying the ids of all the matches, and nothing written;
 * - more than 30 (the "crowd": 31 Leads of one name seeded once per test) → 422 without their ids;
 * - convert → a Person; the Lead is gone: converting it again fails, and its values match no more.
 *
 * Commands carry pool indexes, not values, so a counterexample reads the same in every run:
 * `upsert by email#1 {name#0, email#2, details "note 7"}`.
 */
import fc from 'fast-check';
import { Lead, Person, idsInBody, leakedIds, namesId } from '../contracts/index.js';

/** Values per pool. */
export const POOL_SIZE = 3;

export type MatchKind = 'name' | 'email' | 'ref';

export interface Answer {
  status: number;
  body: unknown;
}

/** The system under test as the commands see it (the spec wires it to the API client). */
export interface UpsertSystem {
  upsert(properties: Record<string, unknown>, match: { field_name: string; field_value: unknown }): Promise<Answer>;
  convert(leadId: unknown, details: Record<string, unknown>): Promise<Answer>;
  /** Throws an error with `message` and the evidence of the last exchange. */
  fail(message: string): never;
  /** The Lead custom field usable for matching (profile `lead_match_field`); absent ⇒ no `ref` commands. */
  refField?: { fieldName: string; definitionId: string | number };
}

export interface Pools {
  names: string[];
  emails: string[];
  refs: string[];
}

export interface ModelLead {
  id: string;
  name: string;
  email: string | null;
  ref: string | null;
  details: string | null;
}

export interface UpsertModel {
  pools: Pools;
  leads: ModelLead[];
  /** Ids of converted Leads. */
  converted: string[];
  /** 31 Leads sharing one name (seeded once per test). */
  crowd?: { name: string; ids: string[] };
}

/** Pools of one run: `prefix` makes them unique (namespace and run number). */
export function makePools(prefix: string): Pools {
  const p = prefix.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const idx = [...Array(POOL_SIZE).keys()];
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
  return {
    names: idx.map((i) => `${p} ${words[i]}`),
    emails: idx.map((i) => `${p}.${words[i]}@example.com`),
    refs: idx.map((i) => `${p}-ref-${words[i]}`),
  };
}

/**
 * What an upsert sends: pool indexes; `undefined` ⇒ the member is not sent. `name` is always sent:
 * a Lead has a name, and the outcome of a create without one (refused, or named by the match
 * value) is not fixed by the spec.
 */
export interface PropsSpec {
  name: number;
  email?: number;
  ref?: number;
  details?: string;
}

const poolIndex = fc.nat({ max: POOL_SIZE - 1 });
const note = fc.nat({ max: 999 }).map((n) => `note ${n}`);

export const propsSpec = (withRef: boolean): fc.Arbitrary<PropsSpec> =>
  fc.record(
    { name: poolIndex, email: poolIndex, ref: poolIndex, details: note },
    { requiredKeys: ['name'] },
  ).map((p) => (withRef ? p : { ...p, ref: undefined }));

const sameId = (a: unknown, b: unknown) => a !== undefined && a !== null && b !== undefined && b !== null && String(a) === String(b);
const is2xx = (s: number) => s >= 200 && s < 300;

function describeProps(p: PropsSpec): string {
  const parts = [`name#${p.name}`];
  if (p.email !== undefined) parts.push(`email#${p.email}`);
  if (p.ref !== undefined) parts.push(`ref#${p.ref}`);
  if (p.details !== undefined) parts.push(`details "${p.details}"`);
  return `{${parts.join(', ')}}`;
}

function buildProperties(p: PropsSpec, pools: Pools, r: UpsertSystem, tags: string[]): Record<string, unknown> {
  const props: Record<string, unknown> = { name: pools.names[p.name], tags };
  if (p.email !== undefined) props.email = { email: pools.emails[p.email], category: 'work' };
  if (p.ref !== undefined && r.refField) props.custom_fields = [{ custom_field_definition_id: r.refField.definitionId, value: pools.refs[p.ref] }];
  if (p.details !== undefined) props.details = p.details;
  return props;
}

/** The model's view of a Lead answer. */
function observe(body: unknown, r: UpsertSystem): Omit<ModelLead, 'id'> & { id: unknown; status: unknown } {
  const b = body as Record<string, unknown>;
  const email = (b.email as { email?: unknown } | null | undefined)?.email;
  const cf = Array.isArray(b.custom_fields) ? (b.custom_fields as { custom_field_definition_id?: unknown; value?: unknown }[]) : [];
  const ref = r.refField ? cf.find((c) => sameId(c.custom_field_definition_id, r.refField!.definitionId))?.value : undefined;
  return {
    id: b.id,
    status: b.status,
    name: b.name as string,
    email: typeof email === 'string' ? email : null,
    ref: typeof ref === 'string' ? ref : null,
    details: typeof b.details === 'string' ? b.details : null,
  };
}

function expectLead(a: Answer, r: UpsertSystem, what: string): void {
  if (!is2xx(a.status)) r.fail(`${what}: expected a 2xx answer with a Lead, got ${a.status}`);
  const parsed = Lead.safeParse(a.body);
  if (!parsed.success) r.fail(`${what}: the answer is not a Lead: ${parsed.error.issues.slice(0, 5).map((i) => `$.${i.path.join('.')}: ${i.message}`).join('; ')}`);
}

/** Upsert matching on a pool value (or on the crowd's name). */
export class UpsertCommand implements fc.AsyncCommand<UpsertModel, UpsertSystem> {
  constructor(readonly by: MatchKind | 'crowd', readonly index: number, readonly props: PropsSpec, readonly tags: string[] = []) {}

  check(m: Readonly<UpsertModel>): boolean {
    return this.by !== 'crowd' || !!m.crowd;
  }

  async run(m: UpsertModel, r: UpsertSystem): Promise<void> {
    const { pools } = m;
    const value = this.by === 'name' ? pools.names[this.index] : this.by === 'email' ? pools.emails[this.index] : this.by === 'ref' ? pools.refs[this.index] : m.crowd!.name;
    const fieldName = this.by === 'email' ? 'email' : this.by === 'ref' ? r.refField!.fieldName : 'name';
    const properties = buildProperties(this.props, pools, r, this.tags);
    const a = await r.upsert(properties, { field_name: fieldName, field_value: value });
    const what = `${this.toString()} (match ${fieldName} = "${value}")`;

    if (this.by === 'crowd') {
      if (a.status !== 422) r.fail(`${what}: ${m.crowd!.ids.length} Leads match, expected 422 without ids, got ${a.status}`);
      const leaked = leakedIds(a.body, m.crowd!.ids, a.status);
      if (leaked.length) r.fail(`${what}: more than 30 matches must answer 422 without the ids, but the body names ${leaked.length} of them (${leaked.slice(0, 5).join(', ')}…)`);
      return;
    }
    const matches = m.leads.filter((l) => l[this.by as MatchKind] === value);
    if (matches.length === 0) {
      expectLead(a, r, `${what}: no Lead matches, so a new Lead is created`);
      const got = observe(a.body, r);
      const known = [...m.leads.map((l) => l.id), ...m.converted];
      if (known.includes(String(got.id))) r.fail(`${what}: no Lead matches, expected a new Lead, got the existing id ${String(got.id)}`);
      if (got.status !== 'New') r.fail(`${what}: a Lead created by upsert has status New, got ${JSON.stringify(got.status)}`);
      const expected: ModelLead = {
        id: String(got.id),
        name: pools.names[this.props.name],
        email: this.props.email !== undefined ? pools.emails[this.props.email] : null,
        ref: this.props.ref !== undefined && r.refField ? pools.refs[this.props.ref] : null,
        details: this.props.details ?? null,
      };
      // The matched member, not set by properties: null, or the match value if the server stores it.
      const key: MatchKind = this.by;
      if (!setsMember(this.props, key, r)) {
        if (got[key] !== null && got[key] !== value) r.fail(`${what}: ${key} was not in properties, so the new Lead has ${key} null or the match value ${JSON.stringify(value)}; got ${JSON.stringify(got[key])}`);
        (expected as unknown as Record<MatchKind, string | null>)[key] = got[key];
      }
      compare(what, expected, got, r);
      m.leads.push(expected);
      return;
    }
    if (matches.length === 1) {
      expectLead(a, r, `${what}: exactly one Lead matches (${matches[0].id}), so it is updated`);
      const got = observe(a.body, r);
      const old = matches[0];
      if (!sameId(got.id, old.id)) r.fail(`${what}: exactly one Lead matches (${old.id}); expected it updated, got Lead ${String(got.id)}`);
      const expected: ModelLead = {
        id: old.id,
        name: pools.names[this.props.name],
        email: this.props.email !== undefined ? pools.emails[this.props.email] : old.email,
        ref: this.props.ref !== undefined && r.refField ? pools.refs[this.props.ref] : old.ref,
        details: this.props.details ?? old.details,
      };
      compare(what, expected, got, r);
      Object.assign(old, expected);
      return;
    }
    if (a.status !== 422) r.fail(`${what}: ${matches.length} Leads match (${matches.map((l) => l.id).join(', ')}), expected 422 with their ids, got ${a.status}`);
    const found = idsInBody(a.body);
    const missing = matches.filter((l) => !namesId(a.body, l.id, found)).map((l) => l.id);
    if (missing.length) r.fail(`${what}: the 422 must carry the ids of all ${matches.length} matching Leads; missing ${missing.join(', ')}`);
  }

  toString(): string {
    return `upsert by ${this.by === 'crowd' ? 'name of the crowd (31 Leads)' : `${this.by}#${this.index}`} ${describeProps(this.props)}`;
  }
}

/** Does the upsert's `properties` set the member a match of `kind` reads? */
export function setsMember(p: PropsSpec, kind: MatchKind, r: Pick<UpsertSystem, 'refField'>): boolean {
  if (kind === 'name') return true;
  if (kind === 'email') return p.email !== undefined;
  return p.ref !== undefined && !!r.refField;
}

function compare(what: string, expected: ModelLead, got: ReturnType<typeof observe>, r: UpsertSystem): void {
  for (const k of ['name', 'email', 'ref', 'details'] as const) {
    if (k === 'ref' && !r.refField) continue;
    if (expected[k] !== got[k]) r.fail(`${what}: ${k} of the answer is ${JSON.stringify(got[k])}, the model expects ${JSON.stringify(expected[k])}`);
  }
}

/** Converts a Lead of the model; it must be gone afterwards. */
export class ConvertCommand implements fc.AsyncCommand<UpsertModel, UpsertSystem> {
  constructor(readonly index: number) {}
  check(m: Readonly<UpsertModel>): boolean {
    return m.leads.length > 0;
  }
  async run(m: UpsertModel, r: UpsertSystem): Promise<void> {
    const lead = m.leads[this.index % m.leads.length];
    const personName = `${lead.name} person`;
    const a = await r.convert(lead.id, { person: { name: personName } });
    const what = `${this.toString()} (Lead ${lead.id})`;
    if (!is2xx(a.status)) r.fail(`${what}: the Lead exists, expected the conversion to succeed, got ${a.status}`);
    const b = (a.body ?? {}) as Record<string, unknown>;
    const person = Person.safeParse(b.person);
    if (!person.success) r.fail(`${what}: the answer's person is not a Person: ${person.error.issues.slice(0, 5).map((i) => `$.person.${i.path.join('.')}: ${i.message}`).join('; ')}`);
    if (person.data!.name !== personName) r.fail(`${what}: person.name is ${JSON.stringify(person.data!.name)}, sent ${JSON.stringify(personName)}`);
    if (b.opportunity !== undefined && b.opportunity !== null) r.fail(`${what}: no opportunity was asked for, yet the answer carries one`);
    m.leads = m.leads.filter((l) => l !== lead);
    m.converted.push(lead.id);
  }
  toString(): string {
    return `convert lead#${this.index}`;
  }
}

/** Converts an already converted Lead again: it no longer exists, so this fails. */
export class ConvertAgainCommand implements fc.AsyncCommand<UpsertModel, UpsertSystem> {
  constructor(readonly index: number) {}
  check(m: Readonly<UpsertModel>): boolean {
    return m.converted.length > 0;
  }
  async run(m: UpsertModel, r: UpsertSystem): Promise<void> {
    const id = m.converted[this.index % m.converted.length];
    const a = await r.convert(id, { person: { name: `again ${id}` } });
    if (is2xx(a.status)) r.fail(`${this.toString()} (Lead ${id}): the Lead was converted already and no longer exists, yet converting it again answered ${a.status}`);
  }
  toString(): string {
    return `convert converted#${this.index} again`;
  }
}

/** The command arbitraries; `withRef` adds matching on the profile's Lead custom field. */
export function upsertCommands(options: { withRef: boolean; tags: string[] }): fc.Arbitrary<fc.AsyncCommand<UpsertModel, UpsertSystem>>[] {
  const props = propsSpec(options.withRef);
  const kinds: MatchKind[] = options.withRef ? ['name', 'email', 'ref'] : ['name', 'email'];
  return [
    ...kinds.map((by) => fc.tuple(poolIndex, props).map(([i, p]) => new UpsertCommand(by, i, p, options.tags))),
    fc.tuple(poolIndex, props).map(([i, p]) => new UpsertCommand('crowd', i, p, options.tags)),
    fc.nat({ max: 20 }).map((i) => new ConvertCommand(i)),
    fc.nat({ max: 20 }).map((i) => new ConvertAgainCommand(i)),
  ];
}
