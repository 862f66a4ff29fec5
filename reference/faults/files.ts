/** Faults of the files area (reference/routes/files.ts). How they hook in: reference/faults/types.ts. */
import type { Fault } from './types.js';

export const FILES_FAULTS: Fault[] = [];
