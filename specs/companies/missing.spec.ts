/**
 * spec § Errors (WIRE-6) for `GET /companies/{company_id}`: "Status codes for missing records …
 * not shown." The status is open, but a 2xx says the record is there (RFC 9110 §15.3): a fetch of
 * an id no Company has is refused (any 4xx; a 5xx or no answer is no refusal).
 *
 * The spec gives no way to delete a Company: the id is one of the form of a Company just made,
 * far from it (specs/support/records.ts, `absentId`).
 */
import { expect, rule, test } from '../support/fixtures/test.js';
import { make } from '../support/make.js';
import { absentId } from '../support/records.js';

test(
  ...rule('WIRE-6', 'GET /companies/{id} of an id no Company has is refused, not answered 2xx', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    const id = absentId(company.id, ns.id);
    const res = await api.get(`/companies/${encodeURIComponent(String(id))}`);
    expect(res, `no Company has id ${String(id)} (a Company made just now has ${String(company.id)}): a 2xx would say it exists`).toBeRefused();
  }),
);
