/**
 * The judgement of EVENT-5 (spec § Events, rule 3: with `custom_field_computed_values` true,
 * "notifications carry option names instead of option ids") on the notifications that arrived.
 *
 * The payload is "not shown": a notification may carry the whole record, only the changed
 * attributes, or only ids. So the rule is judged on the custom field values the payloads do
 * carry, wherever they sit: entries `{ custom_field_definition_id, value }` anywhere, and members
 * keyed by the definition id (`"201": …`, `custom_field_201: …`). Each carried value (null means
 * none) must be option names: a dropdown one name, a multi-select a list of names; an option id,
 * as number or string, fails. When no payload carries any value of the definitions but one names
 * an option the record holds, the names travel in a shape of their own: pass. When no payload
 * carries anything of them, the rule cannot be judged: skip, with that reason; never fail.
 */
import type { Identifier } from '../../contracts/index.js';
import type { CustomFieldFixture } from '../../contracts/profile.js';
import { mentions } from '../support/resources/webhook-receiver.js';

export interface OptionField {
  id: Identifier;
  multi: boolean;
  options: { id: Identifier; name: string }[];
}

export interface ReceivedNotification {
  /** The event kind of the subscription it arrived for. */
  event: string;
  body: unknown;
}

export interface CarriedValue {
  event: string;
  field: Identifier;
  /** Where in the payload (JSON path). */
  at: string;
  value: unknown;
}

export type Judgement =
  | { verdict: 'pass'; carried: CarriedValue[]; note: string }
  | { verdict: 'fail'; carried: CarriedValue[]; problems: string[] }
  | { verdict: 'skip'; reason: string };

/** A member named after the definition: `"201"`, `custom_field_201`, `customField201`, `cf_201`. */
const keyedBy = (key: string, id: Identifier) =>
  key === String(id) || new RegExp(`^(custom_?fields?|cf)[_-]?${String(id).replace(/[^\w-]/g, '')}$`, 'i').test(key);

/** Every value of definition `id` the payload carries (null values are none), with its path. */
export function carriedValues(payload: unknown, id: Identifier): { at: string; value: unknown }[] {
  const out: { at: string; value: unknown }[] = [];
  const visit = (v: unknown, at: string) => {
    if (Array.isArray(v)) return v.forEach((x, i) => visit(x, `${at}[${i}]`));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if ('custom_field_definition_id' in o && String(o.custom_field_definition_id) === String(id)) {
      if (o.value !== null && o.value !== undefined) out.push({ at: `${at}.value`, value: o.value });
      return;
    }
    for (const [k, x] of Object.entries(o)) {
      if (keyedBy(k, id) && x !== null && x !== undefined && (typeof x !== 'object' || Array.isArray(x))) out.push({ at: `${at}.${k}`, value: x });
      else visit(x, `${at}.${k}`);
    }
  };
  visit(payload, '$');
  return out;
}

/** What is wrong with one carried value of `field` (undefined: it is option names). */
export function valueProblem(field: OptionField, value: unknown): string | undefined {
  const names = new Set(field.options.map((o) => o.name));
  const idOf = (x: unknown) =>
    field.options.find((o) => (typeof x === 'string' || typeof x === 'number') && String(o.id) === String(x) && !names.has(String(x)));
  const one = (x: unknown): string | undefined => {
    if (typeof x === 'string' && names.has(x)) return undefined;
    const opt = idOf(x);
    if (opt) return `the option id ${JSON.stringify(x)} instead of its name ${JSON.stringify(opt.name)}`;
    return `${JSON.stringify(x)}, which is no option name of the field (${[...names].map((n) => JSON.stringify(n)).join(', ')})`;
  };
  const list = (v: unknown[]): string | undefined => {
    const bad = v.map(one).filter((p): p is string => !!p);
    return bad.length ? bad.join('; ') : undefined;
  };
  // The payload is not shown: an update may carry a change as the pair [old, new] (either may be null).
  if (!field.multi) return Array.isArray(value) ? list(value.filter((x) => x !== null)) : one(value);
  if (!Array.isArray(value)) return `${JSON.stringify(value)} where a multi-select carries a list of option names`;
  if (value.length && value.every((x) => x === null || Array.isArray(x))) return list((value.filter((x) => x !== null) as unknown[][]).flat());
  return list(value);
}

/**
 * Judges the notifications that arrived. `heldNames`: the option names the record held (a
 * payload naming one of them carries names, whatever its shape).
 */
export function judgeComputedValues(notifications: ReceivedNotification[], fields: OptionField[], heldNames: string[]): Judgement {
  const carried: CarriedValue[] = [];
  const problems: string[] = [];
  for (const n of notifications) {
    for (const f of fields) {
      for (const c of carriedValues(n.body, f.id)) {
        carried.push({ event: n.event, field: f.id, ...c });
        const p = valueProblem(f, c.value);
        if (p) problems.push(`the ${n.event} notification carries, for custom field ${String(f.id)} at ${c.at}, ${p}`);
      }
    }
  }
  const kinds = [...new Set(notifications.map((n) => n.event))].join(', ') || 'none';
  if (problems.length) return { verdict: 'fail', carried, problems };
  if (carried.length)
    return {
      verdict: 'pass',
      carried,
      note: `option names carried in ${[...new Set(carried.map((c) => c.event))].join(', ')} notifications (${carried.length} value(s))`,
    };
  const naming = notifications.filter((n) => mentions(n.body, ...heldNames));
  if (naming.length)
    return {
      verdict: 'pass',
      carried,
      note: `no custom field entries, but the ${[...new Set(naming.map((n) => n.event))].join(', ')} notification(s) name the options the record holds`,
    };
  return {
    verdict: 'skip',
    reason: `no notification carries a value of custom fields ${fields.map((f) => String(f.id)).join(', ')} (notifications received: ${kinds}); the payload is "not shown", so whether values would be option names cannot be observed`,
  };
}

/** The custom_fields member of a request body. */
export type CustomFieldValues = { custom_field_definition_id: Identifier; value: Identifier | Identifier[] }[];

/** What the EVENT-5 tests send: the record's type, its option fields, their values at creation and after the update. */
export interface ComputedPlan<T extends string> {
  type: T;
  fields: OptionField[];
  create: CustomFieldValues;
  /** Absent when there is nothing to change (a dropdown of one option and no multi-select). */
  update?: CustomFieldValues;
  /** Every option name the record holds at some time (see {@link judgeComputedValues}). */
  held: string[];
}

/**
 * The plan of the EVENT-5 tests from the profile's dropdown and multi-select fixtures (a
 * multi-select with fewer than two options is left out): the first of `types` (creatable entity
 * types, in order of preference) that has every field; or why there is none. The record is
 * created with the last dropdown option and the first and last multi-select options, and updated
 * to the first dropdown option and the second multi-select option.
 */
export function planComputed<T extends string>(
  fixtures: { dropdown?: CustomFieldFixture; multi_select?: CustomFieldFixture },
  types: readonly T[],
): ComputedPlan<T> | { skip: string } {
  const { dropdown } = fixtures;
  if (!dropdown || dropdown.options.length === 0) return { skip: 'the profile has no dropdown custom field fixture with options' };
  const multi = fixtures.multi_select && fixtures.multi_select.options.length >= 2 ? fixtures.multi_select : undefined;
  const used = multi ? [dropdown, multi] : [dropdown];
  const type = types.find((t) => used.every((f) => f.available_on.length === 0 || f.available_on.includes(t)));
  if (type === undefined) return { skip: `no entity type of ${types.join(', ')} has every custom field fixture available` };
  const last = <O>(list: O[]) => list[list.length - 1];
  const created = { dropdown: last(dropdown.options), picks: multi ? [multi.options[0], last(multi.options)] : [] };
  const updated = { dropdown: dropdown.options[0], picks: multi ? [multi.options[1]] : [] };
  const values = (v: typeof created): CustomFieldValues => [
    { custom_field_definition_id: dropdown.id, value: v.dropdown.id },
    ...(multi ? [{ custom_field_definition_id: multi.id, value: v.picks.map((o) => o.id) }] : []),
  ];
  const changes = dropdown.options.length >= 2 || !!multi;
  return {
    type,
    fields: used.map((f) => ({ id: f.id, multi: f === multi, options: f.options })),
    create: values(created),
    ...(changes ? { update: values(updated) } : {}),
    held: [created, updated].flatMap((v) => [v.dropdown, ...v.picks]).map((o) => o.name),
  };
}
