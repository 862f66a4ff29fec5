/** Small reshapes of presented records, shared by the post-processors of the record faults. */

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Serializer bug: null members of a presented record are dropped (a 2xx answer only). */
export function dropNulls(body: unknown): unknown {
  if (!isRecord(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
}

/**
 * Serializer bug: empty list members become null. `members` names them; without it every
 * empty list member of the record does.
 */
export function emptyListsTo(body: unknown, members?: string[]): unknown {
  if (!isRecord(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const [k, v] of Object.entries(out)) if (Array.isArray(v) && v.length === 0 && (!members || members.includes(k))) out[k] = null;
  return out;
}

/** Applies `f` to the record, or to each record of a list. */
export function eachRecord(body: unknown, f: (rec: unknown) => unknown): unknown {
  return Array.isArray(body) ? body.map(f) : f(body);
}

/** A post-processor that reshapes the body of a successful (2xx) answer only. */
export const onSuccess =
  (f: (body: unknown) => unknown) =>
  <R extends { status: number; body?: unknown }>(res: R): R =>
    res.status >= 200 && res.status < 300 ? { ...res, body: f(res.body) } : res;
