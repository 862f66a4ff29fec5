/**
 * Helpers of the conversion specs (spec § Lead conversion): convert a Lead, a conversion that
 * must succeed, a Company made by a conversion.
 */
import { ConvertResponse, type Company, type Lead } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from '../support/core/http.js';
import { convertPath } from '../support/leads.js';
import { expect, type Namespace } from '../support/fixtures/test.js';
import { make } from '../support/make.js';

export type Details = Record<string, unknown>;

export function convert(api: ApiClient, leadId: unknown, details: Details): Promise<ApiResponse<ConvertResponse>> {
  return api.post<ConvertResponse>(convertPath(leadId), { details });
}

/** A conversion that must succeed: 2xx and the ConvertResponse contract. */
export async function converted(api: ApiClient, lead: Lead, details: Details): Promise<ConvertResponse> {
  const res = await convert(api, lead.id, details);
  expect(res, `converting Lead ${String(lead.id)} succeeds`).not.toBeRefused();
  expect(res).toMatchContract(ConvertResponse);
  return res.body;
}

export const none = (v: unknown) => v === undefined || v === null;

/** A Company made by converting a Lead with a new company name (exact match). */
export async function companyByConversion(api: ApiClient, ns: Namespace, name: string): Promise<Company> {
  const lead = await make.lead({ api, ns }, {}, 'company-maker');
  const out = await converted(api, lead, { person: { name: ns.name('maker person') }, company: { name, exact_match: true } });
  expect(out.company, `a Company named "${name}" is created`).toBeTruthy();
  return out.company!;
}
