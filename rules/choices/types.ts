/**
 * Types of the open-choices catalog: what the specification leaves open ("not shown", free
 * choices), with the alternatives a conformant server may take. The suite never asserts one
 * alternative over another; the reference server takes each one (reference/choices.ts).
 *
 * Usage (an area file, e.g. rules/choices/leads.ts):
 *
 *   import { defineChoices } from './types.js';
 *   export const LEADS_CHOICES = defineChoices([
 *     {
 *       id: 'upsert.created-lead',                       // stable, `<area>.<topic>`
 *       section: 'Lead upsert',                          // spec heading
 *       source: 'No match: a new Lead is created from `properties`.',  // the spec sentence, quoted
 *       alternatives: [                                  // first = the reference server's default
 *         { name: 'properties-only', description: '…' },
 *         { name: 'stores-match-value', description: '…' },
 *       ],
 *     },
 *   ]);
 *
 * `defineChoices` keeps the literal ids and names, so `app.choice('upsert.created-lead')` in the
 * reference server is typed `'properties-only' | 'stores-match-value'`. List the file in
 * rules/choices/index.ts. Order alternatives so that the second one is what the old variant mode
 * (REFERENCE_VARIANT=1) did, where it did something (the variant set is "alternative 1 of every
 * choice", see reference/choices.ts).
 */

export interface ChoiceAlternative {
  /** Short kebab-case name, unique within the choice (what REFERENCE_CHOICES=id=name takes). */
  readonly name: string;
  readonly description: string;
  /**
   * What a target taking this alternative says in its target profile, where the spec lets a value
   * vary and the suite judges against the declaration (e.g. `{ capabilities: { bulk_entries_limit: 12 } }`).
   * Runs of the reference server with this alternative use its profile with these members
   * (reference/choices.ts, `declarations`; playwright.config.ts passes them on in CRM_EMBEDDED_DECLARES).
   */
  readonly declares?: { readonly capabilities?: Readonly<Record<string, unknown>> };
}

export interface OpenChoice {
  /** Stable id, `<area>.<topic>`, e.g. `webhook.payload`. */
  readonly id: string;
  /** Heading of the spec section that leaves the choice open. */
  readonly section: string;
  /** The spec sentence, quoted, e.g. "Payload of a notification: not shown." */
  readonly source: string;
  /** At least two; the first is the reference server's default. */
  readonly alternatives: readonly ChoiceAlternative[];
}

/** Declares an area's choices, keeping their literal ids and alternative names for typing. */
export const defineChoices = <const T extends readonly OpenChoice[]>(choices: T): T => choices;
