/**
 * Primitive shapes and the shared shapes of the CRM Developer API
 * (spec § "Resources and their fields" → "Shared shapes").
 *
 * Response contracts use `z.looseObject`: the specification does not forbid extra
 * fields, so extra members pass and are reported as notes by the harness.
 *
 * Nullability: "Fields that are absent or empty are returned as `null` (lists as `[]`)."
 * (spec § What the service does). A bare type in a table ("string", "timestamp", "identifier",
 * "number", "boolean") does not guarantee a value, so every response field may be `null` unless
 * a sentence of the spec guarantees one; where a contract forbids `null`, a comment quotes that
 * sentence. Lists are never `null` ({@link list}). Nullable is not optional: the member must
 * still be present ("returned as `null`").
 */
import { z } from 'zod';

/**
 * An identifier. The specification never fixes its format (number or string), so both
 * are accepted; where it does ("a numeric `id`", "`entity_id` and `file_id` are numbers")
 * use {@link numericId}.
 */
export const identifier = z.union([z.int(), z.string().min(1)]).describe('identifier (format not fixed by the spec)');
export type Identifier = z.infer<typeof identifier>;

/** A numeric identifier: bulk-created Opportunities and file paths (spec § Bulk create, § Files). */
export const numericId = z.int().describe('numeric identifier');

/**
 * "Timestamps are Unix time in seconds (integers)." Values above 9,999,999,999 (year 2286)
 * are rejected so that milliseconds (≈1.7e12 today) are caught.
 */
export const timestamp = z
  .int('a timestamp is an integer number of seconds')
  .min(-2_208_988_800, 'a timestamp before 1900 is implausible')
  .max(9_999_999_999, 'a timestamp after 2286 is implausible: milliseconds instead of seconds?')
  .describe('Unix time in seconds');
export type Timestamp = z.infer<typeof timestamp>;

/** "Fields that are absent or empty are returned as `null` (lists as `[]`)." */
export const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
/** A list is never `null`: "lists as `[]`". */
export const list = <T extends z.ZodType>(item: T) => z.array(item, 'a list is returned as [] and never null');

export const address = z.looseObject({
  street: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postal_code: z.string().nullable(),
  /** "`country` may be null or empty" */
  country: z.string().nullable(),
});
export type Address = z.infer<typeof address>;

/**
 * Entries of the e-mail, phone, social and website lists. The address, number or URL is the
 * entry itself: an entry without it is an empty entry, and an empty list is `[]` ("lists as
 * `[]`"), so it is never `null`. No sentence guarantees a category ("The complete set of
 * categories: not shown"), so `category` may be `null`.
 */
export const emailEntry = z.looseObject({ email: z.string(), category: z.string().nullable() });
export type EmailEntry = z.infer<typeof emailEntry>;
export const phoneEntry = z.looseObject({ number: z.string(), category: z.string().nullable() });
export type PhoneEntry = z.infer<typeof phoneEntry>;
export const socialEntry = z.looseObject({ url: z.string(), category: z.string().nullable() });
export type SocialEntry = z.infer<typeof socialEntry>;
export const websiteEntry = socialEntry;
export type WebsiteEntry = z.infer<typeof websiteEntry>;

export const relatedResource = z.looseObject({
  id: identifier.nullable(),
  type: z.string().nullable(),
});
export type RelatedResource = z.infer<typeof relatedResource>;

/**
 * custom field value: `value` is text, number, boolean, Unix timestamp, list of option ids
 * for multi-select, or null. Computed values replace option ids by option names (strings).
 */
export const customFieldValue = z.looseObject({
  /**
   * Names the field the value belongs to, as `id` names a record: "custom field value |
   * `custom_field_definition_id` (identifier), `value` (… or null)"; only `value` may be null.
   */
  custom_field_definition_id: identifier,
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([identifier, z.string()])), z.null()]),
});
export type CustomFieldValue = z.infer<typeof customFieldValue>;

/**
 * Fields common to every record resource. `name`, `date_created` and `date_modified` may be
 * `null` by the general rule (required fields on create: "not shown"); resources whose spec
 * guarantees a value override them (Project, Task).
 */
export const recordBase = z.looseObject({
  /** A record is addressed by its id: "Identifier path segments are written {lead_id}, {company_id} and so on." */
  id: identifier,
  name: z.string().nullable(),
  date_created: timestamp.nullable(),
  date_modified: timestamp.nullable(),
});

/** Person-like name parts shared by Person and Lead. */
export const nameParts = {
  prefix: z.string().nullable(),
  first_name: z.string().nullable(),
  middle_name: z.string().nullable(),
  last_name: z.string().nullable(),
  suffix: z.string().nullable(),
  title: z.string().nullable(),
};
