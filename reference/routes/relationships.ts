/**
 * Relationships (spec § Relationships): `DELETE /{entity}/{entity_id}/related` with body
 * `{ resource: { id, type } }` answers `{ removed, resource }` and deletes neither record.
 *
 * A relationship between two records exists when one of them links to the other:
 * Person.company_id → Company, Company.primary_contact_id → Person, Opportunity.company_id /
 * primary_contact_id, Project/Task.related_resource → any record. Removing it clears the links
 * in both directions (Person.company_name goes with company_id) and touches date_modified.
 *
 * Open choices: `entity` may be people, companies, leads, opportunities, projects or tasks
 * (the spec only shows people); `resource.type` is the singular type (company, person, …), plural
 * accepted. `removed` is true when a link was cleared, false when there was none (a second
 * removal, or an unknown resource). An unknown entity record answers 404.
 */
import type { App, AreaModule } from '../app.js';
import { C, present, type Rec } from '../model.js';
import { idParam, invalid, notFound } from './common.js';

/** Path segment → collection and singular type. */
export const ENTITIES: Record<string, { collection: string; type: string }> = {
  people: { collection: C.people, type: 'person' },
  companies: { collection: C.companies, type: 'company' },
  leads: { collection: C.leads, type: 'lead' },
  opportunities: { collection: C.opportunities, type: 'opportunity' },
  projects: { collection: C.projects, type: 'project' },
  tasks: { collection: C.tasks, type: 'task' },
};

const SINGULAR: Record<string, string> = Object.fromEntries([
  ...Object.entries(ENTITIES).map(([plural, e]) => [plural, e.type]),
  ...Object.values(ENTITIES).map((e) => [e.type, e.type]),
]);

const byType = (type: string) => Object.values(ENTITIES).find((e) => e.type === type)!;

/** Clears the links of `rec` (of `type`) to (otherType, otherId); true when one was cleared. */
function clearLinks(type: string, rec: Rec, otherType: string, otherId: number): Partial<Rec> | undefined {
  const patch: Partial<Rec> = {};
  const same = (v: unknown) => v !== null && v !== undefined && String(v) === String(otherId);
  if ((type === 'person' || type === 'opportunity') && otherType === 'company' && same(rec.company_id)) Object.assign(patch, { company_id: null, company_name: null });
  if ((type === 'company' || type === 'opportunity') && otherType === 'person' && same(rec.primary_contact_id)) patch.primary_contact_id = null;
  if (type === 'project' || type === 'task') {
    const rr = rec.related_resource as { id: unknown; type: unknown } | null;
    if (rr && same(rr.id) && SINGULAR[String(rr.type).toLowerCase()] === otherType) patch.related_resource = type === 'project' ? null : { id: null, type: null };
  }
  return Object.keys(patch).length ? patch : undefined;
}

function emitUpdate(app: App, type: string, rec: Rec): void {
  if (['person', 'company', 'lead', 'opportunity', 'project', 'task'].includes(type)) app.emit(type, 'update', present(app, rec));
}

export const relationships: AreaModule = {
  name: 'relationships',
  faults: [
    { name: 'relationship-removal-deletes-record', rules: ['REL-2'], description: 'removing a relationship deletes the related resource (e.g. the Company) instead of the link' },
    { name: 'relationship-removal-deletes-entity', rules: ['REL-2'], description: 'removing a relationship deletes the entity record of the path (e.g. the Person)' },
    { name: 'relationship-answer-missing-resource', rules: ['REL-1', 'REL-3'], description: 'the answer is { removed } without resource' },
    { name: 'relationship-answer-names-entity', rules: ['REL-3'], description: 'the answer names the entity of the path instead of the resource sent' },
    { name: 'relationship-not-removed', rules: ['REL-4'], description: 'the answer says removed: true but the link is kept' },
  ],
  api(router, app) {
    router.add('DELETE', '/{entity}/{entity_id}/related', (ctx) => {
      const entity = ENTITIES[ctx.params.entity] ?? notFound(`entity type ${ctx.params.entity}`);
      const entityId = idParam(ctx.params.entity_id, 'entity_id');
      const b = ctx.body;
      if (!b || typeof b !== 'object' || Array.isArray(b)) return invalid(app, 'the body must be { resource: { id, type } }', 'resource');
      const resource = (b as { resource?: unknown }).resource;
      if (!resource || typeof resource !== 'object' || Array.isArray(resource)) return invalid(app, 'resource must be an object { id, type }', 'resource');
      const { id: rid, type: rtype } = resource as { id?: unknown; type?: unknown };
      if (!((typeof rid === 'number' && Number.isInteger(rid)) || (typeof rid === 'string' && /^\d+$/.test(rid)))) return invalid(app, 'resource.id must be an identifier', 'resource.id');
      if (typeof rtype !== 'string' || !SINGULAR[rtype.toLowerCase()]) return invalid(app, 'resource.type must be a record type (company, person, lead, opportunity, project, task)', 'resource.type');
      const otherType = SINGULAR[rtype.toLowerCase()];
      const otherId = Number(rid);

      const own = app.store.collection<Rec>(entity.collection);
      const rec = own.get(entityId) ?? notFound(entity.type);
      const others = app.store.collection<Rec>(byType(otherType).collection);
      const other = others.get(otherId);

      // Read-check-write without await: atomic.
      let removed = false;
      const p1 = clearLinks(entity.type, rec, otherType, otherId);
      const p2 = other && !(other.id === rec.id && otherType === entity.type) ? clearLinks(otherType, other, entity.type, rec.id) : undefined;
      if (p1 || p2) {
        removed = true;
        if (app.fault('relationship-removal-deletes-record') && other) others.delete(other.id);
        else if (app.fault('relationship-removal-deletes-entity')) own.delete(rec.id);
        else if (!app.fault('relationship-not-removed')) {
          const t = app.now();
          if (p1) emitUpdate(app, entity.type, own.update(rec.id, { ...p1, date_modified: t })!);
          if (p2 && other) emitUpdate(app, otherType, others.update(other.id, { ...p2, date_modified: t })!);
        }
      }
      if (app.fault('relationship-answer-missing-resource')) return { removed };
      const named = app.fault('relationship-answer-names-entity') ? { id: rec.id, type: entity.type } : { id: rid, type: rtype };
      return { removed, resource: named, ...(app.variant ? { conformance_variant_extra: true } : {}) };
    });
  },
};
