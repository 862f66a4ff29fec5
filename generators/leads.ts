/**
 * A model of lead upsert and conversion (spec § Lead upsert, § Lead conversion) for
 * `fc.commands` + `fc.asyncModelRun`.
 *
 * Every run works on its own small pools of names, e-mails and custom-field values (three of
 * each, unique to the run, lower case and differing in more than case, so that the outcome never
 * depends on the case sensitivity of the match, which the spec leaves open; names and notes as real
 * users write them, outside ASCII: generators/real-text.ts). With so few values,
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
 * `upsert by email#1 {name#0, email#2, details "Søren: levering før jul, Ærø (7)"}`.
 *
 * Each failure names the rules whose prediction broke (`fail(message, rules)`: the spec appends
 * `[breaks …]`, specs/support/core/attribution.ts), so that the report credits a Lead left behind
 * by a conversion to CONVERT-2, not to every upsert rule this model covers. A state that
 * diverged earlier is named by what explains it: an answer naming a converted Lead is CONVERT-2
 * (CONVERT-15 on an e-mail match), a Lead an earlier 422 listed that changed is UPSERT-13 too.
 */
import fc from 'fast-check';
import { Lead, Person, idsInBody, leakedIds, namesId } from '../contracts/index.js';
import { wireProblems } from '../contracts/lists.js';
import { freeText } from './arbitraries.js';
import { REAL_NAMES } from './real-text.js';

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
  /** Throws an error with `message`, the rules whose prediction broke and the evidence of the last exchange. */
  fail(message: string, rules?: string[]): never;
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
  /** Ids of Leads an upsert answered 422 about (UPSERT-13: nothing was written to them). */
  ambiguous?: string[];
}

/** The match criterion's own rule: name UPSERT-7, e-mail UPSERT-8, custom field UPSERT-9. */
const CRITERION: Record<MatchKind, string> = { name: 'UPSERT-7', email: 'UPSERT-8', ref: 'UPSERT-9' };

/**
 * The rules that explain an answer naming `ids` the model does not expect: a converted Lead
 * (it still exists: CONVERT-2; matched by e-mail: CONVERT-15), a Lead an earlier 422 was about
 * (it was written after all: UPSERT-13). Empty: none of them.
 */
function explained(m: Readonly<UpsertModel>, ids: unknown[], by: MatchKind | 'crowd'): string[] {
  const named = ids.filter((i) => i !== undefined && i !== null).map(String);
  const out: string[] = [];
  if (named.some((i) => m.converted.includes(i))) out.push(by === 'email' ? 'CONVERT-15' : 'CONVERT-2');
  if (named.some((i) => m.ambiguous?.includes(i))) out.push('UPSERT-13');
  return out;
}

/** Pools of one run: `prefix` makes them unique (namespace and run number). */
export function makePools(prefix: string): Pools {
  const p = prefix.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const idx = [...Array(POOL_SIZE).keys()];
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
  // Names as real users write them (outside ASCII, beyond the BMP, with spaces), in lower case.
  return {
    names: idx.map((i) => `${p} ${REAL_NAMES[i % REAL_NAMES.length].toLowerCase()}`),
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
/** Free text as real users write it (generators/real-text.ts), numbered so that two notes seldom agree. */
const note = fc.tuple(freeText(), fc.nat({ max: 999 })).map(([text, n]) => `${text} (${n})`);

export const propsSpec = (withRef: boolean): fc.Arbitrary<PropsSpec> =>
  fc
    .record({ name: poolIndex, email: poolIndex, ref: poolIndex, details: note }, { requiredKeys: ['name'] })
    .map((p) => (withRef ? p : { ...p, ref: undefined }));

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

/** `rules`: what a refusal breaks; a refusal naming Leads the model does not expect is named by {@link explained}. */
function expectLead(a: Answer, r: UpsertSystem, what: string, m: Readonly<UpsertModel>, by: MatchKind, rules: string[]): void {
  if (!is2xx(a.status)) {
    const ghosts = a.status === 422 ? explained(m, [...idsInBody(a.body)], by) : [];
    r.fail(`${what}: expected a 2xx answer with a Lead, got ${a.status}`, ghosts.length ? ghosts : rules);
  }
  const parsed = Lead.safeParse(a.body);
  if (!parsed.success)
    r.fail(
      `${what}: the answer is not a Lead: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => `$.${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
      ['UPSERT-11'],
    );
}

/** Upsert matching on a pool value (or on the crowd's name). */
export class UpsertCommand implements fc.AsyncCommand<UpsertModel, UpsertSystem> {
  constructor(
    readonly by: MatchKind | 'crowd',
    readonly index: number,
    readonly props: PropsSpec,
    readonly tags: string[] = [],
  ) {}

  check(m: Readonly<UpsertModel>): boolean {
    return this.by !== 'crowd' || !!m.crowd;
  }

  async run(m: UpsertModel, r: UpsertSystem): Promise<void> {
    const { pools } = m;
    const value =
      this.by === 'name'
        ? pools.names[this.index]
        : this.by === 'email'
          ? pools.emails[this.index]
          : this.by === 'ref'
            ? pools.refs[this.index]
            : m.crowd!.name;
    const fieldName = this.by === 'email' ? 'email' : this.by === 'ref' ? r.refField!.fieldName : 'name';
    const properties = buildProperties(this.props, pools, r, this.tags);
    const a = await r.upsert(properties, { field_name: fieldName, field_value: value });
    const what = `${this.toString()} (match ${fieldName} = "${value}")`;

    if (this.by === 'crowd') return this.crowdAnswer(m, r, a, what);
    const by: MatchKind = this.by;
    const matches = m.leads.filter((l) => l[by] === value);
    if (matches.length === 0) return this.created(m, r, a, what, by, value);
    if (matches.length === 1) return this.updated(m, r, a, what, by, matches[0]);
    this.ambiguousAnswer(m, r, a, what, matches);
  }

  /** More than 30 Leads match (the crowd): 422 without their ids (UPSERT-5). */
  private crowdAnswer(m: UpsertModel, r: UpsertSystem, a: Answer, what: string): void {
    if (a.status !== 422) r.fail(`${what}: ${m.crowd!.ids.length} Leads match, expected 422 without ids, got ${a.status}`, ['UPSERT-5']);
    const leaked = leakedIds(a.body, m.crowd!.ids, a.status);
    if (leaked.length)
      r.fail(`${what}: more than 30 matches must answer 422 without the ids, but the body names ${leaked.length} of them (${leaked.slice(0, 5).join(', ')}…)`, [
        'UPSERT-5',
      ]);
  }

  /** No Lead matches: a new Lead, status New, with the properties sent (UPSERT-2, UPSERT-6). */
  private created(m: UpsertModel, r: UpsertSystem, a: Answer, what: string, by: MatchKind, value: string): void {
    const { pools } = m;
    expectLead(a, r, `${what}: no Lead matches, so a new Lead is created`, m, by, ['UPSERT-2']);
    const got = observe(a.body, r);
    const known = [...m.leads.map((l) => l.id), ...m.converted];
    if (known.includes(String(got.id))) {
      const converted = m.converted.includes(String(got.id));
      r.fail(`${what}: no Lead matches, expected a new Lead, got the existing id ${String(got.id)}${converted ? ', a converted Lead' : ''}`, [
        ...explained(m, [got.id], by),
        ...(converted ? [] : ['UPSERT-2']),
      ]);
    }
    if (got.status !== 'New') r.fail(`${what}: a Lead created by upsert has status New, got ${JSON.stringify(got.status)}`, ['UPSERT-6']);
    const expected: ModelLead = {
      id: String(got.id),
      name: pools.names[this.props.name],
      email: this.props.email !== undefined ? pools.emails[this.props.email] : null,
      ref: this.props.ref !== undefined && r.refField ? pools.refs[this.props.ref] : null,
      details: this.props.details ?? null,
    };
    // The matched member, not set by properties: null, or the match value if the server stores it.
    if (!setsMember(this.props, by, r)) {
      if (got[by] !== null && got[by] !== value)
        r.fail(
          `${what}: ${by} was not in properties, so the new Lead has ${by} null or the match value ${JSON.stringify(value)}; got ${JSON.stringify(got[by])}`,
          ['UPSERT-2'],
        );
      (expected as unknown as Record<MatchKind, string | null>)[by] = got[by];
    }
    compare(what, expected, got, r, () => ['UPSERT-2']);
    m.leads.push(expected);
  }

  /** Exactly one Lead matches: it is updated, the members sent as sent, the others as they were (UPSERT-3, UPSERT-12). */
  private updated(m: UpsertModel, r: UpsertSystem, a: Answer, what: string, by: MatchKind, old: ModelLead): void {
    const { pools } = m;
    // A Lead an earlier 422 was about that no longer matches, or that changed: it was written (UPSERT-13).
    const wrote = m.ambiguous?.includes(old.id) ? ['UPSERT-13'] : [];
    expectLead(a, r, `${what}: exactly one Lead matches (${old.id}), so it is updated`, m, by, ['UPSERT-3', CRITERION[by], ...wrote]);
    const got = observe(a.body, r);
    if (!sameId(got.id, old.id)) {
      const ghosts = explained(m, [got.id], by);
      r.fail(
        `${what}: exactly one Lead matches (${old.id}); expected it updated, got Lead ${String(got.id)}`,
        ghosts.length ? ghosts : ['UPSERT-3', CRITERION[by], ...wrote],
      );
    }
    const expected: ModelLead = {
      id: old.id,
      name: pools.names[this.props.name],
      email: this.props.email !== undefined ? pools.emails[this.props.email] : old.email,
      ref: this.props.ref !== undefined && r.refField ? pools.refs[this.props.ref] : old.ref,
      details: this.props.details ?? old.details,
    };
    // A member sent comes back as sent (UPSERT-3); one not sent stays as it was (UPSERT-12).
    const sent = (k: string) => (k === 'details' ? this.props.details !== undefined : setsMember(this.props, k as MatchKind, r));
    compare(what, expected, got, r, (k) => [sent(k) ? 'UPSERT-3' : 'UPSERT-12', ...wrote]);
    Object.assign(old, expected);
  }

  /** Several Leads match: 422 naming every one of them (UPSERT-4). */
  private ambiguousAnswer(m: UpsertModel, r: UpsertSystem, a: Answer, what: string, matches: ModelLead[]): void {
    // A Lead an earlier 422 was about may have been written then (UPSERT-13), so that fewer match now.
    const written = matches.some((l) => m.ambiguous?.includes(l.id)) ? ['UPSERT-13'] : [];
    if (a.status !== 422)
      r.fail(`${what}: ${matches.length} Leads match (${matches.map((l) => l.id).join(', ')}), expected 422 with their ids, got ${a.status}`, [
        'UPSERT-4',
        ...written,
      ]);
    const found = idsInBody(a.body);
    const missing = matches.filter((l) => !namesId(a.body, l.id, found)).map((l) => l.id);
    if (missing.length) r.fail(`${what}: the 422 must carry the ids of all ${matches.length} matching Leads; missing ${missing.join(', ')}`, ['UPSERT-4']);
    m.ambiguous = [...new Set([...(m.ambiguous ?? []), ...matches.map((l) => l.id)])];
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

function compare(what: string, expected: ModelLead, got: ReturnType<typeof observe>, r: UpsertSystem, rulesOf: (member: string) => string[]): void {
  for (const k of ['name', 'email', 'ref', 'details'] as const) {
    if (k === 'ref' && !r.refField) continue;
    if (expected[k] !== got[k])
      r.fail(`${what}: ${k} of the answer is ${JSON.stringify(got[k])}, the model expects ${JSON.stringify(expected[k])}`, rulesOf(k));
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
    if (!is2xx(a.status)) r.fail(`${what}: the Lead exists, expected the conversion to succeed, got ${a.status}`, ['CONVERT-3']);
    const b = (a.body ?? {}) as Record<string, unknown>;
    const person = Person.safeParse(b.person);
    if (!person.success)
      r.fail(
        `${what}: the answer's person is not a Person: ${person.error.issues
          .slice(0, 5)
          .map((i) => `$.person.${i.path.join('.')}: ${i.message}`)
          .join('; ')}`,
        // Lists answered null or members left out, and nothing else: the wire convention's (WIRE-3).
        wireProblems(Person, b.person).length >= person.error.issues.length ? ['WIRE-3'] : ['CONVERT-1'],
      );
    if (person.data!.name !== personName)
      r.fail(`${what}: person.name is ${JSON.stringify(person.data!.name)}, sent ${JSON.stringify(personName)}`, ['CONVERT-3']);
    if (b.opportunity !== undefined && b.opportunity !== null) r.fail(`${what}: no opportunity was asked for, yet the answer carries one`, ['CONVERT-10']);
    m.leads = m.leads.filter((l) => l !== lead);
    m.converted.push(lead.id);
  }
  toString(): string {
    return `convert lead#${this.index}`;
  }
}

/**
 * Converts an already converted Lead again: it no longer exists, so this fails. A success breaks
 * CONVERT-14 (a missing Lead converts) or CONVERT-2 (the Lead was left behind): the answer cannot
 * tell which; the report keeps the one whose own tests failed.
 */
export class ConvertAgainCommand implements fc.AsyncCommand<UpsertModel, UpsertSystem> {
  constructor(readonly index: number) {}
  check(m: Readonly<UpsertModel>): boolean {
    return m.converted.length > 0;
  }
  async run(m: UpsertModel, r: UpsertSystem): Promise<void> {
    const id = m.converted[this.index % m.converted.length];
    const a = await r.convert(id, { person: { name: `again ${id}` } });
    if (is2xx(a.status))
      r.fail(`${this.toString()} (Lead ${id}): the Lead was converted already and no longer exists, yet converting it again answered ${a.status}`, [
        'CONVERT-14',
        'CONVERT-2',
      ]);
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
