/**
 * spec § Resources → Opportunity (pipeline_id, pipeline_stage_id) and § Endpoints → Pipelines: the
 * pipeline and stage of a created Opportunity are ones GET /pipelines lists.
 */
import type { Pipeline } from '../../contracts/index.js';
import { bulkCreate, isCreatedEntry } from '../opportunities/bulk.js';
import { breaks, describeExchange, expect, rule, test } from '../support/fixtures/test.js';
import { recordBody, sameId } from '../support/make.js';

test(
  ...rule('PIPE-5', 'an opportunity created without pipeline_id is in a pipeline GET /pipelines lists, at one of its stages', async ({ api, ns }) => {
    const list = await api.get<Pipeline[]>('/pipelines');
    expect(list, `GET /pipelines${breaks(['PIPE-1'])}`).toHaveStatus(200);
    const pipelines = Array.isArray(list.body) ? list.body : [];
    let res = await bulkCreate<unknown[]>(api, { opportunities: [recordBody(ns, 'no pipeline')] });
    expect(res, `a bulk create of one entry${breaks(['BULK-3'])}`).toHaveStatus(200);
    let sent = 'without pipeline_id';
    if (!isCreatedEntry(Array.isArray(res.body) ? res.body[0] : undefined)) {
      // The server fails an entry without pipeline_id (allowed: nothing says it is optional): one in the first opportunity pipeline listed.
      const first = pipelines.find((p) => p.type === 'opportunity');
      test.skip(!first, 'the target fails an entry without pipeline_id and GET /pipelines lists no opportunity pipeline: no Opportunity to judge');
      res = await bulkCreate<unknown[]>(api, { opportunities: [recordBody(ns, 'first pipeline', { pipeline_id: first!.id })] });
      expect(res, `a bulk create of one entry${breaks(['BULK-3'])}`).toHaveStatus(200);
      sent = `in pipeline ${String(first!.id)}, the first opportunity pipeline listed`;
    }
    const opp = (res.body as unknown[])[0];
    expect(isCreatedEntry(opp), `the entry ${sent} is created${breaks(['BULK-4'])}\n${describeExchange(res.exchange)}`).toBe(true);
    const created = opp as Record<string, unknown>;
    const ids = pipelines.map((p) => String(p.id)).join(', ') || 'none';
    const pipeline = pipelines.find((p) => sameId(p.id, created.pipeline_id));
    expect(
      pipeline,
      `pipeline_id ${JSON.stringify(created.pipeline_id)} of the opportunity created ${sent} is a pipeline GET /pipelines lists (ids: ${ids})`,
    ).toBeTruthy();
    const stages = (pipeline!.stages ?? []).map((s) => s.id);
    expect(
      stages.some((id) => sameId(id, created.pipeline_stage_id)),
      `pipeline_stage_id ${JSON.stringify(created.pipeline_stage_id)} is a stage of pipeline ${String(pipeline!.id)} (stages: ${stages.map(String).join(', ') || 'none'})`,
    ).toBe(true);
    if (created.pipeline_type != null && pipeline!.type != null)
      expect(created.pipeline_type, `pipeline_type is the type of pipeline ${String(pipeline!.id)}`).toBe(pipeline!.type);
    if (created.pipeline_is_revenue != null && pipeline!.is_revenue != null)
      expect(created.pipeline_is_revenue, `pipeline_is_revenue is the is_revenue of pipeline ${String(pipeline!.id)}`).toBe(pipeline!.is_revenue);
  }),
);
