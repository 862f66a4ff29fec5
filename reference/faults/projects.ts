/** Faults of Projects (`POST /projects`); the project search's faults are in ./search.ts. */
import type { Rec } from '../model.js';
import type { Fault } from './types.js';

declare module './types.js' {
  interface HookPoints {
    /** Whether `POST /projects` requires a name. */
    'projects.create.name-required': { value: boolean; ctx: Record<string, never> };
    /** The fields of a new Project, before it is stored. */
    'projects.create.fields': { value: Omit<Rec, 'id'>; ctx: Record<string, never> };
    /** Whether the answer of `POST /projects` carries computed custom field values. */
    'projects.create.computed': { value: boolean; ctx: Record<string, never> };
  }
}

export const PROJECTS_FAULTS: Fault[] = [
  {
    name: 'project-status-not-open',
    rules: ['PROJ-2'],
    description: 'a created Project gets status "New" instead of Open',
    at: { 'projects.create.fields': (fields) => ({ ...fields, status: 'New' }) },
  },
  {
    name: 'project-name-not-required',
    rules: ['PROJ-3'],
    description: 'POST /projects without a name creates a Project with an empty name',
    at: { 'projects.create.name-required': () => false },
  },
  {
    name: 'project-create-raw-custom-fields',
    rules: ['PROJ-4'],
    description: 'POST /projects answers option ids instead of computed option names',
    at: { 'projects.create.computed': () => false },
  },
  {
    name: 'project-create-drops-details',
    rules: ['PROJ-1'],
    description: 'POST /projects does not store details and related_resource (they come back null)',
    at: { 'projects.create.fields': (fields) => ({ ...fields, details: null, related_resource: null }) },
  },
];
