/**
 * spec § Events, rule 3, and § Webhook subscriptions (custom_field_computed_values): with the
 * flag true, notifications carry option names instead of option ids for dropdown (and, per the
 * create parameters, multi-select) custom fields. Definitions come from the profile's
 * custom_fields fixtures.
 *
 * The payload is "not shown": a conformant server may send only ids, and carry custom field
 * values only where it carries record attributes at all (say, the changed attributes of an
 * update). So each kind of change the API causes is a test of its own: `new` (any creatable type
 * holding the fields), and for a Lead `update` (an upsert that changes its dropdown and
 * multi-select) and `delete` (a conversion; whether it is announced as a delete is EVENT-8, a
 * SHOULD). Every value carried must be option names (specs/events/computed.ts); when the
 * notification carries none, the test skips with that reason: never a failure.
 */
import type { TargetProfile } from '../../contracts/index.js';
import { judgeComputedValues, planComputed, type ComputedPlan } from './computed.js';
import { MAKERS, convertLead, updateLead, type Ctx, type EntityType } from './records.js';
import { customFieldValues, concerns, type Channel } from '../support/resources/webhook-receiver.js';
import type { Hooks } from '../support/fixtures/hooks.js';
import { expect, rule, test } from '../support/fixtures/test.js';
import type { TestInfo } from '@playwright/test';

const PREFERRED: EntityType[] = ['lead', 'project', 'person', 'company', 'opportunity', 'task'];
const TIMEOUT = { timeout: 60_000 };
type Kind = 'new' | 'update' | 'delete';

/** Skips the running test, saying why (test.skip ends the test by throwing). */
function skip(reason: string): never {
  test.skip(true, reason);
  throw new Error(`skipped: ${reason}`);
}

/** What the test sends (specs/events/computed.ts), or a skip naming what the target lacks. */
function planFor(profile: TargetProfile, kind: Kind): ComputedPlan<EntityType> {
  if (!profile.capabilities.webhook_delivery) skip('the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
  // Only a Lead is updated (upsert) and removed (conversion) through the API.
  const types = kind === 'new' ? PREFERRED.filter((t) => !MAKERS[t].unavailable?.(profile)) : (['lead'] as const);
  const plan = planComputed(profile.fixtures.custom_fields, types);
  return 'skip' in plan ? skip(kind === 'new' ? plan.skip : `${plan.skip} (a Lead is the one type whose ${kind} the API causes)`) : plan;
}

/** Subscribes a channel of the test to `kind` notifications with computed values, then creates the record. */
async function subscribeAndCreate(ctx: Ctx, hooks: Hooks, plan: ComputedPlan<EntityType>, kind: Kind) {
  const channel = hooks.channel(`${plan.type}-computed-${kind}`);
  await hooks.subscribe(channel, { type: plan.type, event: kind, custom_field_computed_values: true, secret: { conformance_key: `k-${ctx.ns.id}` } });
  const rec = await MAKERS[plan.type].create(ctx, { custom_fields: plan.create });
  expect(customFieldValues(rec.res.body, plan.fields[0].id).length, `${MAKERS[plan.type].how} kept the dropdown custom field (precondition)`).toBeGreaterThan(
    0,
  );
  return { channel, rec, about: (r: { body: unknown }) => concerns(r.body, rec, plan.type) };
}

/** A notification whose absence another rule judges: none, and the test skips naming that rule. */
async function optional(channel: Channel, what: string, about: (r: { body: unknown }) => boolean, otherRule: string): Promise<unknown> {
  const got = await channel
    .waitFor(what, about, { optional: true })
    .catch((err: Error) => skip(`no notification ${what} to judge (whether it comes is ${otherRule}'s to judge): ${err.message.split('\n')[0]}`));
  return got.body;
}

/** Every dropdown and multi-select value the notification carries is option names; it carries none: skip. */
function judge(testInfo: TestInfo, plan: ComputedPlan<EntityType>, event: Kind, body: unknown): void {
  const verdict = judgeComputedValues([{ event, body }], plan.fields, plan.held);
  if (verdict.verdict === 'skip') skip(verdict.reason);
  if (verdict.verdict === 'fail')
    expect(
      verdict.problems,
      `with custom_field_computed_values true, notifications carry option names instead of option ids\n  ${event}: ${JSON.stringify(body).slice(0, 600)}`,
    ).toEqual([]);
  if (verdict.verdict === 'pass') testInfo.annotations.push({ type: 'note', description: `EVENT-5: ${verdict.note}` });
}

test(
  ...rule(
    'EVENT-5',
    'with custom_field_computed_values true, the new notification carries dropdown and multi-select values as option names',
    async ({ api, ns, profile, hooks }, testInfo) => {
      const plan = planFor(profile, 'new');
      const { channel, rec, about } = await subscribeAndCreate({ api, ns, profile }, hooks, plan, 'new');
      const got = await hooks.needed(channel, `naming the new ${plan.type} ${String(rec.id)}`, about);
      judge(testInfo, plan, 'new', got.body);
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'EVENT-5',
    'with custom_field_computed_values true, the update notification of a Lead whose options changed carries them as option names',
    async ({ api, ns, profile, hooks }, testInfo) => {
      const plan = planFor(profile, 'update');
      const changed = plan.update ?? skip('the dropdown has one option and there is no multi-select of two: an update cannot change an option');
      const ctx = { api, ns, profile };
      const { channel, rec, about } = await subscribeAndCreate(ctx, hooks, plan, 'update');
      await updateLead(ctx, rec, { custom_fields: changed });
      const got = await hooks.needed(channel, `naming the updated lead ${String(rec.id)}`, about);
      judge(testInfo, plan, 'update', got.body);
    },
    TIMEOUT,
  ),
);

test(
  ...rule(
    'EVENT-5',
    'with custom_field_computed_values true, the delete notification of a converted Lead carries dropdown and multi-select values as option names',
    async ({ api, ns, profile, hooks }, testInfo) => {
      const plan = planFor(profile, 'delete');
      const ctx = { api, ns, profile };
      const { channel, rec, about } = await subscribeAndCreate(ctx, hooks, plan, 'delete');
      await convertLead(ctx, rec);
      judge(testInfo, plan, 'delete', await optional(channel, `naming the converted lead ${String(rec.id)} (delete)`, about, 'EVENT-8'));
    },
    TIMEOUT,
  ),
);
