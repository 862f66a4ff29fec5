/**
 * The open-choices catalog: every choice the specification leaves open ("not shown", free
 * choices), with the alternatives a conformant server may take, one file per area. The suite
 * asserts none of them; the reference server takes each one from `app.choice(id)`
 * (reference/choices.ts; `REFERENCE_CHOICES` picks alternatives).
 *
 * Usage:
 *   import { CHOICES, type ChoiceId, type AlternativeOf } from '../rules/choices/index.js';
 *   CHOICES.find((c) => c.id === 'webhook.payload')!.alternatives.map((a) => a.name);
 *
 * A new area file: `export const X_CHOICES = defineChoices([...])`, then spread it below.
 */
import { ACCOUNT_CHOICES } from './account.js';
import { FILES_CHOICES } from './files.js';
import { GENERAL_CHOICES } from './general.js';
import { LEADS_CHOICES } from './leads.js';
import { OAUTH_CHOICES } from './oauth.js';
import { OPPORTUNITIES_CHOICES } from './opportunities.js';
import { RECORDS_CHOICES } from './records.js';
import { SEARCH_CHOICES } from './search.js';
import { WEBHOOKS_CHOICES } from './webhooks.js';

export type { ChoiceAlternative, OpenChoice } from './types.js';

export const CHOICES = [
  ...GENERAL_CHOICES,
  ...ACCOUNT_CHOICES,
  ...RECORDS_CHOICES,
  ...SEARCH_CHOICES,
  ...LEADS_CHOICES,
  ...OPPORTUNITIES_CHOICES,
  ...FILES_CHOICES,
  ...WEBHOOKS_CHOICES,
  ...OAUTH_CHOICES,
] as const;

type AnyChoice = (typeof CHOICES)[number];
/** Every choice id of the catalog. */
export type ChoiceId = AnyChoice['id'];
/** The alternative names of one choice. */
export type AlternativeOf<I extends ChoiceId> = Extract<AnyChoice, { id: I }>['alternatives'][number]['name'];
