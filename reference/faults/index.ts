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
import { PEOPLE_FAULTS } from './people.js';
import { COMPANIES_FAULTS } from './companies.js';
import { ACTIVITIES_FAULTS } from './activities.js';
import { RELATIONSHIPS_FAULTS } from './relationships.js';
import { RECORDS_FAULTS } from './records.js';
import { PROJECTS_FAULTS } from './projects.js';
import { PROJECT_SEARCH_FAULTS, SEARCH_FAULTS, TASK_SEARCH_FAULTS } from './search.js';
import { EMPTY_LIST_FAULTS } from './empty-lists.js';
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
  ...PEOPLE_FAULTS,
  ...COMPANIES_FAULTS,
  ...ACTIVITIES_FAULTS,
  ...RELATIONSHIPS_FAULTS,
  ...RECORDS_FAULTS,
  ...PROJECTS_FAULTS,
  ...SEARCH_FAULTS,
  ...PROJECT_SEARCH_FAULTS,
  ...TASK_SEARCH_FAULTS,
  ...EMPTY_LIST_FAULTS,
];
