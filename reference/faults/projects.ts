/** Faults of Projects (`POST /projects`); the project search's faults are in ./search.ts. */
import { HttpError } from '../http.js';
import { C, type Rec } from '../model.js';
import type { Fault, Presented } from './types.js';
import { mapStrings, mojibake, utf8mb3 } from './reshape.js';

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
    name: 'project-related-resource-string-crash',
    rules: ['WIRE-5'],
    description: 'POST /projects with related_resource that is a string fails with 500 (it reads related_resource.type.toLowerCase())',
    routes: [
      {
        route: 'POST /projects',
        around: (ctx, next) => {
          const rr = ctx.body && typeof ctx.body === 'object' ? (ctx.body as { related_resource?: unknown }).related_resource : undefined;
          if (typeof rr === 'string') throw new HttpError(500, { message: 'Cannot read properties of undefined (reading toLowerCase)' });
          return next();
        },
      },
    ],
  },
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
  {
    name: 'project-name-latin1',
    rules: ['PROJ-1'],
    description: 'POST /projects reads the name and details as Latin-1: a Project named "Zoë" is created (and answered) as "ZoÃ«"',
    at: {
      'projects.create.fields': (fields) => ({
        ...fields,
        name: mojibake(String(fields.name)),
        details: typeof fields.details === 'string' ? mojibake(fields.details) : fields.details,
      }),
    },
  },
  {
    name: 'project-store-utf8mb3',
    rules: ['PROJ-6'],
    description:
      'the project store keeps text in a 3-byte UTF-8 column: characters beyond the BMP ("𠮷", emoji) of the name, details and tags are stored as "?", while the create answers what was sent',
    routes: [
      {
        route: 'POST /projects',
        respond: (res: Presented, _ctx, app) => {
          const id = (res.body as { id?: unknown } | undefined)?.id;
          if (res.status < 200 || res.status >= 300 || typeof id !== 'number') return res;
          const projects = app.store.collection<Rec>(C.projects);
          const stored = projects.get(id);
          if (stored) projects.update(id, mapStrings({ name: stored.name, details: stored.details, tags: stored.tags }, utf8mb3) as Partial<Rec>);
          return res;
        },
      },
    ],
  },
];
