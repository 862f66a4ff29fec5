/**
 * spec § Endpoints → People (`POST /people`), § Resources → Person, § What the service does
 * ("absent or empty fields are returned as null, lists as []"), § Shared shapes (computed
 * custom field values on person create).
 *
 * Fields required on create are "not shown": every create sends a name (and the test's tags).
 * The status of a create is not shown either: any 2xx is accepted. The spec gives no read of a
 * Person: what a create stored is not observed (no read is invented for it), only its answer.
 */
import { Person } from '../../contracts/index.js';
import { expect, expectJson, rule, test } from '../support/fixtures/test.js';
import { make, post, expectCreated } from '../support/make.js';
import { entryTexts, expectAddressWithoutCountry } from '../support/records.js';

test(
  ...rule('PEOPLE-1', 'POST /people answers a Person', async ({ api, ns }) => {
    const res = await post.person({ api, ns }, { emails: [{ email: `${ns.id}@example.com`, category: 'work' }] });
    expectCreated(res, 'Person', 'PEOPLE-1');
    expectJson(res);
    expect(res).toMatchContract(Person);
  }),
);

test(
  ...rule('PEOPLE-2', 'the name, emails, address and phone_numbers sent come back on the created Person', async ({ api, ns }) => {
    const sent = {
      name: ns.name('Ada Lovelace'),
      emails: [
        { email: `${ns.id}.work@example.com`, category: 'work' },
        { email: `${ns.id}.mobile@example.org`, category: 'mobile' },
      ],
      address: { street: '12 Analytical Row', city: 'London', state: 'Greater London', postal_code: 'NW1 6XE', country: 'GB' },
      phone_numbers: [
        { number: '+14155550123', category: 'work' },
        { number: '+14155550199', category: 'mobile' },
      ],
    };
    const res = await post.person({ api, ns }, sent);
    expectCreated(res, 'Person', 'PEOPLE-1');
    expect(res).toMatchContract(Person);
    const p = res.body;
    expect(p.name, 'name').toBe(sent.name);
    expect(entryTexts(p.emails, 'email'), 'emails (any order)').toEqual(entryTexts(sent.emails, 'email'));
    expect(p.address, 'address').toMatchObject(sent.address);
    expect(entryTexts(p.phone_numbers, 'number'), 'phone_numbers (any order)').toEqual(entryTexts(sent.phone_numbers, 'number'));
    expect(p.tags, 'the tags sent').toEqual(expect.arrayContaining(ns.tags));
  }),
);

test(
  ...rule(
    'PEOPLE-2',
    'a name and an address outside ASCII (combining marks, a character beyond the BMP) come back on the created Person as sent',
    async ({ api, ns }) => {
      const sent = {
        name: `${ns.name('osoba')} Zoë Łukasiewicz 山田 Ọ̀ṣun Ąnė̃ 𠮷野`,
        emails: [{ email: `${ns.id}.zoe@example.com`, category: 'work' }],
        address: { street: 'ul. Świętokrzyska 12', city: 'Kraków', state: 'Małopolska', postal_code: '31-000', country: 'PL' },
        phone_numbers: [{ number: '+48 12 345 67 89', category: 'work' }],
      };
      const res = await post.person({ api, ns }, sent);
      expectCreated(res, 'Person', 'PEOPLE-1');
      expect(res).toMatchContract(Person);
      expect(res.body.name, 'name').toBe(sent.name);
      expect(res.body.address, 'address').toMatchObject(sent.address);
      expect(entryTexts(res.body.phone_numbers, 'number'), 'phone_numbers').toEqual(entryTexts(sent.phone_numbers, 'number'));
    },
  ),
);

test(
  ...rule(
    'PEOPLE-2',
    'an address whose country is null or empty ("may be null or empty") is taken: its other members come back as sent, its country null or empty',
    async ({ api, ns }) => {
      for (const country of [null, '']) {
        const address = { street: '12 Analytical Row', city: 'London', state: 'Greater London', postal_code: 'NW1 6XE', country };
        const res = await post.person({ api, ns }, { name: ns.name(`country ${JSON.stringify(country)}`), address });
        expectCreated(res, 'Person', 'PEOPLE-1');
        expectAddressWithoutCountry(res.body.address, address);
      }
    },
  ),
);

test(
  ...rule(
    'PEOPLE-3',
    'fields sent as empty strings (prefix, suffix, title, details, company_name) come back as null',
    async ({ api, ns }) => {
      const empty = ['prefix', 'suffix', 'title', 'details', 'company_name'];
      const res = await post.person({ api, ns }, Object.fromEntries(empty.map((f) => [f, ''])));
      expectCreated(res, 'Person', 'PEOPLE-1');
      const p = res.body as unknown as Record<string, unknown>;
      // "string or null" members sent empty: empty fields are returned as null (the choice records.empty-strings,
      // decided). Name parts a server may derive from name (first, middle, last) are left out.
      const kept = empty.filter((f) => p[f] !== null).map((f) => `${f}: ${JSON.stringify(p[f])}`);
      expect(kept, 'members sent as "" come back as null, never as ""').toEqual([]);
    },
    { also: ['WIRE-3'] },
  ),
);

test(
  ...rule(
    'PEOPLE-3',
    'fields not sent come back as null and lists as []',
    async ({ api, ns }) => {
      const res = await post.person({ api, ns });
      expectCreated(res, 'Person', 'PEOPLE-1');
      const p = res.body as unknown as Record<string, unknown>;
      // Name parts are left out: a server may derive first/last name from `name`; assignee and
      // contact type may get account defaults. What has no possible source must be null.
      for (const field of ['prefix', 'suffix', 'title', 'address', 'company_id', 'company_name', 'details']) {
        expect(field in p, `${field} is present (absent values are returned as null, not left out)`).toBe(true);
        expect(p[field], `${field} was not sent: null`).toBeNull();
      }
      for (const field of ['emails', 'phone_numbers', 'socials', 'websites']) {
        expect(p[field], `${field} was not sent: [] (lists are never null)`).toEqual([]);
      }
      expect(Array.isArray(p.custom_fields), 'custom_fields is a list (it may be empty)').toBe(true);
      expect(res).toMatchContract(Person);
    },
    { also: ['WIRE-3'] },
  ),
);

test(
  ...rule('PEOPLE-4', 'person create answers option names instead of option ids for dropdown and multi-select fields', async ({ api, ns, profile }) => {
    const { dropdown, multi_select: multi } = profile.fixtures.custom_fields;
    const usable = (d: typeof dropdown) => !!d && d.options.length >= 2 && (d.available_on.length === 0 || d.available_on.includes('person'));
    test.skip(
      !usable(dropdown) || !usable(multi),
      'the profile names no dropdown and multi-select custom fields (with two options or more) available on people',
    );
    const choice = dropdown!.options[1];
    const chosen = [multi!.options[0], multi!.options[multi!.options.length - 1]];
    const person = await make.person(
      { api, ns },
      {
        custom_fields: [
          { custom_field_definition_id: dropdown!.id, value: choice.id },
          { custom_field_definition_id: multi!.id, value: chosen.map((o) => o.id) },
        ],
      },
    );
    expect(person).toMatchContract(Person);
    const value = (id: unknown) => person.custom_fields.find((c) => String(c.custom_field_definition_id) === String(id))?.value;
    expect(value(dropdown!.id), `dropdown ${String(dropdown!.id)}: the option name "${choice.name}" instead of its id ${String(choice.id)}`).toBe(choice.name);
    const names = value(multi!.id);
    expect(Array.isArray(names) ? [...names].map(String).sort() : names, `multi-select ${String(multi!.id)}: the option names instead of their ids`).toEqual(
      chosen.map((o) => o.name).sort(),
    );
  }),
);
