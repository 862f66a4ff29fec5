/** Faults of GET /pipelines (reference/routes/pipelines.ts): post-processors and one extra route. */
import type { PipelineRecord } from '../routes/pipelines.js';
import type { Fault, Presented } from './types.js';

const ok = (res: Presented) => res.status >= 200 && res.status < 300;
type Shown = Omit<PipelineRecord, 'stages'> & { stages: Record<string, unknown>[] | null };
/** Applies `f` to every pipeline of a successful answer. */
const eachPipeline =
  (f: (p: Shown) => Shown) =>
  (res: Presented): Presented =>
    ok(res) ? { ...res, body: (res.body as Shown[]).map(f) } : res;

export const PIPELINES_FAULTS: Fault[] = [
  {
    name: 'pipeline-type-unknown',
    rules: ['PIPE-2'],
    description: 'item pipelines report type "items"',
    routes: [{ route: 'GET /pipelines', respond: eachPipeline((p) => (p.type === 'item' ? { ...p, type: 'items' as PipelineRecord['type'] } : p)) }],
  },
  {
    name: 'stage-probability-string',
    rules: ['PIPE-3'],
    description: 'win_probability is sent as a string',
    routes: [
      {
        route: 'GET /pipelines',
        respond: eachPipeline((p) => ({ ...p, stages: p.stages && p.stages.map((s) => ({ ...s, win_probability: String(s.win_probability) })) })),
      },
    ],
  },
  {
    name: 'pipelines-writable',
    rules: ['PIPE-4'],
    description: 'POST /pipelines creates a pipeline',
    routes: [
      {
        route: 'POST /pipelines',
        add: (ctx, app) =>
          app.store
            .collection<PipelineRecord>('pipelines')
            .insert({ name: String((ctx.body as { name?: string })?.name ?? 'New'), type: 'opportunity', is_revenue: false, stages: [] }),
      },
    ],
  },
  {
    name: 'pipelines-list-empty',
    rules: ['PIPE-5'],
    description: 'GET /pipelines answers an empty list, though opportunities are created in the seeded pipelines',
    routes: [{ route: 'GET /pipelines', respond: (res) => (ok(res) ? { ...res, body: [] } : res) }],
  },
  {
    name: 'pipelines-stages-null',
    rules: ['PIPE-1', 'WIRE-3'],
    description: 'a pipeline without stages has stages: null',
    routes: [{ route: 'GET /pipelines', respond: eachPipeline((p) => (p.stages && p.stages.length === 0 ? { ...p, stages: null } : p)) }],
  },
];
