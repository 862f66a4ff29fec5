/** Faults of the opportunities area (reference/routes/opportunities.ts). How they hook in: reference/faults/types.ts. */
import type { Fault } from './types.js';

export const OPPORTUNITIES_FAULTS: Fault[] = [];
