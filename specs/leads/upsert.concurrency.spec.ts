/**
 * spec § Lead upsert, rule 1: "The check, then update or create, is atomic."
 *
 * 25 identical upserts are sent truly concurrently (undici Pool, one warmed connection each, all
 * dispatched in the same tick). Counting Leads uses only the spec's endpoints: the upsert itself.
 * - Create race: nothing matches before the burst, so exactly one Lead may come of it: every
 *   answer names the same Lead, and an upsert on the same value afterwards updates that one Lead
 *   (a duplicate would make it answer 422 with two ids).
 * - Update race: 25 upserts matching one Lead, each setting a different member; an atomic
 *   check-then-update loses none of them (a stale read-then-write would put back old values), and
 *   no Lead is created.
 * A racer may be refused: what a server answers to contention (a lock held, a general rate limit)
 * is not shown, and a refused upsert changes nothing, so atomicity is judged on the accepted ones.
 * A refusal must still be an HTTP answer, and not a 5xx other than 503: a crash is no refusal.
 */
import type { Lead } from '../../contracts/index.js';
import { byEmail, byName, concurrently, expectLead, expectSameLead, readLead, updateRules, upsert, UPSERT_PATH } from '../support/leads.js';
import { breaks, expect, isAccepted, notJudged, rule, test, type ApiResponse } from '../support/fixtures/test.js';
import { make, sameId, leadEmail } from '../support/make.js';

const RACERS = 25;

/**
 * The racers the target accepted (2xx). The others must be refusals a server may give under
 * contention: a 4xx (409, 423, 429, …) or 503; none accepted leaves nothing to judge.
 */
function accepted(answers: ApiResponse[], what: string): ApiResponse[] {
  const crashed = answers.filter((r) => r.status >= 500 && r.status !== 503);
  expect(
    crashed.map((r) => r.status),
    `racing upserts are accepted, or refused as under contention (4xx, 503), never a server error`,
  ).toEqual([]);
  const ok = answers.filter(isAccepted);
  const refused = answers.length - ok.length;
  if (refused)
    test.info().annotations.push({
      type: 'note',
      description: `${refused} of ${answers.length} racing upserts refused (${[...new Set(answers.filter((r) => !isAccepted(r)).map((r) => r.status))].join(', ')}); judged on the ${ok.length} accepted`,
    });
  if (!ok.length) notJudged(`every one of ${answers.length} racing upserts was refused: nothing ${what}`);
  return ok;
}

test(
  ...rule('UPSERT-1', `${RACERS} concurrent identical upserts that match nothing create exactly one Lead`, async ({ api, ns }) => {
    const name = ns.name('race');
    const properties = { name, email: { email: leadEmail(ns, 'race'), category: 'work' }, details: 'raced', tags: ns.tags };
    const answers = await concurrently(
      api,
      Array.from({ length: RACERS }, () => ({ method: 'PUT' as const, path: UPSERT_PATH, body: { properties, match: byName(name) } })),
    );
    const ok = accepted(answers, 'was created to count');
    const ids = [...new Set(ok.map((r) => String((r.body as Lead).id)))];
    // The racers after the first match its Lead: unless one match does not update it (UPSERT-3 with
    // its criterion, judged by their own tests), more than one id is the race's.
    expect(
      ids,
      `all ${ok.length} accepted answers name one and the same Lead (distinct ids: ${ids.join(', ')})${breaks(['UPSERT-1', ...updateRules(byName(name))])}`,
    ).toHaveLength(1);
    // Counting through the spec: exactly one Lead has the name, so this upsert updates it (two would give 422).
    await readLead(api, byName(name), ids[0], ['UPSERT-1']);
  }),
);

test(
  ...rule('UPSERT-1', `${RACERS} concurrent upserts matching one Lead: those accepted update it and no update is lost`, async ({ api, ns }) => {
    const lead = await make.lead({ api, ns }, {}, 'target');
    const email = lead.email!.email;
    // The race rests on one upsert by e-mail updating the Lead (UPSERT-3, UPSERT-8): seen once, alone, first.
    const what = 'one upsert by e-mail before the race';
    expectSameLead(expectLead(await upsert(api, { details: what }, byEmail(email)), what, updateRules(byEmail(email))), lead.id, byEmail(email), what);
    const members = ['title', 'details', 'company_name', 'prefix', 'first_name', 'middle_name', 'last_name', 'suffix'] as const;
    const sent = new Map<string, string[]>();
    const requests = Array.from({ length: RACERS }, (_, i) => {
      const member = members[i % members.length];
      const value = `${member} ${i}`;
      sent.set(member, [...(sent.get(member) ?? []), value]);
      return { method: 'PUT' as const, path: UPSERT_PATH, body: { properties: { [member]: value }, match: byEmail(email) } };
    });
    const answers = await concurrently(api, requests);
    const ok = accepted(answers, 'was updated');
    // One check over every accepted answer (the ids of those naming another Lead), not one per answer.
    const others = ok.map((r) => (r.body as Lead).id).filter((id) => !sameId(id, lead.id));
    expect(others, `accepted racing upserts that name a Lead other than ${String(lead.id)}${breaks(['UPSERT-1', ...updateRules(byEmail(email))])}`).toEqual([]);
    // Still exactly one Lead with that e-mail.
    const after = await readLead(api, byEmail(email), lead.id);
    // A member counts when some racer setting it was accepted: its final value is one of those sent.
    const setBy = new Set(answers.flatMap((r, i) => (isAccepted(r) ? [members[i % members.length] as string] : [])));
    const lost = members.filter((m) => setBy.has(m) && !sent.get(m)!.includes(String((after as Record<string, unknown>)[m])));
    // Read back by an upsert with empty properties, which changes nothing only if UPSERT-12 holds.
    const names = breaks(['UPSERT-1', 'UPSERT-12']);
    expect(
      lost,
      `members whose concurrent update was lost (the final value is none of those sent): ${lost.map((m) => `${m}=${JSON.stringify((after as Record<string, unknown>)[m])}`).join(', ')}${names}`,
    ).toEqual([]);
    expect(after.name, `name was not sent by any racer: unchanged${names}`).toBe(lead.name);
  }),
);
