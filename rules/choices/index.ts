/**
 * The open-choices catalog: every choice the specification leaves open ("not shown", free
 * choices), with the alternatives a conformant server may take. The records are data,
 * `rules/choices.json` (format and types: rules/schema.ts), validated here as they load. The
 * suite asserts none of them; the reference server takes each one from `app.choice(id)`
 * (reference/choices.ts; `REFERENCE_CHOICES` picks alternatives), typed by the generated
 * rules/choices/names.ts (`npm run rules:list` rewrites it after an edit of the data).
 *
 * Usage:
 *   import { CHOICES, type ChoiceId, type AlternativeOf } from '../rules/choices/index.js';
 *   CHOICES.find((c) => c.id === 'webhook.payload')!.alternatives.map((a) => a.name);
 *
 * A choice the spec's words turn out to decide is kept with its id and marked `decided` (the one
 * alternative it allows, since when and why): `OPEN_CHOICES` leaves it out, the reference server
 * always takes the decided alternative (reference/choices.ts), the generated list shows it apart.
 */
import data from '../choices.json';
import { isOpen, parseChoices, type OpenChoice } from '../schema.js';
import type { ChoiceNames } from './names.js';

export type { ChoiceAlternative, OpenChoice } from '../schema.js';
export { allowedAlternatives, isOpen } from '../schema.js';

/** Every record of the catalog, the decided ones too (their ids are kept: rules/schema.ts, `decided`). */
export const CHOICES: readonly OpenChoice[] = parseChoices(data);

/** The choices still open: what a conformant server may take either way. */
export const OPEN_CHOICES: readonly OpenChoice[] = CHOICES.filter(isOpen);

/** Every choice id of the catalog. */
export type ChoiceId = keyof ChoiceNames;
/** The alternative names of one choice. */
export type AlternativeOf<I extends ChoiceId> = ChoiceNames[I];
