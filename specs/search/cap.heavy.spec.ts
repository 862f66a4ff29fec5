/**
 * spec § Limits and § Endpoints → Projects ("results are limited to the first 100,000 records
 * whatever the pagination values"). Heavy: seeds 100,001 projects in this test's namespace
 * through `POST /projects` (undici, keep-alive pool, bounded concurrency, 429 honoured), then
 * reads the pages around the cap. Skipped unless CRM_HEAVY=1 or the profile allows heavy specs.
 */
import { Pool } from 'undici';
import { inNs, inPool, search } from '../support/search.js';
import { expect, rule, test } from '../support/fixtures/test.js';

const TOTAL = 100_001;
const CAP = 100_000;
const CONNECTIONS = 32;
const IN_FLIGHT = 128;

test(
  ...rule(
    'SEARCH-7',
    'heavy: with 100,001 matching projects, the page past the first 100,000 records is empty and the last page before it is full',
    async ({ api, ns, target }, testInfo) => {
      test.skip(!target.heavy, 'heavy spec: set CRM_HEAVY=1 (or capabilities.heavy in the profile) to seed 100,001 projects');
      // Warm keep-alive connections of their own; every request still goes through the API client
      // (decoding, deadlines, 429 and Retry-After honoured), kept out of the test's evidence.
      const pool = new Pool(new URL(api.cfg.apiUrl).origin, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 30_000 });
      const started = Date.now();
      let done = 0;
      const log = (msg: string) => console.log(`[cap ${ns.id}] ${msg}`);
      log(`seeding ${TOTAL} projects through POST /projects (${CONNECTIONS} connections, ${IN_FLIGHT} in flight)`);
      const createOne = async (i: number): Promise<void> => {
        const res = await api.send({
          method: 'POST',
          path: '/projects',
          body: { name: `${ns.id} cap ${String(i).padStart(6, '0')}`, tags: ns.tags },
          dispatcher: pool,
          unrecorded: true,
        });
        if (res.status < 200 || res.status >= 300) throw new Error(`POST /projects for project ${i} answered ${res.status}: ${res.text.slice(0, 300)}`);
      };
      try {
        await inPool(
          Array.from({ length: TOTAL }, (_, i) => i),
          IN_FLIGHT,
          async (i) => {
            await createOne(i);
            if (++done % 10_000 === 0) log(`${done}/${TOTAL} created, ${Math.round(done / ((Date.now() - started) / 1000))}/s`);
          },
        );
      } finally {
        await pool.close();
      }
      const seeded = (Date.now() - started) / 1000;
      log(`${TOTAL} projects created in ${seeded.toFixed(1)} s (${Math.round(TOTAL / seeded)}/s)`);
      testInfo.annotations.push({ type: 'note', description: `seeded ${TOTAL} projects in ${seeded.toFixed(1)} s` });

      const page = async (size: number, number: number) => (await search(api, 'projects', inNs(ns, { page_size: size, page_number: number }))).length;
      expect(await page(20, 1), 'page 1 of size 20').toBe(20);
      expect(await page(20, CAP / 20), `page ${CAP / 20} of size 20 (records 99,981-100,000): the last page within the cap is full`).toBe(20);
      expect(
        await page(20, CAP / 20 + 1),
        `page ${CAP / 20 + 1} of size 20 (records 100,001-100,020): past the cap, empty although a 100,001st record matches`,
      ).toBe(0);
      // Another page size: the cap cuts a page in the middle.
      const lastPage7 = Math.ceil(CAP / 7);
      expect(await page(7, lastPage7), `page ${lastPage7} of size 7 (records 99,996-100,002): only the ${CAP - (lastPage7 - 1) * 7} within the cap`).toBe(
        CAP - (lastPage7 - 1) * 7,
      );
      expect(await page(7, lastPage7 + 1), `page ${lastPage7 + 1} of size 7: past the cap, empty`).toBe(0);
      log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
    { timeout: 15 * 60_000 },
  ),
);
