/**
 * spec § Bulk create of Opportunities, rules 2-4 and § Errors (failed entries): property-based.
 * Random mixes of none up to as many entries as the limit (at most 10: bulk.ts `fullRequest`),
 * valid ones and ones with a defect (generators/bulk.ts), checked position by position: a valid
 * entry is created (numeric id, bulk fields, its own name at its own position), an entry with a
 * defect is created or failed-shaped, and the answer has one item per entry in request order.
 *
 * Runs: each run is one bulk call and bulk calls are limited to 3 per second for the whole run,
 * so this property runs `target.fc.runs / 50` times (at least 4; 6 with the default 300): with
 * up to 10 entries a run, some 30 entries of every kind, in 2 seconds of the run's bulk budget.
 * The bulk lane's calls are what ends a default run when it is CPU that does not (npm run bench
 * names the lane that ends last): 9 runs ended it a second later. Every bulk fault this property
 * catches, it still catches alone (and the example tests of bulk.spec.ts catch them too).
 * A failure attaches `counterexample.txt`; replay with the line it gives (CRM_FC_SEED, CRM_FC_PATH).
 */
import { bulkMix, describeTemplate, materialize } from '../../generators/bulk.js';
import { checkProperty, RANDOM_TAG, scaledRuns } from '../support/property.js';
import { bulkAnswerProblems, bulkContext, bulkCreate, fullRequest } from './bulk.js';
import { describeExchange, rule, test } from '../support/fixtures/test.js';

test(
  ...rule(
    'BULK-3',
    'random mixes of valid and defective entries, from none to as many as the limit (at most 10), get 200 and one item per entry, in request order',
    async ({ api, ns, profile, target }, testInfo) => {
      const ctx = await bulkContext(api, profile);
      await checkProperty(
        testInfo,
        target,
        bulkMix(fullRequest(profile)),
        async (templates) => {
          const sent = templates.map((t) => materialize(t, ctx, () => ns.name('bulk'), ns.tags));
          const res = await bulkCreate(api, { opportunities: sent });
          const problems = bulkAnswerProblems(sent, templates, res);
          if (problems.length)
            throw new Error(`${problems.join('\n')}\nentries: ${templates.map(describeTemplate).join(', ')}\n${describeExchange(res.exchange)}`);
        },
        { name: 'bulk create mixes', numRuns: scaledRuns(target.fc.runs, 50, 4), timeLimitMs: 90_000 },
      );
    },
    { also: ['BULK-4', 'BULK-5'], tag: [RANDOM_TAG], timeout: 150_000 },
  ),
);
