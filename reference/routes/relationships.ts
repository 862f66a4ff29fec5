/**
 * Relationships (spec § Relationships): `DELETE /{entity}/{entity_id}/related` with body
 * `{ resource: { id, type } }` answers `{ removed, resource }` and deletes neither record.
 *
 * A relationship between two records exists when one of them links to the other:
 * Person.company_id → Company, Company.primary_contact_id → Person, Opportunity.company_id /
 * primary_contact_id, Project/Task.related_resource → any record. Removing it clears the links
 * in both directions (Person.company_name goes with company_id) and touches date_modified.
 *
 * `resource.type` is the singular type (company, person, …), plural accepted. `removed` is true
 * when a link was cleared, false when there was none (a second removal, or an unknown
 * resource). Open choices (rules/choices.json): which entity types the path accepts beyond
 * people (`relationships.entities`: every record type, or people and companies; others: 404),
 * the status for an unknown entity record (`records.missing-status`). Faults: reference/faults/relationships.ts.
 */
import type { App, AreaModule } from '../app.js';
import { ENTITIES, NESTED_EXTRA, present, type Rec } from '../model.js';
import { idParam, invalid, missing, notFound } from './common.js';

const SINGULAR: Record<string, string> = Object.fromEntries([
  ...Object.entries(ENTITIES).map(([plural, e]) => [plural, e.type]),
  ...Object.values(ENTITIES).map((e) => [e.type, e.type]),
]);

const byType = (type: string) => Object.values(ENTITIES).find((e) => e.type === type)!;

/** Clears the links of `rec` (of `type`) to (otherType, otherId); true when one was cleared. */
function clearLinks(type: string, rec: Rec, otherType: string, otherId: number): Partial<Rec> | undefined {
  const patch: Partial<Rec> = {};
  const same = (v: unknown) => v !== null && v !== undefined && String(v) === String(otherId);
  if ((type === 'person' || type === 'opportunity') && otherType === 'company' && same(rec.company_id))
    Object.assign(patch, { company_id: null, company_name: null });
  if ((type === 'company' || type === 'opportunity') && otherType === 'person' && same(rec.primary_contact_id)) patch.primary_contact_id = null;
  if (type === 'project' || type === 'task') {
    const rr = rec.related_resource as { id: unknown; type: unknown } | null;
    if (rr && same(rr.id) && SINGULAR[String(rr.type).toLowerCase()] === otherType)
      patch.related_resource = type === 'project' ? null : { id: null, type: null };
  }
  return Object.keys(patch).length ? patch : undefined;
}

/** Announces the update; `before` (the record as it was) lets an ids-only payload list only the changed attributes. */
function emitUpdate(app: App, type: string, before: Rec, rec: Rec): void {
  if (['person', 'company', 'lead', 'opportunity', 'project', 'task'].includes(type)) app.emit(type, 'update', present(app, rec), present(app, before));
}

/** Entity types of the path the server accepts (`relationships.entities`). */
const accepts = (app: App, entity: string) => app.choice('relationships.entities') === 'all-records' || entity === 'people' || entity === 'companies';

export const relationships: AreaModule = {
  name: 'relationships',
  api(router, app) {
    router.add('DELETE', '/{entity}/{entity_id}/related', async (ctx) => {
      const entity = (accepts(app, ctx.params.entity) ? ENTITIES[ctx.params.entity] : undefined) ?? notFound(`entity type ${ctx.params.entity}`);
      const entityId = idParam(ctx.params.entity_id, 'entity_id');
      const b = ctx.body;
      if (!b || typeof b !== 'object' || Array.isArray(b)) return invalid(app, 'the body must be { resource: { id, type } }', 'resource');
      const resource = (b as { resource?: unknown }).resource;
      if (!resource || typeof resource !== 'object' || Array.isArray(resource)) return invalid(app, 'resource must be an object { id, type }', 'resource');
      const { id: rid, type: rtype } = resource as { id?: unknown; type?: unknown };
      if (!((typeof rid === 'number' && Number.isInteger(rid)) || (typeof rid === 'string' && /^\d+$/.test(rid))))
        return invalid(app, 'resource.id must be an identifier', 'resource.id');
      if (typeof rtype !== 'string' || !SINGULAR[rtype.toLowerCase()])
        return invalid(app, 'resource.type must be a record type (company, person, lead, opportunity, project, task)', 'resource.type');
      const otherType = SINGULAR[rtype.toLowerCase()];
      const otherId = Number(rid);

      const own = app.store.collection<Rec>(entity.collection);
      const rec = own.get(entityId) ?? missing(app, entity.type);
      const others = app.store.collection<Rec>(byType(otherType).collection);
      const other = others.get(otherId);

      // Read-check-write without await: atomic.
      const p1 = clearLinks(entity.type, rec, otherType, otherId);
      const p2 = other && !(other.id === rec.id && otherType === entity.type) ? clearLinks(otherType, other, entity.type, rec.id) : undefined;
      const removed = !!(p1 || p2);
      if (!removed && app.choice('relationships.remove-none') === 'refused') missing(app, 'relationship');
      if (removed) {
        await app.seam('relationships.remove', { own, rec, others, other }, () => {
          const t = app.now();
          if (p1) emitUpdate(app, entity.type, rec, own.update(rec.id, { ...p1, date_modified: t })!);
          if (p2 && other) emitUpdate(app, otherType, other, others.update(other.id, { ...p2, date_modified: t })!);
        });
      }
      const extra = app.choice('general.extra-fields');
      const nested = extra === 'nested-members' ? { [NESTED_EXTRA]: true } : {};
      const answer: Record<string, unknown> = { removed, resource: { id: rid, type: rtype, ...nested }, ...nested };
      if (extra !== 'none') answer.conformance_variant_extra = true;
      return answer;
    });
  },
};
