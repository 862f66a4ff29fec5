/** Types of the rules catalog: every normative statement of the specification, with a stable id. */
export type Level = 'MUST' | 'SHOULD' | 'MAY';

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

/**
 * Where a rule comes from: the spec's own words. `quote` is verbatim (a table row's cells are
 * quoted as `cell | cell`, without the outer pipes); the self-test finds it in the spec text.
 */
export interface Source {
  /** Heading of the spec section the statement comes from. */
  section: string;
  /** The item of the section: `rule 4` or `step 3` of a numbered list, or a table row's name. */
  item?: string;
  /** The spec sentence (or table cells) the rule reads, verbatim; ` … ` joins two passages of the section. */
  quote: string;
  /** The RFC the rule follows where it goes beyond the spec's words, e.g. `RFC 6749 §4.1.2`. */
  rfc?: string;
  /** Where the rule goes beyond the spec's words: the suite's reading, and why. */
  reading?: string;
}

export interface Rule {
  /** Stable id, e.g. `UPSERT-4`. Never reuse or renumber an id. */
  id: string;
  level: Level;
  area: Area;
  /** Where in the spec the statement comes from. */
  source: Source;
  /** Heading of the spec section the statement comes from (`source.section`). */
  section: string;
  /** Endpoint the rule is about, e.g. `PUT /leads/upsert`. */
  endpoint?: string;
  /** One-line paraphrase of the statement. */
  text: string;
  /** No test can observe this rule; the reason says why. */
  untestable?: string;
}

/** Shorthand used by the catalog files. */
export function rule(id: string, level: Level, area: Area, source: Source, text: string, extra: Partial<Rule> = {}): Rule {
  return { id, level, area, source, section: source.section, text, ...extra };
}

/** Where a quote is looked up: the spec text with table rows as `cell | cell` and whitespace collapsed. */
export function normaliseSpecText(text: string): string {
  return text
    .split('\n')
    .map((line) => (/^\s*\|/.test(line) ? line.trim().replace(/^\|/, '').replace(/\|$/, '') : line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The spec's heading → the anchor a Markdown renderer gives it. */
export function sectionAnchor(section: string): string {
  return section.toLowerCase().replace(/[^a-z0-9 -]/g, '').trim().replace(/ /g, '-');
}

/**
 * The source of the computed-values rules of one endpoint (spec § Shared shapes), quoted once. The
 * spec names the endpoints it applies to and shows a switch for webhook subscriptions only.
 */
export const computedValues = (item: string): Source => ({
  section: 'Shared shapes',
  item,
  quote: 'Several endpoints are eligible to return computed custom field values: dropdown and multi-select option ids are replaced by the option names. It applies to lead convert, lead upsert, person create, project create, project search, task search and opportunity bulk create.',
  reading: 'on the endpoints it names, option names replace option ids in every answer: the spec shows a switch (custom_field_computed_values) for webhook subscriptions only',
});
