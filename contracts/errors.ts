/**
 * Error bodies the specification shows (spec § Errors). Where the shape is "not shown"
 * the contract is tolerant on purpose. The bodies it shows are given whole, values included
 * (`{ success: false, status: 422, message: <text> }`, `{ error: <message> }` "stating that the
 * request is too large and the limit is 10"), so their members are never `null`.
 */
import { z } from 'zod';
import { identifier } from './base.js';

/** Bulk create with more than 10 entries: 422 `{ error: <message> }` stating the limit is 10. */
export const BulkTooLarge = z.looseObject({ error: z.string().min(1) });
export type BulkTooLarge = z.infer<typeof BulkTooLarge>;

/** A failed bulk entry: `{ success: false, message: { <field>: [ { error: <code> } ] } }`. */
export const BulkFailedEntry = z.looseObject({
  success: z.literal(false),
  message: z.record(z.string(), z.array(z.looseObject({ error: z.string() })).min(1)),
});
export type BulkFailedEntry = z.infer<typeof BulkFailedEntry>;

/** Webhook create with an invalid target URL: 422 `{ success: false, status: 422, message }`. */
export const WebhookInvalid = z.looseObject({
  success: z.literal(false),
  status: z.literal(422),
  message: z.string(),
});
export type WebhookInvalid = z.infer<typeof WebhookInvalid>;

/**
 * Upsert 422: "includes the ids of the matching Leads (exact body shape: not shown)".
 * Any JSON value is accepted; {@link idsInBody} finds the ids wherever they are.
 */
export const UpsertConflict = z.unknown();

/** Collects every identifier-like scalar found anywhere in a JSON value. */
export function idsInBody(body: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    else if (identifier.safeParse(v).success) found.add(String(v));
  };
  walk(body);
  // Ids embedded in a message text ("matches 12, 15") count too.
  if (typeof body === 'string' || (body && typeof body === 'object')) {
    for (const m of JSON.stringify(body).matchAll(/[A-Za-z0-9_-]+/g)) found.add(m[0]);
  }
  return found;
}

/**
 * The ids of `ids` a body names that must name none of them (spec § Lead upsert: "More than 30
 * matches: response 422 without the ids"). The body's shape is not shown, so every number in it
 * counts, except those it has reasons of its own to carry: its status, the limit of 30 and the
 * number of matches (a message such as "more than 30 leads match" or `status: 422`), which small
 * ids may equal (a server that counts the ids of each kind from 1).
 */
export function leakedIds(body: unknown, ids: readonly unknown[], status: number): string[] {
  const explained = new Set([String(status), '30', String(ids.length)]);
  const found = idsInBody(body);
  return ids.map(String).filter((id) => found.has(id) && !explained.has(id));
}

/**
 * Does the body name this id? As a value anywhere, or written in its text: a numeric id as a
 * whole token ("12" is not in "123"), any other id as it is ("lead:42" in "matches lead:42").
 */
export function namesId(body: unknown, id: unknown, found: Set<string> = idsInBody(body)): boolean {
  const s = String(id);
  return found.has(s) || (!/^\d+$/.test(s) && JSON.stringify(body ?? null).includes(s));
}
