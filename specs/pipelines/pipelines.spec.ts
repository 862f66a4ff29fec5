/** spec § Endpoints → Pipelines, § Resources → Pipeline: read-only pipelines with stages. */
import { Pipeline, PipelineList } from '../../contracts/index.js';
import { expect, expectJson, rule, test } from '../support/fixtures/test.js';

test(...rule('PIPE-1', 'GET /pipelines answers an array of Pipeline', async ({ api }) => {
  const res = await api.get('/pipelines');
  expect(res).toHaveStatus(200);
  expectJson(res);
  expect(res).toMatchContract(PipelineList);
}));

test(...rule('PIPE-2', 'every pipeline has a type of opportunity, project or item and a boolean is_revenue', async ({ api }) => {
  const res = await api.get<Pipeline[]>('/pipelines');
  expect(res).toHaveStatus(200);
  for (const p of res.body) {
    expect(['opportunity', 'project', 'item'], `type of pipeline ${p.id}`).toContain(p.type);
    expect(typeof p.is_revenue, `is_revenue of pipeline ${p.id}`).toBe('boolean');
  }
}));

test(...rule('PIPE-3', 'every stage of every pipeline has an id, a name and a numeric win_probability', async ({ api }) => {
  const res = await api.get<Pipeline[]>('/pipelines');
  expect(res).toHaveStatus(200);
  for (const p of res.body) {
    expect(Array.isArray(p.stages), `stages of pipeline ${p.id} is a list`).toBe(true);
    for (const s of p.stages) {
      expect(s.id, `stage id in pipeline ${p.id}`).not.toBeNull();
      expect(typeof s.name, `stage name in pipeline ${p.id}`).toBe('string');
      expect(typeof s.win_probability, `win_probability of stage ${s.id}`).toBe('number');
    }
  }
}));

test(...rule('PIPE-4', 'a POST to /pipelines creates no pipeline (pipelines are read only)', async ({ api, ns }) => {
  const before = await api.get<Pipeline[]>('/pipelines');
  expect(before).toHaveStatus(200);
  await api.post('/pipelines', { name: ns.name('pipeline'), type: 'opportunity', stages: [] });
  const after = await api.get<Pipeline[]>('/pipelines');
  expect(after.body.map((p) => p.id).sort(), 'the pipeline list is unchanged').toEqual(before.body.map((p) => p.id).sort());
}));
