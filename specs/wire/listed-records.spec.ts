/**
 * spec § What the service does (WIRE-3: lists as `[]`, never null), read only: the records the
 * account already holds, whoever made them, are judged by their contracts. The suite's own
 * records always carry tags; records made by people and other integrations often have empty
 * lists, so these are the places where a real account shows them.
 *
 * Unfiltered searches of projects and tasks, first pages only (default page size 20, at most
 * {@link PAGES} pages: the account may be large), and the pipelines. Nothing is written.
 */
import type { ApiClient } from '../support/api.js';
import { expect, rule, test } from '../support/test.js';
import { judgeLists } from './observe.js';
import type { TestInfo } from '@playwright/test';

/** Pages read per search. */
const PAGES = 5;
/** The spec's default page size. */
const DEFAULT_PAGE_SIZE = 20;

async function judgePages(api: ApiClient, testInfo: TestInfo, kind: 'projects' | 'tasks'): Promise<number> {
  let seen = 0;
  for (let page = 1; page <= PAGES; page++) {
    const res = await api.post<unknown[]>(`/${kind}/search`, page === 1 ? {} : { page_number: page });
    expect(res).toHaveStatus(200);
    judgeLists(testInfo, res, [kind === 'projects' ? 'ProjectList' : 'TaskList'], res.body, `page ${page} of an unfiltered ${kind} search`);
    seen += res.body.length;
    if (res.body.length < DEFAULT_PAGE_SIZE) break;
  }
  return seen;
}

for (const kind of ['projects', 'tasks'] as const) {
  test(...rule('WIRE-3', `every record of the first pages of an unfiltered ${kind} search matches its contract: lists are [] and never null`, async ({ api }, testInfo) => {
    const seen = await judgePages(api, testInfo, kind);
    testInfo.annotations.push({ type: 'note', description: `${seen} ${kind} judged (at most ${PAGES} pages of ${DEFAULT_PAGE_SIZE})` });
  }));
}

test(...rule('WIRE-3', 'every pipeline of GET /pipelines matches its contract: stages are a list, never null', async ({ api }, testInfo) => {
  const res = await api.get('/pipelines');
  expect(res).toHaveStatus(200);
  judgeLists(testInfo, res, ['PipelineList']);
  for (const p of res.body as unknown[]) judgeLists(testInfo, res, ['Pipeline'], p, `pipeline ${String((p as { id?: unknown }).id)} of GET /pipelines`);
}));
