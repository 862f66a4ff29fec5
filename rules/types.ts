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

export interface Rule {
  /** Stable id, e.g. `UPSERT-4`. Never reuse or renumber an id. */
  id: string;
  level: Level;
  area: Area;
  /** Heading of the spec section the statement comes from. */
  section: string;
  /** Endpoint the rule is about, e.g. `PUT /leads/upsert`. */
  endpoint?: string;
  /** One-line paraphrase of the statement. */
  text: string;
  /** Tests for this rule arrive in a later issue. */
  pending?: string;
  /** No test can observe this rule; the reason says why. */
  untestable?: string;
}

/** Shorthand used by the catalog files. */
export function rule(id: string, level: Level, area: Area, section: string, text: string, extra: Partial<Rule> = {}): Rule {
  return { id, level, area, section, text, ...extra };
}

/** The spec's heading → the anchor a Markdown renderer gives it. */
export function sectionAnchor(section: string): string {
  return section.toLowerCase().replace(/[^a-z0-9 -]/g, '').trim().replace(/ /g, '-');
}
