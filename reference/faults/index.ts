/**
 * Every fault of the reference server, by area (reference/faults/<area>.ts). How faults hook in:
 * reference/faults/types.ts. The server switches on the ones named in REFERENCE_FAULTS;
 * `npm run reference -- --list-faults` lists them.
 *
 *   import { ALL_FAULTS } from './faults/index.js';
 *   ALL_FAULTS.find((f) => f.name === 'upsert-not-atomic');
 */
import { ACCOUNT_FAULTS } from './account.js';
import { FILES_FAULTS } from './files.js';
import { GENERAL_FAULTS } from './general.js';
import { LEADS_FAULTS } from './leads.js';
import { OAUTH_FAULTS } from './oauth.js';
import { OPPORTUNITIES_FAULTS } from './opportunities.js';
import { PIPELINES_FAULTS } from './pipelines.js';
import { WEBHOOKS_FAULTS } from './webhooks.js';
import type { Fault } from './types.js';

export type { Fault, FaultDef } from './types.js';

export const ALL_FAULTS: Fault[] = [
  ...ACCOUNT_FAULTS,
  ...PIPELINES_FAULTS,
  ...WEBHOOKS_FAULTS,
  ...GENERAL_FAULTS,
  ...OAUTH_FAULTS,
  ...FILES_FAULTS,
  ...LEADS_FAULTS,
  ...OPPORTUNITIES_FAULTS,
];
