/**
 * spec § Endpoints → Companies (`POST /companies`, `GET /companies/{company_id}`),
 * § Resources → Company ("primary_contact_id … present on create/fetch responses"),
 * § What the service does (absent or empty values null, lists []).
 *
 * Required fields on create are "not shown": every create sends a name (and the test's tags).
 * A create may answer any 2xx; a fetch answers 200, the Company as the create answered it
 * (COMPANY-2: every member). Names and free text outside ASCII come back as sent.
 */
import { Company, type TargetProfile } from '../../contracts/index.js';
import type { CustomFieldFixture } from '../../contracts/profile.js';
import { REAL_TEXTS } from '../../generators/real-text.js';
import { expect, expectJson, rule, test } from '../support/fixtures/test.js';
import { make, post, sameId, expectCreated } from '../support/make.js';
import { entryTexts, expectAddressWithoutCountry, storedDifferences } from '../support/records.js';

const fullCompany = (id: string) => ({
  address: { street: '1 Harbour Way', city: 'Bristol', state: 'Avon', postal_code: 'BS1 5TY', country: 'GB' },
  email_domain: `${id}.example.com`,
  details: `Created by crm-conformance (${id})`,
  phone_numbers: [{ number: '+441179000001', category: 'work' }],
  socials: [{ url: `https://www.linkedin.com/company/${id}`, category: 'linkedin' }],
  websites: [{ url: `https://${id}.example.com/`, category: 'work' }],
});

/**
 * A dropdown and a multi-select value to send on a Company (two options or more, available on companies), or undefined
 * when the profile names none.
 */
function optionFields(profile: TargetProfile) {
  const { dropdown, multi_select: multi } = profile.fixtures.custom_fields;
  const usable = (d: CustomFieldFixture | undefined): d is CustomFieldFixture =>
    !!d && d.options.length >= 2 && (d.available_on.length === 0 || d.available_on.includes('company'));
  if (!usable(dropdown) || !usable(multi)) return undefined;
  const chosen = [multi.options[0], multi.options[multi.options.length - 1]];
  return {
    dropdown: { id: dropdown.id, option: dropdown.options[1] },
    multi: { id: multi.id, options: chosen },
    sent: [
      { custom_field_definition_id: dropdown.id, value: dropdown.options[1].id },
      { custom_field_definition_id: multi.id, value: chosen.map((o) => o.id) },
    ],
  };
}

/** The dropdown and multi-select values carried (null or none: nothing to judge) that are not the option ids sent. */
function computedValues(options: NonNullable<ReturnType<typeof optionFields>>, customFields: unknown): string[] {
  const value = (id: unknown) =>
    (Array.isArray(customFields) ? (customFields as Record<string, unknown>[]) : []).find((v) => String(v?.custom_field_definition_id) === String(id))?.value;
  const problems: string[] = [];
  const one = value(options.dropdown.id);
  if (one !== null && one !== undefined && String(one) !== String(options.dropdown.option.id))
    problems.push(`dropdown ${String(options.dropdown.id)}: ${JSON.stringify(one)}, not the option id ${String(options.dropdown.option.id)} sent`);
  const many = value(options.multi.id);
  const ids = options.multi.options.map((o) => String(o.id)).sort();
  if (many !== null && many !== undefined && JSON.stringify(Array.isArray(many) ? many.map(String).sort() : many) !== JSON.stringify(ids))
    problems.push(`multi-select ${String(options.multi.id)}: ${JSON.stringify(many)}, not the option ids ${JSON.stringify(ids)} sent (any order)`);
  return problems;
}

test(
  ...rule(
    'COMPANY-1',
    'POST /companies answers a Company carrying the name, address, email_domain, details, phone_numbers and tags sent',
    async ({ api, ns }) => {
      const sent = { name: ns.name('Harbour Works'), ...fullCompany(ns.id) };
      const res = await post.company({ api, ns }, sent);
      expectCreated(res, 'Company', 'COMPANY-1');
      expectJson(res);
      expect(res).toMatchContract(Company);
      const c = res.body;
      expect(c.name, 'name').toBe(sent.name);
      expect(c.address, 'address').toMatchObject(sent.address);
      expect(c.email_domain, 'email_domain').toBe(sent.email_domain);
      expect(c.details, 'details').toBe(sent.details);
      expect(entryTexts(c.phone_numbers, 'number'), 'phone_numbers (any order)').toEqual(entryTexts(sent.phone_numbers, 'number'));
      expect(c.tags, 'the tags sent').toEqual(expect.arrayContaining(ns.tags));
    },
  ),
);

test(
  ...rule(
    'COMPANY-2',
    'GET /companies/{id} answers the Company as created: every member the create answered, with the same value',
    async ({ api, ns, profile }) => {
      const options = optionFields(profile);
      const created = await make.company({ api, ns }, { ...fullCompany(ns.id), ...(options ? { custom_fields: options.sent } : {}) });
      const res = await api.get<Company>(`/companies/${encodeURIComponent(String(created.id))}`);
      expect(res).toHaveStatus(200);
      expectJson(res);
      expect(res).toMatchContract(Company);
      const c = res.body;
      expect(sameId(c.id, created.id), `the fetched Company has id ${String(created.id)}, got ${String(c.id)}`).toBe(true);
      expect(storedDifferences(created, c, { profile }), 'the fetch answers every member the create answered, with the same value').toEqual([]);
      // Neither endpoint is listed as computing custom field values: a dropdown or multi-select value they carry is the option ids sent.
      if (options)
        for (const [answer, company] of [
          ['create', created],
          ['fetch', c],
        ] as const)
          expect(
            computedValues(options, company.custom_fields),
            `the ${answer} answer carries option ids, not option names (not a computing endpoint)`,
          ).toEqual([]);
    },
  ),
);

test(
  ...rule(
    'COMPANY-1',
    'an address whose country is null or empty ("may be null or empty") is taken: its other members come back as sent, its country null or empty',
    async ({ api, ns }) => {
      for (const country of [null, '']) {
        const address = { ...fullCompany(ns.id).address, country };
        const res = await post.company({ api, ns }, { name: ns.name(`country ${JSON.stringify(country)}`), address });
        expectCreated(res, 'Company', 'COMPANY-1');
        expectAddressWithoutCountry(res.body.address, address);
      }
    },
  ),
);

test(
  ...rule('COMPANY-1', 'POST /companies answers a name, details and address outside ASCII, and the entry lists sent, as sent', async ({ api, ns }) => {
    const sent = {
      name: `${ns.name('Spółka')} Łukasiewicz & 山田 株式会社 Ọ̀ṣun`,
      details: REAL_TEXTS.join(' / '),
      address: { street: 'ul. Świętokrzyska 12', city: 'Kraków', state: 'Małopolska', postal_code: '31-000', country: 'PL' },
      // Entries of every list a Company has, with categories the spec observed ("carrying the fields sent": these too).
      phone_numbers: [{ number: '+48123456789', category: 'work' }],
      socials: [{ url: `https://www.linkedin.com/company/${ns.id}-spolka`, category: 'linkedin' }],
      websites: [{ url: `https://${ns.id}.example.pl/`, category: 'work' }],
    };
    const res = await post.company({ api, ns }, sent);
    expectCreated(res, 'Company', 'COMPANY-1');
    expect(res).toMatchContract(Company);
    expect(res.body.name, 'name').toBe(sent.name);
    expect(res.body.details, 'details').toBe(sent.details);
    expect(res.body.address, 'address').toMatchObject(sent.address);
    expect(entryTexts(res.body.phone_numbers, 'number'), 'phone_numbers (any order)').toEqual(entryTexts(sent.phone_numbers, 'number'));
    expect(entryTexts(res.body.socials, 'url'), 'socials (any order)').toEqual(entryTexts(sent.socials, 'url'));
    expect(entryTexts(res.body.websites, 'url'), 'websites (any order)').toEqual(entryTexts(sent.websites, 'url'));
  }),
);

test(
  ...rule('COMPANY-3', 'primary_contact_id is present on the create and fetch answers of a Company created without one', async ({ api, ns }) => {
    const res = await post.company({ api, ns });
    expectCreated(res, 'Company', 'COMPANY-1');
    expect('primary_contact_id' in (res.body as object), 'primary_contact_id is present on the create answer').toBe(true);
    const fetched = await api.get<Company>(`/companies/${encodeURIComponent(String(res.body.id))}`);
    expect(fetched).toHaveStatus(200);
    expect('primary_contact_id' in (fetched.body as object), `primary_contact_id is present on the fetch answer: ${JSON.stringify(fetched.body)}`).toBe(true);
    expect(fetched.body.primary_contact_id, 'the fetch answer agrees with the create answer').toEqual(res.body.primary_contact_id);
  }),
);

test(
  ...rule('COMPANY-3', 'a primary_contact_id sent on create comes back on the create and fetch answers', async ({ api, ns }) => {
    const person = await make.person({ api, ns });
    const res = await post.company({ api, ns }, { primary_contact_id: person.id });
    expectCreated(res, 'Company', 'COMPANY-1');
    expect(
      sameId(res.body.primary_contact_id, person.id),
      `create answer: primary_contact_id ${String(person.id)}, got ${JSON.stringify(res.body.primary_contact_id)}`,
    ).toBe(true);
    const fetched = await api.get<Company>(`/companies/${encodeURIComponent(String(res.body.id))}`);
    expect(fetched).toHaveStatus(200);
    expect(fetched).toMatchContract(Company);
    expect(
      sameId(fetched.body.primary_contact_id, person.id),
      `fetch answer: primary_contact_id ${String(person.id)}, got ${JSON.stringify(fetched.body.primary_contact_id)}`,
    ).toBe(true);
  }),
);

test(
  ...rule(
    'COMPANY-6',
    'on company create, fields not sent come back as null and lists as []',
    async ({ api, ns }) => {
      const res = await post.company({ api, ns });
      expectCreated(res, 'Company', 'COMPANY-1');
      const c = res.body as unknown as Record<string, unknown>;
      // assignee and contact type may get account defaults; what has no possible source must be null.
      for (const field of ['address', 'details', 'email_domain']) {
        expect(field in c, `${field} is present (absent values are returned as null, not left out)`).toBe(true);
        expect(c[field], `${field} was not sent: null`).toBeNull();
      }
      for (const field of ['phone_numbers', 'socials', 'websites']) {
        expect(c[field], `${field} was not sent: [] (lists are never null)`).toEqual([]);
      }
      expect(Array.isArray(c.custom_fields), 'custom_fields is a list (it may be empty)').toBe(true);
      expect(res).toMatchContract(Company);
    },
    { also: ['WIRE-3'] },
  ),
);

test(
  ...rule(
    'COMPANY-6',
    'on company create, details and email_domain sent as empty strings come back as null (an empty field is null)',
    async ({ api, ns }) => {
      const res = await post.company({ api, ns }, { details: '', email_domain: '' });
      expectCreated(res, 'Company', 'COMPANY-1');
      const c = res.body as unknown as Record<string, unknown>;
      // "string or null" members sent empty: empty fields are returned as null (the choice records.empty-strings, decided).
      const kept = ['details', 'email_domain'].filter((f) => c[f] !== null).map((f) => `${f}: ${JSON.stringify(c[f])}`);
      expect(kept, 'members sent as "" come back as null, never as ""').toEqual([]);
    },
    { also: ['WIRE-3'] },
  ),
);
