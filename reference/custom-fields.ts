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
  {
    id: FIXTURES.lead_match_field.definition_id,
    // Stryker disable next-line StringLiteral: a definition's name is answered nowhere: "Custom field definitions (types, option lists): not shown"
    name: 'External ID',
    // Equivalent: only Dropdown and MultiSelect are read (computeCustomFields, optionOrder); any other type keeps its values as sent.
    // Stryker disable next-line StringLiteral: equivalent (above)
    data_type: 'String',
    // Options are read only of a Dropdown or MultiSelect (computeCustomFields, optionOrder): equivalent for this text field.
    // Stryker disable next-line ArrayDeclaration: equivalent (above)
    options: [],
    available_on: ['lead'],
  },
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
  existing: CustomFieldValue[],
  // Stryker disable next-line StringLiteral: equivalent: `order` is only compared with 'as-sent', so any other name sorts as 'definition-order' does
  order: 'definition-order' | 'as-sent' = 'definition-order',
): CustomFieldValue[] {
  const byId = new Map<number, CustomFieldValue>(existing.map((c) => [Number(c.custom_field_definition_id), c]));
  if (Array.isArray(input)) {
    for (const raw of input) {
      // Equivalent: an entry that is no object never gets here, every create refuses it first (checkRecordBody, checkWorkBody, checkUpsert,
      // the bulk entry check; WIRE-5); this guard takes it leniently (dropped) where those checks are loosened. A primitive entry would
      // destructure to no definition and be dropped below anyway. Made true, every entry is dropped (killed).
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent (above)
      if (!raw || typeof raw !== 'object') continue;
      const { custom_field_definition_id: id, value } = raw as CustomFieldValue;
      const def = definition(id);
      if (!def) continue;
      byId.set(def.id, { custom_field_definition_id: def.id, value: value ?? null });
    }
  }
  const values = [...byId.values()];
  // The order of custom_fields is the open choice records.custom-field-order ("`custom_fields` is a list of custom field values. It may be
  // empty."; its order: not said): each of these mutants answers the same values in another order, which every rule compares in any order.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,MethodExpression,ArrowFunction,ArithmeticOperator: order not said (above)
  return order === 'as-sent' ? values : values.sort((a, b) => Number(a.custom_field_definition_id) - Number(b.custom_field_definition_id));
}

/** Option ids → option names, for the endpoints that return computed values. */
export function computeCustomFields(fields: CustomFieldValue[]): CustomFieldValue[] {
  return fields.map((f) => {
    const def = definition(f.custom_field_definition_id);
    // Equivalent: no stored value names an unknown definition (every record's values pass normalizeCustomFields, which drops them).
    // Made true, option ids come back unmapped (killed).
    // Stryker disable next-line ConditionalExpression: equivalent (above)
    if (!def) return f;
    // Made false, equivalent: a text or number value run through the option mapping below keeps its value (such a definition has no
    // options: `?? id` gives it back). Made true (as a whole or a term), option ids come back unmapped (killed).
    // Stryker disable next-line ConditionalExpression: equivalent (above)
    if (def.data_type !== 'Dropdown' && def.data_type !== 'MultiSelect') return f;
    const name = (id: unknown) => def.options.find((o) => o.id === Number(id))?.name ?? id;
    if (def.data_type === 'Dropdown') {
      // Equivalent: a null value mapped is null too (Number(null) is 0, no option's id; `?? id` gives null back), and no stored value is
      // undefined (normalizeCustomFields stores `value ?? null`). Made true, every dropdown value comes back null (killed).
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent (above)
      const value = f.value === null || f.value === undefined ? null : name(f.value);
      return { ...f, value };
    }
    return { ...f, value: Array.isArray(f.value) ? f.value.map(name) : f.value };
  });
}

/** Is this custom field value empty (for `allow_empty` filters)? */
export function isEmptyValue(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    // Only a text value can be "": allow_empty on a text custom field is not shown ("Fields that can be filtered by an empty value on
    // Projects: tags, custom dropdown and custom multi-select fields."), and a dropdown or multi-select value is an option id, a list of
    // them or null ("" there is ill-typed, refused or taken leniently: WIRE-5, what it is stored as is the server's).
    // Stryker disable next-line ConditionalExpression,StringLiteral: a text custom field's empty value, not shown (above)
    v === '' ||
    (Array.isArray(v) && v.length === 0)
  );
}
