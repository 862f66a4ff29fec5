/** spec § What the service does (wire format), § Versioning. */
import { ProjectList } from '../../contracts/index.js';
import { breaks, expect, expectJson, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';

test(
  ...rule('WIRE-1', 'GET /account and GET /pipelines answer JSON with Content-Type application/json', async ({ api }) => {
    for (const path of ['/account', '/pipelines']) {
      const res = await api.get(path);
      expect(res).toHaveStatus(200);
      expectJson(res);
    }
  }),
);

test(
  ...rule('WIRE-4', 'the API answers under /developer_api/v1', async ({ api, target }) => {
    const res = await api.get(`${target.baseUrl}/developer_api/v1/account`);
    expect(res).toHaveStatus(200);
  }),
);

test(
  ...rule('WIRE-5', 'a malformed JSON body is refused with a 4xx status, never a 5xx (or answered as a search)', async ({ api }) => {
    const res = await api.send({ method: 'POST', path: '/projects/search', rawBody: '{"page_size": 2,', headers: { 'Content-Type': 'application/json' } });
    await expectRefusedOrTaken(res, (taken) =>
      expect(taken, `the answer to a malformed search that was taken${breaks(['SEARCH-1'])}`).toMatchContract(ProjectList),
    );
  }),
);

test(
  ...rule('WIRE-3', 'lists are returned as [] and never null: pipeline stages are lists', async ({ api }) => {
    const res = await api.get<{ id: unknown; stages: unknown }[]>('/pipelines');
    expect(res).toHaveStatus(200);
    for (const p of res.body) expect(Array.isArray(p.stages), `stages of pipeline ${String(p.id)} is a list`).toBe(true);
  }),
);
