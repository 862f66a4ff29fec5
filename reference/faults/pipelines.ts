/** Faults of the pipelines area (reference/routes/pipelines.ts). How they hook in: reference/faults/types.ts. */
import type { Fault } from './types.js';

export const PIPELINES_FAULTS: Fault[] = [];
