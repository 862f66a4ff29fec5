/**
 * spec § Lead upsert (`PUT /leads/upsert`), § States and transitions (Lead status New), § Shared
 * shapes (computed custom field values). One test per outcome: no match, one match, 2..30
 * matches, more than 30; matching on name, e-mail and the profile's Lead custom field.
 *
 * Every value is unique to the test (namespace), so no outcome depends on the case sensitivity of
 * the match (open in the spec); names and free text outside ASCII are created, matched and read
 * back as sent. A successful upsert is any 2xx (status not shown). A Lead created by upsert is the
 * Lead stored: an upsert that matches it and sets nothing answers it as the create did (UPSERT-14).
 */
import type { Lead } from '../../contracts/index.js';
import {
  byEmail,
  byName,
  customFieldOn,
  customValue,
  expectAmbiguous,
  expectLead,
  expectSameLead,
  expectWithoutIds,
  leadMatchField,
  leadsNamed,
  readLead,
  updateRules,
  upsert,
} from '../support/leads.js';
import { REAL_TEXTS } from '../../generators/real-text.js';
import { breaks, expect, rule, test } from '../support/fixtures/test.js';
import { make, post, sameId, leadEmail, leadProperties } from '../support/make.js';
import { customFieldValues, storedDifferences } from '../support/records.js';

/** An address as a user in Kraków writes it. */
const KRAKOW = { street: 'ul. Świętokrzyska 12', city: 'Kraków', state: 'Małopolska', postal_code: '31-000', country: 'PL' };

test(
  ...rule(
    'UPSERT-2',
    'an upsert matching nothing creates a new Lead from the properties',
    async ({ api, ns }) => {
      const properties = leadProperties(ns, 'new', {
        // An observed category other than `work` ("`work`, `mobile` for phone and email"): the one sent is the one kept.
        email: { email: leadEmail(ns, 'new-mobile'), category: 'mobile' },
        details: 'created by upsert',
        title: 'Buyer',
        company_name: `${ns.id} company`,
        phone_numbers: [{ number: '+493012345670', category: 'work' }],
        socials: [{ url: `https://twitter.com/${ns.id}`, category: 'twitter' }],
        websites: [{ url: `https://${ns.id}.example.com/`, category: 'work' }],
        monetary_value: 1200,
      });
      const res = await upsert(api, properties, byName(properties.name as string));
      const lead = expectLead(res, 'an upsert matching no Lead');
      expect(lead.name, 'name').toBe(properties.name);
      expect(lead.email?.email, 'email.email').toBe((properties.email as { email: string }).email);
      expect(lead.email?.category, 'email.category').toBe('mobile');
      expect(lead.details, 'details').toBe('created by upsert');
      expect(lead.title, 'title').toBe('Buyer');
      expect(lead.company_name, 'company_name').toBe(properties.company_name);
      expect(
        lead.phone_numbers.map((p) => p.number),
        'phone_numbers',
      ).toEqual(['+493012345670']);
      expect(
        lead.socials.map((e) => e.url),
        'socials',
      ).toEqual([`https://twitter.com/${ns.id}`]);
      expect(
        lead.websites.map((e) => e.url),
        'websites',
      ).toEqual([`https://${ns.id}.example.com/`]);
      expect(lead.monetary_value, 'monetary_value').toBe(1200);
      expect(lead.tags, 'the tags sent').toEqual(expect.arrayContaining(ns.tags));
      // A second upsert on the same name now matches that Lead: it was really created (a read that
      // rests on one match updating it: UPSERT-3, UPSERT-7).
      await readLead(api, byName(lead.name!), lead.id);
    },
    { also: ['UPSERT-11'] },
  ),
);

test(
  ...rule(
    'UPSERT-2',
    'an upsert matching nothing creates a Lead whose name, details, title, company name and address outside ASCII are as sent',
    async ({ api, ns }) => {
      const properties = leadProperties(ns, 'unicode', {
        name: `${ns.name('lead')} Ọ̀ṣun Adéwálé 𠮷野`,
        details: REAL_TEXTS.join(' / '),
        title: 'Kierowniczka zakupów',
        company_name: 'Ñandú & Cía',
        address: KRAKOW,
      });
      const lead = expectLead(await upsert(api, properties, byName(properties.name as string)), 'an upsert matching no Lead');
      expect(lead.name, 'name').toBe(properties.name);
      expect(lead.details, 'details').toBe(properties.details);
      expect(lead.title, 'title').toBe(properties.title);
      expect(lead.company_name, 'company_name').toBe(properties.company_name);
      expect(lead.address, 'address').toMatchObject(KRAKOW);
    },
  ),
);

test(
  ...rule(
    'UPSERT-14',
    'an upsert that matches the new Lead and sets nothing answers every member its create answered, with the same value',
    async ({ api, ns, profile }) => {
      const custom = customFieldValues(profile, 'lead', REAL_TEXTS[4]);
      const res = await post.lead(
        { api, ns },
        {
          prefix: 'Dr.',
          first_name: 'Zoë',
          last_name: 'Łukasiewicz',
          title: 'Kierowniczka zakupów',
          details: REAL_TEXTS.join(' / '),
          company_name: 'Ñandú & Cía',
          address: KRAKOW,
          phone_numbers: [{ number: '+48 12 345 67 89', category: 'work' }],
          socials: [{ url: `https://twitter.com/${ns.id}`, category: 'twitter' }],
          websites: [{ url: `https://${ns.id}.example.com/`, category: 'work' }],
          monetary_unit: 'EUR',
          monetary_value: 1200.5,
          ...(profile.fixtures.users[0] ? { assignee_id: profile.fixtures.users[0].id } : {}),
          ...(custom.length ? { custom_fields: custom } : {}),
        },
        'stored',
      );
      const created = expectLead(res, 'an upsert matching no Lead', ['UPSERT-2']);
      // Read back through the spec's one read of a Lead: an upsert that matches it and sets nothing.
      const read = await readLead(api, byEmail(created.email!.email), created.id);
      // A difference is the create's (stored otherwise than answered) or the empty update's (UPSERT-12: it changes nothing).
      expect(
        storedDifferences(created, read, { profile }),
        `the Lead matched again is the Lead the create answered${breaks(['UPSERT-14', 'UPSERT-12'])}`,
      ).toEqual([]);
    },
  ),
);

test(
  ...rule('UPSERT-6', 'a Lead created by upsert has status New', async ({ api, ns }) => {
    const properties = leadProperties(ns, 'status');
    const lead = expectLead(await upsert(api, properties, byName(properties.name as string)), 'an upsert matching no Lead', ['UPSERT-2']);
    expect(lead.status, 'status of a Lead created by upsert').toBe('New');
    expect(lead.status_id, 'status_id is set').not.toBeNull();
  }),
);

test(
  ...rule('UPSERT-11', 'a successful upsert answers a Lead, for a create and for an update', async ({ api, ns }) => {
    const properties = leadProperties(ns, 'answer');
    expectLead(await upsert(api, properties, byName(properties.name as string)), 'the create');
    expectLead(await upsert(api, { details: 'updated' }, byName(properties.name as string)), 'the update');
  }),
);

test(
  ...rule('UPSERT-3', 'an upsert matching exactly one Lead by name updates that Lead', async ({ api, ns, profile }) => {
    const lead = await make.lead({ api, ns }, {}, 'one');
    // A custom field value is a Lead field too: the profile's text field, where it is available on Leads.
    const text = profile.fixtures.custom_fields.text;
    const cfText = text && text.available_on.includes('lead') ? [{ custom_field_definition_id: text.id, value: `${ns.id} set by upsert` }] : undefined;
    const res = await upsert(api, { details: 'updated by name', title: 'Lead buyer', ...(cfText ? { custom_fields: cfText } : {}) }, byName(lead.name!));
    const updated = expectLead(res, 'an upsert matching one Lead');
    // UPSERT-3's own check, unless the name did not match (UPSERT-7, judged by its own test).
    expectSameLead(updated, lead.id, byName(lead.name!), 'the matching Lead is updated, not another');
    expect(updated.details, 'details updated').toBe('updated by name');
    expect(updated.title, 'title updated').toBe('Lead buyer');
    if (cfText) expect(customValue(updated, text!.id), `custom field ${String(text!.id)} updated`).toBe(cfText[0].value);
    // Still exactly one Lead of that name (no second one was created).
    const again = await readLead(api, byName(lead.name!), lead.id);
    // Read back by an upsert with empty properties, which changes nothing only if UPSERT-12 holds.
    expect(again.details, `the update is kept${breaks(['UPSERT-3', 'UPSERT-12'])}`).toBe('updated by name');
  }),
);

test(
  ...rule('UPSERT-7', 'name is a match criterion: a new name creates, and a name two Leads share matches both', async ({ api, ns }) => {
    // Matching is observed through the 422 of two matches (UPSERT-4), not through an update, so
    // that a server whose one match does not update (UPSERT-3) does not fail this rule too.
    const name = ns.name('by-name');
    const created = expectLead(await upsert(api, { name, tags: ns.tags }, byName(name)), 'no Lead has the name yet');
    const other = expectLead(await upsert(api, { name: `${name} other`, tags: ns.tags }, byName(`${name} other`)), 'another name');
    expect(sameId(other.id, created.id), 'another name matches no Lead: a new one is created').toBe(false);
    const twin = await make.lead({ api, ns }, { name }, 'by-name-twin');
    expectAmbiguous(await upsert(api, { details: 'ambiguous' }, byName(name)), [created.id, twin.id], ['UPSERT-7', 'UPSERT-4']);
  }),
);

test(
  ...rule(
    'UPSERT-7',
    'a name outside ASCII (combining marks, a character beyond the BMP, spaces) is matched: two Leads sharing it answer 422',
    async ({ api, ns }) => {
      // Observed through the 422 of two matches (UPSERT-4), as above, not through an update.
      const name = `${ns.name('by-name')} Zoë Łukasiewicz 山田 Ọ̀ṣun 𠮷野`;
      const created = expectLead(await upsert(api, { name, tags: ns.tags }, byName(name)), 'no Lead has the name yet');
      const twin = await make.lead({ api, ns }, { name }, 'by-name-twin');
      expect(sameId(twin.id, created.id), `two Leads${breaks(['UPSERT-2', 'UPSERT-8'])}`).toBe(false);
      expectAmbiguous(await upsert(api, { details: 'ambiguous' }, byName(name)), [created.id, twin.id], ['UPSERT-7', 'UPSERT-4']);
    },
  ),
);

test(
  ...rule('UPSERT-8', 'email is a match criterion: the Lead with that e-mail is updated, an unused e-mail creates', async ({ api, ns }) => {
    const lead = await make.lead({ api, ns }, {}, 'mail');
    const email = lead.email!.email;
    const updated = expectLead(await upsert(api, { details: 'matched by e-mail' }, byEmail(email)), 'an upsert matching the e-mail of one Lead');
    // UPSERT-8's own check, unless one match does not update (UPSERT-3, judged by its own test).
    expectSameLead(updated, lead.id, byEmail(email), `the Lead with e-mail ${email} is updated`);
    expect(updated.details).toBe('matched by e-mail');
    const fresh = leadEmail(ns, 'unused');
    const created = expectLead(
      await upsert(api, { name: ns.name('fresh'), email: { email: fresh, category: 'work' }, tags: ns.tags }, byEmail(fresh)),
      'an upsert on an unused e-mail',
    );
    expect(sameId(created.id, lead.id), `an unused e-mail matches no Lead: a new one is created${breaks(['UPSERT-8', 'UPSERT-2'])}`).toBe(false);
    expect(created.email?.email).toBe(fresh);
  }),
);

test(
  ...rule('UPSERT-9', "the profile's Lead custom field is a match criterion", async ({ api, ns, profile }) => {
    const field = leadMatchField(profile);
    test.skip(!field, 'the profile names no lead_match_field (a Lead custom field available for matching)');
    const ref = `${ns.id}-ref`.toLowerCase();
    const cf = [{ custom_field_definition_id: field!.definitionId, value: ref }];
    const match = { field_name: field!.fieldName, field_value: ref };
    // The Lead also holds another custom field (sent first, another value): the match reads the field it names, not any.
    const text = profile.fixtures.custom_fields.text;
    const other =
      text && text.available_on.includes('lead') && !sameId(text.id, field!.definitionId)
        ? [{ custom_field_definition_id: text.id, value: `${ns.id} other field` }]
        : [];
    const created = expectLead(await upsert(api, leadProperties(ns, 'cf', { custom_fields: [...other, ...cf] }), match), 'no Lead has the value yet');
    expect(customValue(created, field!.definitionId), 'the custom field value sent').toBe(ref);
    const updated = expectLead(await upsert(api, { details: 'matched by custom field' }, match), 'one Lead has the value');
    // UPSERT-9's own check, unless one match does not update (UPSERT-3, judged by its own test).
    expectSameLead(updated, created.id, match, `the Lead with ${field!.fieldName} = ${ref} is updated`);
    expect(updated.details).toBe('matched by custom field');
    const dup = await make.lead({ api, ns }, { custom_fields: cf }, 'cf-dup');
    expectAmbiguous(await upsert(api, { details: 'x' }, match), [created.id, dup.id], ['UPSERT-9', 'UPSERT-4']);
  }),
);

test(
  ...rule('UPSERT-12', 'an update by upsert leaves the fields not in properties as they were', async ({ api, ns, profile }) => {
    const text = profile.fixtures.custom_fields.text;
    const cfText =
      text && (text.available_on.length === 0 || text.available_on.includes('lead')) ? [{ custom_field_definition_id: text.id, value: 'kept' }] : undefined;
    const lead = await make.lead(
      { api, ns },
      {
        details: 'original details',
        title: 'Original title',
        company_name: `${ns.id} keep co`,
        phone_numbers: [{ number: '+14155550100', category: 'mobile' }],
        monetary_value: 75,
        ...(cfText ? { custom_fields: cfText } : {}),
      },
      'keep',
    );
    const updated = expectLead(await upsert(api, { details: 'only details changed' }, byName(lead.name!)), 'the update', updateRules(byName(lead.name!)));
    expectSameLead(updated, lead.id, byName(lead.name!), 'the Lead is updated');
    expect(updated.details, 'the member sent changes').toBe('only details changed');
    expect(updated.name, 'name not sent: kept').toBe(lead.name);
    expect(updated.email?.email, 'email not sent: kept').toBe(lead.email?.email);
    expect(updated.title, 'title not sent: kept').toBe('Original title');
    expect(updated.company_name, 'company_name not sent: kept').toBe(lead.company_name);
    expect(
      updated.phone_numbers.map((p) => p.number),
      'phone_numbers not sent: kept',
    ).toEqual(['+14155550100']);
    expect(updated.monetary_value, 'monetary_value not sent: kept').toBe(75);
    expect(updated.tags, 'tags not sent: kept').toEqual(expect.arrayContaining(ns.tags));
    if (cfText) expect(customValue(updated, text!.id), 'custom field not sent: kept').toBe('kept');
  }),
);

test(
  ...rule('UPSERT-4', 'two Leads matching by name answer 422 with both ids', async ({ api, ns }) => {
    const name = ns.name('twins');
    const [a, b] = await leadsNamed(api, ns, name, 2);
    expectAmbiguous(await upsert(api, { details: 'ambiguous' }, byName(name)), [a.id, b.id]);
  }),
);

test(
  ...rule('UPSERT-4', 'two Leads matching by e-mail answer 422 with both ids', async ({ api, ns }) => {
    const email = leadEmail(ns, 'shared');
    const a = await make.lead({ api, ns }, { email: { email, category: 'work' } }, 'mail-a');
    // The second Lead with that e-mail is created through a match on its unique name.
    const name = ns.name('mail-b');
    const b = expectLead(await upsert(api, { name, email: { email, category: 'work' }, tags: ns.tags }, byName(name)), 'a second Lead with the same e-mail', [
      'UPSERT-2',
    ]);
    expect(sameId(a.id, b.id), `two Leads${breaks(['UPSERT-2', 'UPSERT-7'])}`).toBe(false);
    // Two matches by e-mail rest on e-mail being a match criterion (UPSERT-8).
    expectAmbiguous(await upsert(api, { details: 'ambiguous' }, byEmail(email)), [a.id, b.id], ['UPSERT-4', 'UPSERT-8']);
  }),
);

// Both sides of the limit in one crowd: 30 matches carry their ids (UPSERT-4), a 31st takes them away.
test(
  ...rule(
    'UPSERT-5',
    '30 matching Leads answer 422 with all 30 ids, and 31 without their ids',
    async ({ api, ns }) => {
      const name = ns.name('crowd');
      const leads = await leadsNamed(api, ns, name, 30);
      expectAmbiguous(
        await upsert(api, { details: 'ambiguous' }, byName(name)),
        leads.map((l) => l.id),
        ['UPSERT-4'],
      );
      leads.push(...(await leadsNamed(api, ns, name, 1, 'thirty-first')));
      expectWithoutIds(
        await upsert(api, { details: 'too many' }, byName(name)),
        leads.map((l) => l.id),
        ['UPSERT-5'],
      );
    },
    { timeout: 60_000, also: ['UPSERT-4'] },
  ),
);

test(
  ...rule('UPSERT-13', 'an upsert answered 422 (two matches) neither updates nor creates a Lead', async ({ api, ns }) => {
    const name = ns.name('untouched');
    const [a, b] = await leadsNamed(api, ns, name, 2);
    expectAmbiguous(await upsert(api, { details: 'must not be written', title: 'must not be written' }, byName(name)), [a.id, b.id], ['UPSERT-4', 'UPSERT-7']);
    for (const lead of [a, b]) {
      // Found by its e-mail: a read that rests on one match updating it (UPSERT-3, UPSERT-8).
      const now = await readLead(api, byEmail(lead.email!.email), lead.id);
      // Read back by an upsert with empty properties, which changes nothing only if UPSERT-12 holds.
      const names = breaks(['UPSERT-13', 'UPSERT-12']);
      expect(now.details, `details of Lead ${String(lead.id)} unchanged after the 422${names}`).toBe(lead.details);
      expect(now.title, `title of Lead ${String(lead.id)} unchanged after the 422${names}`).toBe(lead.title);
    }
    // Still exactly these two: no third Lead was created (the reads above rest on UPSERT-12).
    expectAmbiguous(await upsert(api, {}, byName(name)), [a.id, b.id], ['UPSERT-13', 'UPSERT-4', 'UPSERT-12']);
  }),
);

test(
  ...rule('UPSERT-10', 'the upsert answer carries option names instead of option ids', async ({ api, ns, profile }) => {
    const dropdown = customFieldOn(profile.fixtures.custom_fields.dropdown, 'lead');
    const multi = customFieldOn(profile.fixtures.custom_fields.multi_select, 'lead');
    test.skip(!dropdown && !multi, 'the profile has no dropdown or multi-select custom field available on leads');
    const cf = [
      ...(dropdown ? [{ custom_field_definition_id: dropdown.id, value: dropdown.options[1 % dropdown.options.length].id }] : []),
      ...(multi ? [{ custom_field_definition_id: multi.id, value: [multi.options[0].id, multi.options[multi.options.length - 1].id] }] : []),
    ];
    const created = expectLead(await upsert(api, leadProperties(ns, 'computed', { custom_fields: cf }), byName(ns.name('computed-none'))), 'the create');
    const check = (lead: Lead, when: string) => {
      if (dropdown)
        expect(customValue(lead, dropdown.id), `${when}: dropdown ${String(dropdown.id)} as its option name`).toBe(
          dropdown.options[1 % dropdown.options.length].name,
        );
      if (multi) {
        const value = customValue(lead, multi.id);
        // The order of a multi-select's values is not fixed by the spec.
        expect(Array.isArray(value) ? [...value].sort() : value, `${when}: multi-select ${String(multi.id)} as option names`).toEqual(
          [...new Set([multi.options[0].name, multi.options[multi.options.length - 1].name])].sort(),
        );
      }
    };
    check(created, 'create');
    const updated = expectLead(await upsert(api, { details: 'again' }, byName(created.name!)), 'the update', updateRules(byName(created.name!)));
    expectSameLead(updated, created.id, byName(created.name!), 'the update');
    check(updated, 'update');
  }),
);
