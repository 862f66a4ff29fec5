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
  // Stryker disable next-line ArrayDeclaration: plural types taken as their singular: the reference's leniency (the spec shows singular types)
  ...Object.entries(ENTITIES).map(([plural, e]) => [plural, e.type]),
  ...Object.values(ENTITIES).map((e) => [e.type, e.type]),
]);

const byType = (type: string) => Object.values(ENTITIES).find((e) => e.type === type)!;

/** Clears the links of `rec` (of `type`) to (otherType, otherId); true when one was cleared. */
function clearLinks(type: string, rec: Rec, otherType: string, otherId: number): Partial<Rec> | undefined {
  const patch: Partial<Rec> = {};
  // A link that is null or absent reads "null" or "undefined", never an id's digits.
  const same = (v: unknown) => String(v) === String(otherId);
  // A Person's or an Opportunity's company: no endpoint of the spec reads a Person or an Opportunity, so whether it is cleared
  // (or cleared too) never shows; on another record the members it would add are extra members (open choice general.extra-fields).
  // Stryker disable next-line all: a Person's or an Opportunity's company (above)
  if ((type === 'person' || type === 'opportunity') && otherType === 'company' && same(rec.company_id))
    // Stryker disable next-line all: the same
    Object.assign(patch, { company_id: null, company_name: null });
  // A Company's (or an Opportunity's) primary contact: whether it is a relationship this endpoint removes is not stated, so it
  // is never asserted cleared (and an Opportunity is not read at all). The type terms made true never decide: only Companies
  // and Opportunities have the member, and with a path of `people` (the only entity shown) the other record is the Person.
  // Made true, or loosened, a primary contact that is another Person is cleared, which REL-5 catches (specs/relationships/
  // remove.spec.ts; checked by hand): StrykerJS disables both or neither.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: not stated (above)
  if ((type === 'company' || type === 'opportunity') && otherType === 'person' && same(rec.primary_contact_id)) patch.primary_contact_id = null;
  // Projects and Tasks link to any record (related_resource); no other record has the member.
  const rr = rec.related_resource as { id: unknown; type: unknown } | null | undefined;
  // The type counts: a Project related to a Company by the Person's id is not related to the Person (REL-5).
  if (rr && same(rr.id) && SINGULAR[String(rr.type).toLowerCase()] === otherType)
    // A Project's related_resource may be null ("related_resource or null"), a Task's is an object whose members may be null.
    // Made false, a Project's is { id: null, type: null }, as valid; made true, a Task's is null, which REL-4 catches (checked by hand).
    // Stryker disable next-line ConditionalExpression,StringLiteral: a Project's cleared link null or an object of nulls (above)
    patch.related_resource = type === 'project' ? null : { id: null, type: null };
  return Object.keys(patch).length ? patch : undefined;
}

/**
 * Announces the update; `before` (the record as it was) lets an ids-only payload list only the changed attributes.
 * Whether removing a relationship is an `update` event of the records it linked is not stated (as whether a conversion is a
 * Lead's `delete`, EVENT-8, a MAY): what is announced is never judged.
 */
// Stryker disable next-line BlockStatement: not stated (above)
function emitUpdate(app: App, type: string, before: Rec, rec: Rec): void {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration,StringLiteral,CallExpression: the same
  if (['person', 'company', 'lead', 'opportunity', 'project', 'task'].includes(type)) app.emit(type, 'update', present(app, rec), present(app, before));
}

/**
 * Entity types of the path the server accepts (`relationships.entities`). Under its default (all-records) the later terms
 * never decide; changed, the server takes people and companies only, or every type: the choice's alternatives. Made false
 * as a whole (or with the people term), people are refused, which every REL test catches: StrykerJS disables both or neither.
 */
// Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: open choice relationships.entities (above)
const accepts = (app: App, entity: string) => app.choice('relationships.entities') === 'all-records' || entity === 'people' || entity === 'companies';

export const relationships: AreaModule = {
  name: 'relationships',
  api(router, app) {
    router.add('DELETE', '/{entity}/{entity_id}/related', async (ctx) => {
      const entity = (accepts(app, ctx.params.entity) ? ENTITIES[ctx.params.entity] : undefined) ?? notFound(`entity type ${ctx.params.entity}`);
      const entityId = idParam(ctx.params.entity_id, 'entity_id');
      const b = ctx.body;
      // A body that is no object: refused (WIRE-5). A primitive has no resource and would be refused below anyway.
      if (!b || Array.isArray(b)) return invalid(app, 'the body must be { resource: { id, type } }', 'resource');
      const resource = (b as { resource?: unknown }).resource;
      // The same: a primitive resource has no id and is refused below.
      if (!resource || Array.isArray(resource)) return invalid(app, 'resource must be an object { id, type }', 'resource');
      const { id: rid, type: rtype } = resource as { id?: unknown; type?: unknown };
      // An identifier: an integer, or a string of digits (the id it spells). Whether a string id, or which strings, are taken or
      // refused is open (errors.ill-typed-input; the spec fixes no id format): made false or its pattern changed, `digits` gives
      // that. Made true, or its typeof term made true, an id that is an object or a list is taken and echoed, which WIRE-5
      // catches (specs/relationships/bad-input.spec.ts; checked by hand): StrykerJS disables both or neither.
      // Stryker disable next-line ConditionalExpression,StringLiteral,Regex: string ids taken or refused (above)
      const digits = typeof rid === 'string' && /^\d+$/.test(rid);
      if (!(Number.isInteger(rid) || digits)) return invalid(app, 'resource.id must be an identifier', 'resource.id');
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
      // A record named as its own resource has its links cleared once (p1). That test is equivalent where a test can tell: with a
      // path of `people` (the only entity shown) it is a Person, which links to no Person, and ids are unique across record types
      // under the default. Made true or `||`, a resource no record has fails with a 5xx, which REL-1 catches (checked by hand);
      // made false, nothing of the resource is cleared (REL-4): StrykerJS disables both or neither.
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: the self test (above)
      const p2 = other && !(other.id === rec.id && otherType === entity.type) ? clearLinks(otherType, other, entity.type, rec.id) : undefined;
      // What `removed` says is not shown and never judged (remove.spec.ts): made true, it says so of a removal that removed
      // nothing, changing nothing else. Made false, nothing is removed, which REL-4 catches: StrykerJS disables both or neither.
      // Stryker disable next-line ConditionalExpression: `removed` made true (above)
      const removed = !!(p1 || p2);
      // Stryker disable next-line all: open choice relationships.remove-none (nothing to remove: removed false, or refused)
      if (!removed && app.choice('relationships.remove-none') === 'refused') missing(app, 'relationship');
      // Made true, the seam runs with nothing to write: equivalent. Made false, REL-4 fails: StrykerJS disables both or neither.
      // Stryker disable next-line ConditionalExpression: made true, nothing to write (above)
      if (removed) {
        await app.seam('relationships.remove', { own, rec, others, other }, () => {
          const t = app.now();
          // The record of the path: with `people` (the only entity shown) a Person, which no endpoint of the spec reads.
          // Stryker disable next-line ConditionalExpression,ObjectLiteral,CallExpression: the Person's own links and date_modified (above)
          if (p1) emitUpdate(app, entity.type, rec, own.update(rec.id, { ...p1, date_modified: t })!);
          // p2 is set only where `other` exists. Made true, the other record is touched where none of its links changed (its date_modified, an
          // update notification): whether removing a relationship modifies the other record is not shown; its links stay as they were (REL-5). Hides
          // the test made false (killed: the other record's link is not cleared, REL-4). A kill at quick had rested on another test's notifications.
          // Stryker disable next-line ConditionalExpression: the other record touched, not shown (above)
          if (p2) emitUpdate(app, otherType, other!, others.update(other!.id, { ...p2, date_modified: t })!);
        });
      }
      // Stryker disable next-line StringLiteral: the choice's id emptied, the answer carries an extra member (general.extra-fields: extra members are allowed)
      const extra = app.choice('general.extra-fields');
      const nested = extra === 'nested-members' ? { [NESTED_EXTRA]: true } : {};
      const answer: Record<string, unknown> = { removed, resource: { id: rid, type: rtype, ...nested }, ...nested };
      if (extra !== 'none') answer.conformance_variant_extra = true;
      return answer;
    });
  },
};
