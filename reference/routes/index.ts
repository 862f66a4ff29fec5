/**
 * The areas of the reference server. Each module owns its routes, seeded fixtures and faults;
 * add a new area by writing its module and listing it here.
 */
import type { AreaModule } from '../app.js';
import { account } from './account.js';
import { pipelines } from './pipelines.js';

/** Filled in as the area modules land (people, companies, activities, projects, tasks, leads, opportunities, files, relationships, webhooks, oauth). */
export const AREA_MODULES: AreaModule[] = [account, pipelines];
