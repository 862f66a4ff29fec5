/**
 * spec § What the service does (WIRE-3: absent fields null, lists `[]`, never null), § Projects,
 * § Tasks (SEARCH-1: a search answers records of the searched resource), read only: the records
 * the account already holds, whoever made them, are judged. The suite's own records always
 * carry tags; records made by people and other integrations often have empty lists, so these
 * are the places where a real account shows them.
 *
 * Unfiltered searches of projects and tasks, first pages only (default page size 20, at most
 * {@link PAGES} pages: the account may be large), and the pipelines. Nothing is written.
 */
import type { TestInfo } from '@playwright/test';
import { ProjectList, TaskList } from '../../contracts/index.js';
import { conforms, expect, rule, test, type ApiClient, type ApiResponse } from '../support/fixtures/test.js';
import { judgeLists } from './observe.js';

/** Pages read per search. */
const PAGES = 5;
/** The spec's default page size. */
const DEFAULT_PAGE_SIZE = 20;

type Kind = 'projects' | 'tasks';

/** Reads the first pages of an unfiltered search, judging each with `judge`; answers the records seen. */
async function eachPage(api: ApiClient, kind: Kind, judge: (res: ApiResponse<unknown[]>, page: number) => void): Promise<number> {
  let seen = 0;
  for (let page = 1; page <= PAGES; page++) {
    const res = await api.post<unknown[]>(`/${kind}/search`, page === 1 ? {} : { page_number: page });
    expect(res).toHaveStatus(200);
    judge(res, page);
    seen += Array.isArray(res.body) ? res.body.length : 0;
    if (!Array.isArray(res.body) || res.body.length < DEFAULT_PAGE_SIZE) break;
  }
  return seen;
}

const seenNote = (testInfo: TestInfo, seen: number, kind: Kind) =>
  testInfo.annotations.push({ type: 'note', description: `${seen} ${kind} judged (at most ${PAGES} pages of ${DEFAULT_PAGE_SIZE})` });

for (const kind of ['projects', 'tasks'] as const) {
  test(
    ...rule(
      'WIRE-3',
      `every record of the first pages of an unfiltered ${kind} search has its absent fields null and its lists [], never null`,
      async ({ api }, testInfo) => {
        const seen = await eachPage(api, kind, (res, page) => {
          judgeLists(testInfo, res, [kind === 'projects' ? 'ProjectList' : 'TaskList'], res.body, `page ${page} of an unfiltered ${kind} search`);
        });
        seenNote(testInfo, seen, kind);
      },
    ),
  );

  test(
    ...rule(
      'SEARCH-1',
      `every record of the first pages of an unfiltered ${kind} search is a ${kind === 'projects' ? 'Project' : 'Task'}, whoever made it`,
      async ({ api }, testInfo) => {
        const contract = kind === 'projects' ? ProjectList : TaskList;
        const seen = await eachPage(api, kind, (res) => {
          if (!conforms(res, contract)) expect(res).toMatchContract(contract);
        });
        seenNote(testInfo, seen, kind);
      },
    ),
  );
}

test(
  ...rule('WIRE-3', 'every pipeline of GET /pipelines has its absent fields null and its stages a list, never null', async ({ api }, testInfo) => {
    const res = await api.get('/pipelines');
    expect(res).toHaveStatus(200);
    judgeLists(testInfo, res, ['PipelineList']);
    for (const p of res.body as unknown[]) judgeLists(testInfo, res, ['Pipeline'], p, `pipeline ${String((p as { id?: unknown }).id)} of GET /pipelines`);
  }),
);
