/**
 * Projects (spec § Projects): `POST /projects`, `POST /projects/search`; and the documented
 * extension `POST /{entity_type}/{entity_id}/follow` (NOT part of the spec, listed in
 * reference/profile.json capabilities.extensions.follow) that lets the suite follow a project
 * or a task, because the spec gives no way to follow a record.
 *
 * - The status of a create: the open choice `general.create-status`.
 * - `name` must be a string (missing or non-string is refused with a 4xx); other members are
 *   optional and, when present, must have the types of the Project table.
 * - A created Project always has status `Open`; a `status` member in the body is ignored.
 * - Project statuses (for `status_ids`): Open = 301, Completed = 302 (reference/profile.json).
 * - The search engine and its choices: reference/search.ts (the case of the `name` criterion:
 *   `search.name-case`).
 * Faults: reference/faults/projects.ts, reference/faults/search.ts.
 */
import type { App, AreaModule } from '../app.js';
import { HttpError } from '../http.js';
import { C, created, makeProject, present, type Rec } from '../model.js';
import { PROJECT_STATUSES, emptyMeansAll, idList, keys, runSearch, sharedCriteria, statusesCriterion, type SearchDef } from '../search.js';
import { asObject, idParam, invalid, notFound } from './common.js';

// The type checks of a create body: without them the model takes an ill-typed member leniently, storing valid values
// only; refusing and taking are both conformant (errors.ill-typed-input; WIRE-5 judges a taking by its answer).
// Stryker disable all: ill-typed input, refused or taken leniently (above)
const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const given = (v: unknown) => v !== undefined && v !== null;

/** Refuses (4xx) a project or task body whose members have the wrong types. */
export function checkWorkBody(app: App, body: unknown, what: string, requireName: boolean, strings: string[], numbers: string[] = []): Record<string, unknown> {
  if (body === undefined || !isObj(body)) invalid(app, `the ${what} body must be a JSON object`);
  const b = asObject(body);
  // Stryker restore all
  if (requireName && typeof b.name !== 'string') invalid(app, `name is required on ${what} create and must be a string`, 'name');
  // Stryker disable all: the same
  for (const k of strings) if (given(b[k]) && typeof b[k] !== 'string') invalid(app, `${k} must be a string`, k);
  for (const k of numbers)
    if (given(b[k]) && !(typeof b[k] === 'number' && Number.isInteger(b[k]))) invalid(app, `${k} must be a Unix timestamp in seconds`, k);
  if (given(b.assignee_id) && !isId(b.assignee_id)) invalid(app, 'assignee_id must be an identifier', 'assignee_id');
  if (given(b.related_resource)) {
    const rr = b.related_resource;
    if (!isObj(rr) || (given(rr.id) && !isId(rr.id)) || (given(rr.type) && typeof rr.type !== 'string')) {
      invalid(app, 'related_resource must be { id, type }', 'related_resource');
    }
  }
  if (given(b.tags) && (!Array.isArray(b.tags) || b.tags.some((t) => typeof t !== 'string'))) invalid(app, 'tags must be a list of strings', 'tags');
  if (given(b.custom_fields) && (!Array.isArray(b.custom_fields) || b.custom_fields.some((c) => !isObj(c) || !isId(c.custom_field_definition_id)))) {
    invalid(app, 'custom_fields must be a list of { custom_field_definition_id, value }', 'custom_fields');
  }
  // Stryker restore all
  return b;
}

export const PROJECT_SEARCH: SearchDef = {
  // Stryker disable next-line StringLiteral: the kind is read only by faults' hooks (reference/faults/search.ts)
  kind: 'project',
  sortKeys: {
    name: keys.name,
    assigned_to: keys.assignedTo,
    related_to: keys.relatedTo,
    status: keys.status,
    // Stryker disable next-line StringLiteral: equivalent under the default choices: no endpoint modifies a project, so date_modified is date_created
    date_modified: keys.number('date_modified'),
    // Stryker disable next-line StringLiteral: equivalent under the default choices: ids ascend as projects are created, the order of every tie
    date_created: keys.number('date_created'),
  },
  defaultSort: 'name',
  criteria: {
    ...sharedCriteria(),
    name: (v, app) => {
      // Stryker disable next-line ConditionalExpression: ill-typed input (a name that is no string matches nothing): refused or taken
      if (typeof v !== 'string') return invalid(app, 'name must be a string', 'name');
      if (app.choice('search.name-case') === 'case-insensitive') return (rec) => String(rec.name).toLowerCase() === v.toLowerCase();
      return (rec) => rec.name === v;
    },
    status_ids: (v, app) => {
      const list = idList(app, 'status_ids', v);
      // Stryker disable next-line ConditionalExpression: emptyMeansAll is false but under search.empty-list no-restriction, never the default
      if (emptyMeansAll(app, list)) return undefined;
      const ids = new Set(list.map(String));
      const names = new Set(PROJECT_STATUSES.filter((s) => ids.has(String(s.id))).map((s) => s.name));
      return (rec) => names.has(String(rec.status));
    },
    statuses: statusesCriterion,
  },
};

/** Entity types the follow extension accepts, and their collections. */
const FOLLOWABLE: Record<string, string> = { projects: C.projects, tasks: C.tasks };

export const projects: AreaModule = {
  name: 'projects',
  api(router, app) {
    const projects = app.store.collection<Rec>(C.projects);

    router.add('POST', '/projects', (ctx) => {
      const sent = ctx.body;
      // Open choice projects.numeric-name: a name that is a number is refused, or read as its text.
      // Stryker disable all: the test of open choice projects.numeric-name (a number read as text is its other alternative)
      const body =
        isObj(sent) && typeof sent.name === 'number' && app.choice('projects.numeric-name') === 'as-text' ? { ...sent, name: String(sent.name) } : sent;
      // Stryker restore all
      // Stryker disable next-line ArrayDeclaration,StringLiteral: ill-typed input, refused or taken leniently (checkWorkBody)
      const b = checkWorkBody(app, body, 'project', app.at('projects.create.name-required', true, {}), ['name', 'details']);
      const rec = projects.insert(app.at('projects.create.fields', makeProject(app, b), {}));
      app.emit('project', 'new', present(app, rec));
      return created(app, present(app, rec, { computed: app.at('projects.create.computed', true, {}) }));
    });

    router.add('POST', '/projects/search', (ctx) =>
      runSearch(app, PROJECT_SEARCH, projects.all(), ctx.body, { present: (rec, computed) => present(app, rec, { computed }) }),
    );

    // Extension (not in the spec): follow / unfollow a project or a task as the current user.
    // Stryker disable all: an extension of the reference's profile (capabilities.extensions.follow), not the spec; the suite only follows through it
    const follow = (on: boolean) => (ctx: { params: Record<string, string> }) => {
      const collection = FOLLOWABLE[ctx.params.entity_type];
      if (!collection) throw new HttpError(404, { success: false, status: 404, message: `${ctx.params.entity_type} cannot be followed (projects, tasks)` });
      const id = idParam(ctx.params.entity_id, 'entity_id');
      const c = app.store.collection<Rec>(collection);
      const rec = c.get(id);
      if (!rec) notFound(ctx.params.entity_type.replace(/s$/, ''));
      // A new stored object, as every write makes: live mode (reference/live.ts) sees that the client wrote to it.
      c.update(id, { _followed: on });
      return { followed: on, resource: { id, type: ctx.params.entity_type.replace(/s$/, '') } };
    };
    router.add('POST', '/{entity_type}/{entity_id}/follow', follow(true));
    router.add('DELETE', '/{entity_type}/{entity_id}/follow', follow(false));
    // Stryker restore all
  },
};
