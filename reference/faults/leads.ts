/** Faults of the leads area (reference/routes/leads.ts). How they hook in: reference/faults/types.ts. */
import type { Fault } from './types.js';

export const LEADS_FAULTS: Fault[] = [];
