/**
 * spec § Lead conversion, optional behaviour: "Without `exact_match`, fuzzy matching returns a
 * list of candidate companies." The shape and the matching are not shown, so the answer is
 * recorded (attachment and note), never judged.
 */
import { rule, test } from '../support/fixtures/test.js';
import { make } from '../support/make.js';
import { companyByConversion, convert } from './convert.js';

test(
  ...rule('CONVERT-9', 'without exact_match, fuzzy matching may return candidate companies (recorded, not judged)', async ({ api, ns }, testInfo) => {
    const base = ns.name('fuzzy');
    await companyByConversion(api, ns, `${base} Holding`);
    const lead = await make.lead({ api, ns }, {}, 'fuzzy-lead');
    const res = await convert(api, lead.id, { person: { name: ns.name('person') }, company: { name: base } });
    const body = res.body as Record<string, unknown> | undefined;
    const listed =
      body && typeof body === 'object'
        ? Object.entries(body)
            .filter(([k, v]) => Array.isArray(v) && !['person', 'company', 'opportunity'].includes(k))
            .map(([k]) => k)
        : [];
    await testInfo.attach('fuzzy-company-answer.json', {
      body: JSON.stringify({ sent: { company: { name: base } }, existing: `${base} Holding`, status: res.status, candidateLists: listed, body }, null, 2),
      contentType: 'application/json',
    });
    testInfo.annotations.push({ type: 'note', description: `fuzzy company match: status ${res.status}; lists in the answer: ${listed.join(', ') || 'none'}` });
  }),
);
