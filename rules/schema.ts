/**
 * The format of the two catalogs, which are data: `rules/rules.json` (every normative statement of
 * the specification, with a stable id) and `rules/choices.json` (what the specification leaves
 * open, with the alternatives a conformant server may take). Both ship in the package, so a server
 * written in any language can read them; this file is their schema (strict: an unknown key is an
 * error) and the TypeScript types of their records. `rules/index.ts` and `rules/choices/index.ts`
 * load and validate them; selftest/rules.unit.test.ts and selftest/choices.test.ts check them against
 * the spec and the tests.
 *
 * A rule record, keys in this order (in the manner of Kubernetes' conformance.yaml):
 *
 *   { "id": "UPSERT-4", "level": "MUST", "area": "upsert", "section": "Lead upsert", "item": "rule 4",
 *     "quote": "More than one match: response 422 carrying the ids of the matching Leads.",
 *     "endpoint": "PUT /leads/upsert", "text": "more than one match answers 422 with the ids of the matching Leads",
 *     "since": "0.1.0" }
 *
 * An open choice: { id, section, source (the spec sentence), reading?, since, alternatives: [{ name,
 * description, declares? }], decided? }. The first alternative is the reference server's default; the
 * second, where it did something, is what the old variant mode (REFERENCE_VARIANT=1) did. A choice
 * found on a closer reading not to be open after all is not deleted (its id is kept: reports, replay
 * lines and REFERENCE_CHOICES values of older runs name it) but `decided`: { alternative (the only
 * conformant one), since (the release that decided it), reading (why the spec's words decide it) }.
 * The reference server then always takes that alternative, and the suite judges it under its rules.
 */
import { z } from 'zod';

export const LEVELS = ['MUST', 'SHOULD', 'MAY'] as const;
export type Level = (typeof LEVELS)[number];

/** The areas of the catalog, in the order the generated list presents them, with their titles. */
export const AREAS = {
  wire: 'Wire format and conventions',
  account: 'Account',
  pipelines: 'Pipelines',
  auth: 'Authentication (credentials)',
  oauth: 'OAuth 2.0 authorization code grant',
  people: 'People',
  companies: 'Companies',
  activities: 'Activities',
  projects: 'Projects',
  search: 'Searches (projects and tasks)',
  relationships: 'Relationships',
  files: 'Files',
  upsert: 'Lead upsert',
  convert: 'Lead conversion',
  bulk: 'Opportunities bulk create',
  webhooks: 'Webhook subscriptions',
  events: 'Events (webhook notifications)',
} as const;
export type Area = keyof typeof AREAS;

/** A non-blank string, kept as written (no transform: what loads is byte for byte what the file says). */
const text = z.string().regex(/\S/, 'not blank');
/** The release of this package in which a record first appeared (or last changed meaning). */
const since = z.string().regex(/^\d+\.\d+\.\d+$/, 'a release, e.g. "0.1.0"');

export const RuleRecord = z
  .strictObject({
    /** Stable id, `<AREA>-<n>`, e.g. `UPSERT-4`. Never reuse or renumber an id. */
    id: z.string().regex(/^[A-Z]+-\d+$/, 'an id of the form AREA-N'),
    level: z.enum(LEVELS),
    area: z.enum(Object.keys(AREAS) as [Area, ...Area[]]),
    /** Heading of the spec section the statement comes from. */
    section: text,
    /** The item of the section: `rule 4` or `step 3` of a numbered list, or a table row's name. */
    item: text.optional(),
    /**
     * The spec sentence (or table cells, as `cell | cell` without the outer pipes) the rule reads,
     * verbatim; ` … ` joins two passages of the section. The self-test finds it in the spec.
     */
    quote: z.string().min(10),
    /** The RFC the rule follows where it goes beyond the spec's words, e.g. `RFC 6749 §4.1.2`. */
    rfc: z
      .string()
      .regex(/^RFC \d+( §\d+(\.\d+)*)?(, §\d+(\.\d+)*)*$/, 'of the form "RFC 6749 §4.1.2"')
      .optional(),
    /** Where the rule goes beyond the spec's words: the suite's reading, and why. */
    reading: text.optional(),
    /** Endpoint(s) the rule is about, e.g. `PUT /leads/upsert` (several joined by `, `). */
    endpoint: text.optional(),
    /** One-line paraphrase of the statement; test titles start with the id and read after it. */
    text: z.string().min(11),
    /** No test can observe this rule; the reason says why. */
    untestable: text.optional(),
    since,
  })
  .refine((r) => !r.rfc || r.reading, { message: 'a rule that follows an RFC says how it reads the spec (reading)', path: ['reading'] });

export const ChoiceAlternativeRecord = z.strictObject({
  /** Short name, unique within the choice (what REFERENCE_CHOICES=id=name takes): kebab-case, or the value itself (`USD`, `mm/dd/yyyy`). */
  name: z.string().regex(/^[^\s,='"\\]+$/, 'a name without spaces, commas, equals signs, quotes or backslashes (REFERENCE_CHOICES=id=name takes it)'),
  description: text,
  /**
   * What a target taking this alternative says in its target profile, where the spec lets a value
   * vary and the suite judges against the declaration (e.g. `{ "capabilities": { "bulk_entries_limit": 12 } }`).
   * Runs of the reference server with this alternative use its profile with these members
   * (reference/choices.ts, `declarations`).
   */
  declares: z.strictObject({ capabilities: z.record(z.string(), z.unknown()).optional() }).optional(),
  /** One of the hardest alternatives for a client: `REFERENCE_CHOICES=hardest` takes all of them at once. */
  hardest: z.literal(true).optional(),
});

/** A choice the spec's words decide after all: the alternative they require, since when, and why. */
export const DecidedRecord = z.strictObject({
  /** The one alternative the spec allows (one of the choice's `alternatives`); the others are withdrawn. */
  alternative: z.string(),
  /** The release that decided it (the choice's own `since` stays the release that added it). */
  since,
  /** Why the spec's words leave no choice: the sentences, and how they read. */
  reading: text,
});

export const OpenChoiceRecord = z
  .strictObject({
    /** Stable id, `<area>.<topic>`, e.g. `webhook.payload`. */
    id: z.string().regex(/^[a-z]+(\.[a-z0-9]+(-[a-z0-9]+)*)+$/, 'an id of the form <area>.<topic>'),
    /** Heading of the spec section that leaves the choice open. */
    section: text,
    /** The spec sentence that leaves it open, quoted, e.g. "Payload of a notification: not shown." */
    source: text,
    /** Where the choice goes beyond the spec's words: the suite's reading. */
    reading: text.optional(),
    since,
    /** At least two, names unique; the first is the reference server's default. */
    alternatives: z
      .array(ChoiceAlternativeRecord)
      .min(2)
      .refine((as) => new Set(as.map((a) => a.name)).size === as.length, 'alternative names are unique'),
    /** No longer open: the spec decides it (see {@link DecidedRecord}); the reference always takes `decided.alternative`. */
    decided: DecidedRecord.optional(),
  })
  .refine((c) => !c.decided || c.alternatives.some((a) => a.name === c.decided!.alternative), {
    message: 'a decided choice names one of its alternatives',
    path: ['decided', 'alternative'],
  });

export type Rule = z.infer<typeof RuleRecord>;
/** Where a rule comes from: the spec's own words (the fields of a rule that say it). */
export type Source = Pick<Rule, 'section' | 'item' | 'quote' | 'rfc' | 'reading'>;
export type ChoiceAlternative = z.infer<typeof ChoiceAlternativeRecord>;
export type OpenChoice = z.infer<typeof OpenChoiceRecord>;
export type Decided = z.infer<typeof DecidedRecord>;

/** Whether a choice of the catalog is still open (not decided). */
export const isOpen = (c: Pick<OpenChoice, 'decided'>): boolean => !c.decided;

/** The alternatives a conformant server may take: all of an open choice's, the decided one of a decided choice. */
export const allowedAlternatives = <C extends Pick<OpenChoice, 'alternatives' | 'decided'>>(c: C): C['alternatives'] =>
  c.decided ? c.alternatives.filter((a) => a.name === c.decided!.alternative) : c.alternatives;

export class CatalogError extends Error {}

/**
 * The records of a catalog file, validated one by one (a broken one stops with a message naming
 * the file, its index and id, and the problem), ids unique.
 */
function parseCatalog<T extends { id: string }>(file: string, schema: z.ZodType<T>, data: unknown): T[] {
  if (!Array.isArray(data)) throw new CatalogError(`${file}: not an array of records`);
  const seen = new Set<string>();
  return data.map((record: unknown, i) => {
    const id = (record as { id?: unknown } | null)?.id;
    const name = `${file} record ${i}${typeof id === 'string' ? ` (${id})` : ''}`;
    const parsed = schema.safeParse(record);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((e) => `${e.path.join('.') || '(record)'}: ${e.message}`).join('; ');
      throw new CatalogError(`${name} is not a valid record: ${problems}`);
    }
    if (seen.has(parsed.data.id)) throw new CatalogError(`${name}: duplicate id ${parsed.data.id}`);
    seen.add(parsed.data.id);
    return parsed.data;
  });
}

export const parseRules = (data: unknown, file = 'rules/rules.json'): Rule[] => parseCatalog(file, RuleRecord, data);
export const parseChoices = (data: unknown, file = 'rules/choices.json'): OpenChoice[] => parseCatalog(file, OpenChoiceRecord, data);
