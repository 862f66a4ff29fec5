/** Faults of the webhooks area (reference/routes/webhooks.ts). How they hook in: reference/faults/types.ts. */
import type { Fault } from './types.js';

export const WEBHOOKS_FAULTS: Fault[] = [];
