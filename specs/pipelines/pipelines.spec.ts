/** spec § Endpoints → Pipelines, § Resources → Pipeline: read-only pipelines with stages. */
import { Pipeline, PipelineList } from '../../contracts/index.js';
import { breaks, expect, expectJson, rule, test } from '../support/fixtures/test.js';

test(
  ...rule('PIPE-1', 'GET /pipelines answers an array of Pipeline', async ({ api }) => {
    const res = await api.get('/pipelines');
    expect(res).toHaveStatus(200);
    expectJson(res);
    expect(res).toMatchContract(PipelineList);
  }),
);

test(
  ...rule('PIPE-2', 'every pipeline has a type of opportunity, project or item and is_revenue is a boolean or null', async ({ api }) => {
    const res = await api.get<Pipeline[]>('/pipelines');
    expect(res).toHaveStatus(200);
    for (const p of res.body) {
      expect(['opportunity', 'project', 'item'], `type of pipeline ${p.id}`).toContain(p.type);
      // A bare type guarantees no value: absent is null ("absent or empty are returned as null").
      expect(
        p.is_revenue === null || typeof p.is_revenue === 'boolean',
        `is_revenue of pipeline ${p.id} is a boolean or null: ${JSON.stringify(p.is_revenue)}`,
      ).toBe(true);
    }
  }),
);

test(
  ...rule('PIPE-3', 'every stage of every pipeline has an id, a string or null name and a numeric or null win_probability', async ({ api }) => {
    const res = await api.get<Pipeline[]>('/pipelines');
    expect(res).toHaveStatus(200);
    for (const p of res.body) {
      // A pipeline's stages as a list are PIPE-1's (a list, never null: WIRE-3); its stages are judged here.
      expect(Array.isArray(p.stages), `stages of pipeline ${p.id} is a list${breaks(['PIPE-1', 'WIRE-3'])}`).toBe(true);
      for (const s of p.stages) {
        expect(s.id, `stage id in pipeline ${p.id}`).not.toBeNull();
        expect(s.name === null || typeof s.name === 'string', `stage name in pipeline ${p.id} is a string or null: ${JSON.stringify(s.name)}`).toBe(true);
        expect(
          s.win_probability === null || typeof s.win_probability === 'number',
          `win_probability of stage ${s.id} is a number or null: ${JSON.stringify(s.win_probability)}`,
        ).toBe(true);
      }
    }
  }),
);

test(
  ...rule('PIPE-4', 'a POST to /pipelines creates no pipeline (pipelines are read only)', async ({ api, ns }) => {
    const before = await api.get<Pipeline[]>('/pipelines');
    expect(before).toHaveStatus(200);
    await api.post('/pipelines', { name: ns.name('pipeline'), type: 'opportunity', stages: [] });
    const after = await api.get<Pipeline[]>('/pipelines');
    expect(after.body.map((p) => p.id).sort(), 'the pipeline list is unchanged').toEqual(before.body.map((p) => p.id).sort());
  }),
);
