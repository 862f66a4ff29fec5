/**
 * Custom field definitions of the reference account (seeded from reference/profile.json)
 * and the computed values the spec describes: "dropdown and multi-select option ids are
 * replaced by the option names".
 */
import { FIXTURES } from './profile.js';

export interface CustomFieldDefinition {
  id: number;
  name: string;
  data_type: 'Dropdown' | 'MultiSelect' | 'String' | 'Float';
  options: { id: number; name: string }[];
  available_on: string[];
}

export interface CustomFieldValue {
  custom_field_definition_id: number | string;
  value: unknown;
}

/** Names of the seeded definitions (the profile does not carry names). */
const NAMES = { dropdown: 'Region', multi_select: 'Channels', text: 'Reference code', number: 'Score' } as const;

/** The definitions of reference/profile.json, and the Lead field used for upsert matching. */
export const CUSTOM_FIELDS: CustomFieldDefinition[] = [
  ...(Object.keys(NAMES) as (keyof typeof NAMES)[]).map((kind) => {
    const f = FIXTURES.custom_fields[kind];
    return { id: f.id, name: NAMES[kind], data_type: f.data_type as CustomFieldDefinition['data_type'], options: f.options, available_on: f.available_on };
  }),
  /** Lead custom field usable for upsert matching: `match.field_name = "custom_field_<id>"`. */
  { id: FIXTURES.lead_match_field.definition_id, name: 'External ID', data_type: 'String', options: [], available_on: ['lead'] },
];

export function definition(id: unknown): CustomFieldDefinition | undefined {
  return CUSTOM_FIELDS.find((d) => d.id === Number(id));
}

/**
 * Normalises the `custom_fields` of a create/update body: keeps entries of known definitions,
 * one per definition (the last one sent wins), in the order of the definitions or, with
 * `as-sent` (the open choice `records.custom-field-order`), existing values first, then new
 * ones in the order sent. Unknown definitions are dropped.
 */
export function normalizeCustomFields(
  input: unknown,
  existing: CustomFieldValue[] = [],
  order: 'definition-order' | 'as-sent' = 'definition-order',
): CustomFieldValue[] {
  const byId = new Map<number, CustomFieldValue>(existing.map((c) => [Number(c.custom_field_definition_id), c]));
  if (Array.isArray(input)) {
    for (const raw of input) {
      if (!raw || typeof raw !== 'object') continue;
      const { custom_field_definition_id: id, value } = raw as CustomFieldValue;
      const def = definition(id);
      if (!def) continue;
      byId.set(def.id, { custom_field_definition_id: def.id, value: value ?? null });
    }
  }
  const values = [...byId.values()];
  return order === 'as-sent' ? values : values.sort((a, b) => Number(a.custom_field_definition_id) - Number(b.custom_field_definition_id));
}

/** Option ids → option names, for the endpoints that return computed values. */
export function computeCustomFields(fields: CustomFieldValue[]): CustomFieldValue[] {
  return fields.map((f) => {
    const def = definition(f.custom_field_definition_id);
    if (!def || (def.data_type !== 'Dropdown' && def.data_type !== 'MultiSelect')) return f;
    const name = (id: unknown) => def.options.find((o) => o.id === Number(id))?.name ?? id;
    if (def.data_type === 'Dropdown') return { ...f, value: f.value === null || f.value === undefined ? null : name(f.value) };
    return { ...f, value: Array.isArray(f.value) ? f.value.map(name) : f.value };
  });
}

/** Is this custom field value empty (for `allow_empty` filters)? */
export function isEmptyValue(v: unknown): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}
