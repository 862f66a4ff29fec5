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

/* ---------------- text a store or a parser mangles (faults of values outside ASCII) ---------------- */

/** UTF-8 bytes read one by one as Latin-1 ("Zoë" → "ZoÃ«"): a body or a parameter decoded with the wrong charset. ASCII is unchanged. */
export const mojibake = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

/** A 3-byte UTF-8 column (MySQL's utf8mb3): characters beyond the BMP ("𠮷", emoji) become "?". */
export const utf8mb3 = (s: string): string => s.replace(/[\u{10000}-\u{10FFFF}]/gu, '?');

/** A Latin-1 column: characters beyond U+00FF ("Ł", "山") become "?". */
export const latin1Column = (s: string): string => s.replace(/[^\u0000-\u00ff]/gu, '?');

/** `f` applied to every string of a value (objects and lists, deeply). */
export function mapStrings(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)]));
  return v;
}
