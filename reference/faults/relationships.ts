/** Faults of Relationships (`DELETE /{entity}/{entity_id}/related`). */
import { ENTITIES, type Rec } from '../model.js';
import type { Collection } from '../store.js';
import type { Fault } from './types.js';
import { onSuccess } from './reshape.js';

declare module './types.js' {
  interface SeamPoints {
    /**
     * Clearing the links between `rec` (of the path, in `own`) and `other` (the resource, in
     * `others`; undefined when it does not exist), once a link was found.
     */
    'relationships.remove': { own: Collection<Rec>; rec: Rec; others: Collection<Rec>; other: Rec | undefined };
  }
}

const ROUTE = 'DELETE /{entity}/{entity_id}/related';
type Ctx = { own: Collection<Rec>; rec: Rec; others: Collection<Rec>; other: Rec | undefined };

export const RELATIONSHIPS_FAULTS: Fault[] = [
  {
    name: 'relationship-removal-deletes-record',
    rules: ['REL-2'],
    description: 'removing a relationship deletes the related resource (e.g. the Company) instead of the link',
    seam: { 'relationships.remove': <T>({ others, other }: Ctx, next: () => T) => (other ? (others.delete(other.id) as T) : next()) },
  },
  {
    name: 'relationship-removal-deletes-entity',
    rules: ['REL-2'],
    description: 'removing a relationship deletes the entity record of the path (e.g. the Person)',
    seam: { 'relationships.remove': <T>({ own, rec }: Ctx) => own.delete(rec.id) as T },
  },
  {
    name: 'relationship-answer-missing-resource',
    rules: ['REL-1', 'REL-3'],
    description: 'the answer is { removed } without resource',
    routes: [{ route: ROUTE, respond: onSuccess((b) => ({ removed: (b as { removed: unknown }).removed })) }],
  },
  {
    name: 'relationship-answer-names-entity',
    rules: ['REL-3'],
    description: 'the answer names the entity of the path instead of the resource sent',
    routes: [
      {
        route: ROUTE,
        respond: (res, ctx) =>
          onSuccess((b) => ({ ...(b as object), resource: { id: Number(ctx.params.entity_id), type: ENTITIES[ctx.params.entity]?.type } }))(res),
      },
    ],
  },
  {
    name: 'relationship-removal-clears-all',
    rules: ['REL-5'],
    description: "removing a relationship with a Project (or Task) clears every link of that kind's records to the record of the path",
    seam: {
      'relationships.remove': <T>({ rec, others }: Ctx, next: () => T) => {
        const out = next();
        for (const r of others.all()) {
          const rr = r.related_resource as { id: unknown; type: unknown } | null | undefined;
          // A Task's cleared link is an object of nulls, a Project's null (as the reference clears them).
          if (rr && String(rr.id) === String(rec.id)) others.update(r.id, { related_resource: 'priority' in r ? { id: null, type: null } : null });
        }
        return out;
      },
    },
  },
  {
    name: 'relationship-not-removed',
    rules: ['REL-4'],
    description: 'the answer says removed: true but the link is kept',
    seam: { 'relationships.remove': <T>() => undefined as T },
  },
];
