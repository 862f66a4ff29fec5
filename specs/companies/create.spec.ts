/**
 * spec § Endpoints → Companies (`POST /companies`, `GET /companies/{company_id}`),
 * § Resources → Company ("primary_contact_id … present on create/fetch responses"),
 * § What the service does (absent values null, lists []).
 *
 * Required fields on create are "not shown": every create sends a name (and the test's tags).
 * A create may answer any 2xx; a fetch answers 200.
 */
import { Company } from '../../contracts/index.js';
import { expect, expectJson, rule, test } from '../support/fixtures/test.js';
import { make, post, sameId, expectCreated } from '../support/make.js';

const numbers = (list: unknown) =>
  (Array.isArray(list) ? list : []).map((e: Record<string, unknown>) => `${String(e?.number)} (${String(e?.category)})`).sort();

const fullCompany = (id: string) => ({
  address: { street: '1 Harbour Way', city: 'Bristol', state: 'Avon', postal_code: 'BS1 5TY', country: 'GB' },
  email_domain: `${id}.example.com`,
  details: `Created by crm-conformance (${id})`,
  phone_numbers: [{ number: '+441179000001', category: 'work' }],
});

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
      expect(numbers(c.phone_numbers), 'phone_numbers (any order)').toEqual(numbers(sent.phone_numbers));
      expect(c.tags, 'the tags sent').toEqual(expect.arrayContaining(ns.tags));
    },
  ),
);

test(
  ...rule('COMPANY-2', 'GET /companies/{id} answers the Company as created', async ({ api, ns }) => {
    const created = await make.company({ api, ns }, fullCompany(ns.id));
    const res = await api.get<Company>(`/companies/${encodeURIComponent(String(created.id))}`);
    expect(res).toHaveStatus(200);
    expectJson(res);
    expect(res).toMatchContract(Company);
    const c = res.body;
    expect(sameId(c.id, created.id), `the fetched Company has id ${String(created.id)}, got ${String(c.id)}`).toBe(true);
    expect(c.name, 'name').toBe(created.name);
    expect(c.address, 'address').toEqual(created.address);
    expect(c.email_domain, 'email_domain').toBe(created.email_domain);
    expect(c.details, 'details').toBe(created.details);
    expect(numbers(c.phone_numbers), 'phone_numbers').toEqual(numbers(created.phone_numbers));
    expect([...c.tags].sort(), 'tags').toEqual([...created.tags].sort());
    expect(c.date_created, 'date_created').toBe(created.date_created);
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
