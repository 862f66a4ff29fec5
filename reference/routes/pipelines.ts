/** GET /pipelines (spec § Pipelines): seeded pipelines of all three types, read only. */
import type { App, AreaModule } from '../app.js';

export interface PipelineRecord {
  id: number;
  name: string;
  type: 'opportunity' | 'project' | 'item';
  is_revenue: boolean;
  stages: { id: number; name: string; win_probability: number }[];
}

/** Seeded pipelines; other modules use them (first stage defaults, bulk fields). */
export const PIPELINES: PipelineRecord[] = [
  { id: 101, name: 'Sales', type: 'opportunity', is_revenue: true, stages: [
    { id: 1011, name: 'Qualified', win_probability: 10 }, { id: 1012, name: 'Proposal', win_probability: 50 }, { id: 1013, name: 'Negotiation', win_probability: 80 },
  ] },
  { id: 102, name: 'Partners', type: 'opportunity', is_revenue: false, stages: [
    { id: 1021, name: 'Introduced', win_probability: 5 }, { id: 1022, name: 'Signed', win_probability: 100 },
  ] },
  { id: 103, name: 'Delivery', type: 'project', is_revenue: false, stages: [
    { id: 1031, name: 'Planned', win_probability: 0 }, { id: 1032, name: 'Running', win_probability: 0 },
  ] },
  { id: 104, name: 'Inventory', type: 'item', is_revenue: false, stages: [{ id: 1041, name: 'In stock', win_probability: 0 }] },
];

export function pipelineById(app: App, id: unknown): PipelineRecord | undefined {
  return app.store.collection<PipelineRecord>('pipelines').get(Number(id));
}

export const pipelines: AreaModule = {
  name: 'pipelines',
  faults: [
    { name: 'pipeline-type-unknown', rules: ['PIPE-2'], description: 'item pipelines report type "items"' },
    { name: 'stage-probability-string', rules: ['PIPE-3'], description: 'win_probability is sent as a string' },
    { name: 'pipelines-writable', rules: ['PIPE-4'], description: 'POST /pipelines creates a pipeline' },
    { name: 'pipelines-stages-null', rules: ['PIPE-1', 'WIRE-3'], description: 'a pipeline without stages has stages: null' },
  ],
  seed(app) {
    const c = app.store.collection<PipelineRecord>('pipelines');
    for (const p of PIPELINES) c.insert(structuredClone(p));
    c.insert({ id: 105, name: 'Empty', type: 'project', is_revenue: false, stages: [] });
  },
  api(router, app) {
    const c = app.store.collection<PipelineRecord>('pipelines');
    router.add('GET', '/pipelines', () =>
      c.all().map((p) => ({
        ...p,
        type: app.fault('pipeline-type-unknown') && p.type === 'item' ? 'items' : p.type,
        stages: app.fault('pipelines-stages-null') && p.stages.length === 0 ? null : p.stages.map((s) => ({ ...s, win_probability: app.fault('stage-probability-string') ? String(s.win_probability) : s.win_probability })),
        ...(app.variant ? { extra_note: 'variant' } : {}),
      })),
    );
    if (app.fault('pipelines-writable')) {
      router.add('POST', '/pipelines', (ctx) => c.insert({ name: String((ctx.body as { name?: string })?.name ?? 'New'), type: 'opportunity', is_revenue: false, stages: [] }));
    }
  },
};
