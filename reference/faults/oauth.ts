/** Faults of the oauth area (reference/routes/oauth.ts). How they hook in: reference/faults/types.ts. */
import type { Fault } from './types.js';

export const OAUTH_FAULTS: Fault[] = [];
