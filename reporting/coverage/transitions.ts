/**
 * The state transitions (spec § States and transitions, § Lead upsert), notification kinds
 * (§ Events) and OAuth steps (§ OAuth 2.0 authorization code grant) one test showed, judged from
 * its exchanges in the order it sent them, the notifications its hooks received and its OAuth
 * steps. What a transition needs of earlier exchanges (the Companies seen, the Leads converted, the
 * relationships removed, the subscriptions made) is kept for the test only, as ids, and dropped with it.
 *
 * - Lead conversion: the Person created; a Company created (a name no answer of the test named
 *   before), joined by id, joined by name (a name whose Company the test saw before), none for an
 *   empty name, none when `company` is omitted; an Opportunity created, none when omitted; the Lead
 *   gone (converting it again is refused, or an upsert on its name or e-mail answers another Lead).
 * - Lead upsert: a new Lead (an id the test had not seen) with status `New`; an update (an id it
 *   had); 422.
 * - Relationship removal: `removed: true`; afterwards the related record fetched (`GET
 *   /companies/{id}` 2xx) and the record itself answered 2xx.
 * - Webhook subscription: made (`id`, `created_at`), read back, removed, gone after removal.
 */
import type { OAuthStep } from '../../specs/support/core/oauth-steps.js';
import type { Counts } from './classify.js';
import type { RecordedExchange } from './collector.js';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const ok = (x: RecordedExchange) => (x.status ?? 0) >= 200 && (x.status ?? 0) < 300;
const idOf = (v: unknown): string | undefined => {
  const id = isObject(v) ? v.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};
const none = (v: unknown) => v === null || v === undefined;
const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
/** The path segment after `before` in a URL, decoded. */
function segmentAfter(url: string | undefined, before: RegExp): string | undefined {
  const m = before.exec(url ?? '');
  return m ? decode(m[1]) : undefined;
}

export class TestTransitions {
  private companies = new Set<string>();
  private leads = new Map<string, { name?: unknown; email?: unknown }>();
  private converted = new Set<string>();
  private removals: { entity: string; resource?: string }[] = [];
  private hooks = new Map<string, { deleted: boolean }>();
  /** The receiving path of each subscription the test made → `type/event` (null: several kinds). */
  private channels = new Map<string, string | null>();

  constructor(
    private readonly counts: Counts,
    private readonly named: Map<string, number>,
  ) {}

  private hit(owner: string, token: string): void {
    const i = this.named.get(`${owner} ${token}`);
    if (i !== undefined) this.counts[i]++;
  }

  /** One exchange of the test, matched to its endpoint (`key`). */
  exchange(key: string, x: RecordedExchange): void {
    if (this.removals.length && ok(x)) this.afterRemoval(x);
    switch (key) {
      case 'POST /leads/{lead_id}/convert':
        return this.convert(x);
      case 'PUT /leads/upsert':
        return this.upsert(x);
      case 'POST /companies':
      case 'GET /companies/{company_id}': {
        const id = ok(x) ? idOf(x.responseBody) : undefined;
        if (id) this.companies.add(id);
        return;
      }
      case 'DELETE /{entity}/{entity_id}/related':
        return this.removal(x);
      case 'POST /webhooks':
      case 'GET /webhooks/{webhook_id}':
      case 'DELETE /webhooks/{webhook_id}':
        return this.webhook(key, x);
    }
  }

  private convert(x: RecordedExchange): void {
    const lead = segmentAfter(x.url, /\/leads\/([^/?#]+)\/convert/);
    if (!ok(x)) {
      if (lead && this.converted.has(lead) && (x.status ?? 0) >= 400 && (x.status ?? 0) < 500) this.hit('lead-conversion', 'lead-gone');
      return;
    }
    if (lead) this.converted.add(lead);
    const details = isObject(x.requestBody) && isObject(x.requestBody.details) ? x.requestBody.details : {};
    const body = x.responseBody;
    if (!isObject(body)) return;
    if (idOf(body.person)) this.hit('lead-conversion', 'person-created');
    this.convertCompany(details.company, body.company);
    if (details.opportunity !== undefined && idOf(body.opportunity)) this.hit('lead-conversion', 'opportunity-created');
    if (details.opportunity === undefined && none(body.opportunity)) this.hit('lead-conversion', 'no-opportunity');
  }

  private convertCompany(asked: unknown, answered: unknown): void {
    const id = idOf(answered);
    if (asked === undefined) {
      if (none(answered)) this.hit('lead-conversion', 'no-company-omitted');
    } else if (isObject(asked) && asked.id !== undefined) {
      if (id !== undefined && id === String(asked.id)) this.hit('lead-conversion', 'company-joined-by-id');
    } else if (isObject(asked) && asked.name === '') {
      if (none(answered)) this.hit('lead-conversion', 'no-company-empty-name');
    } else if (isObject(asked) && typeof asked.name === 'string' && id !== undefined) {
      this.hit('lead-conversion', this.companies.has(id) ? 'company-joined-by-name' : 'company-created');
    }
    if (id !== undefined) this.companies.add(id);
  }

  private upsert(x: RecordedExchange): void {
    if (x.status === 422) return this.hit('lead-upsert', 'conflict-422');
    const body = x.responseBody;
    const id = ok(x) ? idOf(body) : undefined;
    if (!id || !isObject(body)) return;
    if (this.leads.has(id)) this.hit('lead-upsert', 'updated');
    else if (body.status === 'New') this.hit('lead-upsert', 'created-status-new');
    const match = isObject(x.requestBody) && isObject(x.requestBody.match) ? x.requestBody.match.field_value : undefined;
    for (const gone of this.converted) {
      const lead = this.leads.get(gone);
      if (lead && gone !== id && match !== undefined && (lead.name === match || lead.email === match)) this.hit('lead-conversion', 'lead-gone');
    }
    this.leads.set(id, { name: body.name, email: isObject(body.email) ? body.email.email : undefined });
  }

  private removal(x: RecordedExchange): void {
    if (!ok(x)) return;
    if (isObject(x.responseBody) && x.responseBody.removed === true) this.hit('relationship-removal', 'removed');
    const entity = segmentAfter(x.url, /\/[^/]+\/([^/?#]+)\/related/);
    const resource = isObject(x.requestBody) && isObject(x.requestBody.resource) ? x.requestBody.resource.id : undefined;
    if (entity) this.removals.push({ entity, resource: resource === undefined ? undefined : String(resource) });
  }

  /** An answered request after a removal: the related record fetched, or the record itself named. */
  private afterRemoval(x: RecordedExchange): void {
    const company = x.method === 'GET' ? segmentAfter(x.url, /\/companies\/([^/?#]+)$/) : undefined;
    const segments = new Set((x.url ?? '').split(/[/?#]/).map(decode));
    for (const r of this.removals) {
      if (company !== undefined && company === r.resource) this.hit('relationship-removal', 'related-record-kept');
      if (segments.has(r.entity)) this.hit('relationship-removal', 'record-kept');
    }
  }

  private webhook(key: string, x: RecordedExchange): void {
    if (key === 'POST /webhooks') {
      const req = isObject(x.requestBody) ? x.requestBody : {};
      const path = typeof req.target === 'string' ? /^[a-z]+:\/\/[^/]+(\/[^?#]*)/i.exec(req.target)?.[1] : undefined;
      // A path subscribed to several kinds (HOOK-1 subscribes one to every kind) tells no kind.
      const kind = `${String(req.type)}/${String(req.event)}`;
      if (path) this.channels.set(path, this.channels.has(path) && this.channels.get(path) !== kind ? null : kind);
      const id = ok(x) ? idOf(x.responseBody) : undefined;
      if (id && isObject(x.responseBody) && !none(x.responseBody.created_at)) {
        this.hit('webhook-subscription', 'subscribed');
        this.hooks.set(id, { deleted: false });
      }
      return;
    }
    const id = segmentAfter(x.url, /\/webhooks\/([^/?#]+)$/);
    const hook = id === undefined ? undefined : this.hooks.get(id);
    if (key === 'DELETE /webhooks/{webhook_id}') {
      if (ok(x)) this.hit('webhook-subscription', 'unsubscribed');
      if (ok(x) && hook) hook.deleted = true;
    } else if (hook && ok(x) && !hook.deleted) this.hit('webhook-subscription', 'read-back');
    else if (hook?.deleted && !ok(x)) this.hit('webhook-subscription', 'gone-after-unsubscribe');
  }

  /** The notifications the test's hooks received, by the kind of the subscription of their receiving path; how many. */
  notifications(received: unknown): number {
    if (!isObject(received)) return 0;
    let n = 0;
    for (const [path, list] of Object.entries(received)) {
      const count = Array.isArray(list) ? list.length : 0;
      n += count;
      const kind = this.channels.get(path);
      const i = kind ? this.named.get(`notification ${kind}`) : undefined;
      if (i !== undefined) this.counts[i] += count;
    }
    return n;
  }

  /** One OAuth step: the paths it took (spec § OAuth steps 1 to 5). */
  oauth(step: OAuthStep): void {
    if (step.step === 'token') {
      const m = Object.entries(step.members);
      if (m.every(([, c]) => c === 'valid')) this.hit('token', 'valid');
      for (const [k, c] of m) if (c !== 'valid') this.hit('token', c === 'reused' ? 'code reused' : `${k} ${c === 'other' ? 'other-value' : 'missing'}`);
      return;
    }
    const { state, ...params } = step.params;
    if (Object.values(params).every((c) => c === 'valid')) this.hit('authorize', 'valid');
    for (const [k, c] of Object.entries(params)) if (c !== 'valid') this.hit('authorize', `${k} ${c === 'other' ? 'other-value' : 'missing'}`);
    this.hit('authorize', `state ${state}`);
    const consent = step.screens.includes('consent');
    if (step.screens.includes('login')) this.hit('login', 'login-screen');
    else if (consent) this.hit('login', 'already-logged-in');
    if (consent) this.hit('consent', 'shown');
    if (consent && step.decision) this.hit('consent', step.decision);
    const cb = step.callback;
    if (cb?.method === 'POST') this.hit('callback', 'post');
    if (cb?.code) this.hit('callback', 'code');
    if (cb?.error) this.hit('callback', 'error');
    if (cb?.state && state === 'given') this.hit('callback', 'state-echoed');
  }
}
