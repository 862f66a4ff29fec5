/**
 * GET /pipelines (spec § Pipelines): seeded pipelines of all three types, read only.
 * Open choice: `general.extra-fields`. Faults: reference/faults/pipelines.ts.
 */
import type { AreaModule } from '../app.js';

export interface PipelineRecord {
  id: number;
  name: string;
  type: 'opportunity' | 'project' | 'item';
  is_revenue: boolean;
  stages: { id: number; name: string; win_probability: number }[];
}

/** Seeded pipelines; other modules use them (first stage defaults, bulk fields). */
// Stryker disable StringLiteral,BooleanLiteral,ArrayDeclaration: seed data; no account's pipelines are fixed (names, stages, is_revenue)
export const PIPELINES: PipelineRecord[] = [
  {
    id: 101,
    name: 'Sales',
    type: 'opportunity',
    is_revenue: true,
    stages: [
      { id: 1011, name: 'Qualified', win_probability: 10 },
      { id: 1012, name: 'Proposal', win_probability: 50 },
      { id: 1013, name: 'Negotiation', win_probability: 80 },
    ],
  },
  {
    id: 102,
    name: 'Partners',
    type: 'opportunity',
    is_revenue: false,
    stages: [
      { id: 1021, name: 'Introduced', win_probability: 5 },
      { id: 1022, name: 'Signed', win_probability: 100 },
    ],
  },
  {
    id: 103,
    name: 'Delivery',
    type: 'project',
    is_revenue: false,
    stages: [
      { id: 1031, name: 'Planned', win_probability: 0 },
      { id: 1032, name: 'Running', win_probability: 0 },
    ],
  },
  { id: 104, name: 'Inventory', type: 'item', is_revenue: false, stages: [{ id: 1041, name: 'In stock', win_probability: 0 }] },
];
// Stryker restore StringLiteral,BooleanLiteral,ArrayDeclaration

export const pipelines: AreaModule = {
  name: 'pipelines',
  seed(app) {
    const c = app.store.collection<PipelineRecord>('pipelines');
    for (const p of PIPELINES) c.insert(structuredClone(p));
    // Stryker disable next-line StringLiteral,BooleanLiteral: seed data (a pipeline without stages; its name and is_revenue are any)
    c.insert({ id: 105, name: 'Empty', type: 'project', is_revenue: false, stages: [] });
  },
  api(router, app) {
    const c = app.store.collection<PipelineRecord>('pipelines');
    // Stryker disable all: the alternatives of open choice general.extra-fields (extra members are allowed)
    const extraFields = app.choice('general.extra-fields');
    const extra = extraFields !== 'none' ? { extra_note: 'extra member' } : {};
    const stage = (s: object) => (extraFields === 'nested-members' ? { ...s, conformance_nested_extra: true } : s);
    // Stryker restore all
    // `pipelines.order`: by id, or the reverse.
    // Stryker disable next-line MethodExpression: the alternative of open choice pipelines.order (the list's order is not shown)
    const ordered = () => (app.choice('pipelines.order') === 'reversed' ? c.all().reverse() : c.all());
    router.add('GET', '/pipelines', () => ordered().map((p) => ({ ...structuredClone(p), stages: p.stages.map(stage), ...extra })));
  },
};
