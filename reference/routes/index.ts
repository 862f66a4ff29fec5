/**
 * The areas of the reference server. Each module owns its routes and seeded fixtures (its open
 * choices are in rules/choices.json, its faults in reference/faults/); add a new area by writing its
 * module and listing it here.
 */
import type { AreaModule } from '../app.js';
import { account } from './account.js';
import { activities } from './activities.js';
import { companies } from './companies.js';
import { files } from './files.js';
import { leads } from './leads.js';
import { oauth } from './oauth.js';
import { opportunities } from './opportunities.js';
import { people } from './people.js';
import { pipelines } from './pipelines.js';
import { projects } from './projects.js';
import { relationships } from './relationships.js';
import { tasks } from './tasks.js';
import { webhooks } from './webhooks.js';

/** The order of new ids (`ids.order`), set before any fixture is seeded. */
// Stryker disable next-line ObjectLiteral: equivalent under the default: the module acts only under the unordered alternative of ids.order
const ids: AreaModule = {
  name: 'ids',
  // Stryker disable next-line BlockStatement: the same
  seed(app) {
    if (app.choice('ids.order') === 'unordered') app.store.scrambleIds();
  },
};

/** Every area, in the order their fixtures are seeded and their routes registered. */
export const AREA_MODULES: AreaModule[] = [
  ids,
  account,
  pipelines,
  webhooks,
  oauth,
  people,
  companies,
  activities,
  relationships,
  files,
  leads,
  opportunities,
  projects,
  tasks,
];
