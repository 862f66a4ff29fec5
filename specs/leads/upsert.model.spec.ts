/**
 * spec § Lead upsert (rules 2-5), § Lead conversion: a model-based test (a list of commands,
 * `commandList` of support/property.ts, run by fc.asyncModelRun; model in generators/leads.ts).
 * Random sequences of upserts matching by
 * name, e-mail and the profile's Lead custom field, and conversions, each answer checked against
 * the model's prediction: create, update, 422 with the ids, 422 without ids (the "crowd": 31
 * Leads of one name, seeded once per test so that every run can hit it cheaply), convert.
 *
 * Runs: this property sends up to 25 requests per run (plus shrinking); it runs
 * `target.fc.runs / 2` times (150 sequences with the default 300), within a time budget of
 * 8 s (scaled in proportion with CRM_FC_RUNS). A failure attaches
 * `counterexample.txt` (seed, path, the command sequence); replay with the line it gives.
 * Against a far target several sequences are in flight at once (each in its own pools; the crowd
 * is only read); a failing sequence is re-run alone for shrinking (support/property.ts).
 */
import fc from 'fast-check';
import { makePools, upsertCommands, type UpsertModel, type UpsertSystem } from '../../generators/leads.js';
import { convertPath, leadMatchField, leadsNamed, UPSERT_PATH } from '../support/leads.js';
import { checkProperty, commandList, RANDOM_TAG, scaledBudget, scaledRuns } from '../support/property.js';
import { breaks, describeExchange, loadConfig, rule, test, type Exchange } from '../support/fixtures/test.js';

const CROWD = 31;
/**
 * The time budget of the default 150 sequences (scaled with CRM_FC_RUNS, and with the latency the
 * test measures: support/property.ts). The reference never reaches it; a slow server gets fewer
 * sequences and the test's note says how many. A large budget let one slow fault
 * (`upsert-not-atomic`) become the tail of a whole run, hence a tight one (`npm run bench` shows
 * what the model costs).
 */
const MODEL_BUDGET_MS = 8_000;
/**
 * Commands of a sequence at quick depth (25 otherwise): a quick run promises at most 1,000
 * requests, and three sequences of up to 25 made this test send 40 to 88 of them (up to 12: 36 to 49).
 */
const QUICK_MAX_COMMANDS = 8;
const withRef = !!loadConfig().profile.fixtures.lead_match_field;

test(
  ...rule(
    'UPSERT-3',
    'a model of upsert and convert predicts every answer: create, update, 422 with ids, 422 without ids, conversion',
    async ({ api, ns, profile, target }, testInfo) => {
      const refField = leadMatchField(profile);
      const crowdName = ns.name('crowd');
      const crowd = await leadsNamed(api, ns, crowdName, CROWD, 'crowd');

      // A system per run: runs are in flight together against a far target (support/property.ts),
      // so the evidence of a failure is the last exchange of its own run, not of the test.
      // The crowd is the one thing runs share: its upserts go one at a time, so that no run meets
      // another's at the server (a server may answer contending upserts as it likes: upsert.contention).
      let crowdTurn: Promise<unknown> = Promise.resolve();
      const systemOf = (): UpsertSystem => {
        let last: Exchange | undefined;
        return {
          refField,
          async upsert(properties, match) {
            const send = () => api.put(UPSERT_PATH, { properties, match });
            const sent = match.field_value === crowdName ? (crowdTurn = crowdTurn.then(send, send)) : send();
            const res = await (sent as ReturnType<typeof send>);
            last = res.exchange;
            return { status: res.status, body: res.body };
          },
          async convert(leadId, details) {
            const res = await api.post(convertPath(leadId), { details });
            last = res.exchange;
            return { status: res.status, body: res.body };
          },
          fail(message, rules = []) {
            // `[breaks …]`: the report credits the failure to the rules whose prediction broke, not to every rule of this test.
            throw new Error(`${message}${breaks(rules)}${last ? `\n${describeExchange(last)}` : ''}`);
          },
        };
      };

      let run = 0;
      await checkProperty(
        testInfo,
        target,
        commandList(upsertCommands({ withRef: !!refField, tags: ns.tags }), {
          maxCommands: target.depth === 'quick' ? QUICK_MAX_COMMANDS : 25,
          size: 'medium',
        }),
        async (commands) => {
          run++;
          const setup = () => ({
            model: {
              pools: makePools(`${ns.id} r${run}`),
              leads: [],
              converted: [],
              crowd: { name: crowdName, ids: crowd.map((l) => String(l.id)) },
            } as UpsertModel,
            real: systemOf(),
          });
          await fc.asyncModelRun(setup, commands);
        },
        {
          name: 'upsert/convert model',
          numRuns: scaledRuns(target.fc.runs, 2, 3),
          timeLimitMs: scaledBudget(target.fc.runs, MODEL_BUDGET_MS),
          // The requests a sequence sends one after another, the crowd's upserts among them (its
          // time at 50 and 300 ms divided by the latency): what its budget at a latency needs.
          requestsPerRun: 28,
          // The crowd's 31 creates time the target before the first sequence.
          exchanges: () => api.recorder.exchanges,
        },
      );
    },
    {
      also: [
        'UPSERT-2',
        'UPSERT-4',
        'UPSERT-5',
        'UPSERT-6',
        'UPSERT-7',
        'UPSERT-8',
        ...(withRef ? ['UPSERT-9'] : []),
        'UPSERT-12',
        'UPSERT-13',
        'CONVERT-2',
        'CONVERT-14',
        'CONVERT-15',
      ],
      tag: [RANDOM_TAG],
      timeout: 150_000,
    },
  ),
);
