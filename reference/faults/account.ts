/** Faults of the account area (reference/routes/account.ts). How they hook in: reference/faults/types.ts. */
import type { Fault } from './types.js';

export const ACCOUNT_FAULTS: Fault[] = [];
