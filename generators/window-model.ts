/**
 * The problems of one read over records others may create, change or delete meanwhile (the
 * account's own tasks: specs/search/readonly.ts), as items that another read can show again or
 * not: `wrong 12` (answered, does not satisfy the criteria), `missing 12` (satisfies them, not
 * answered), `twice 12`, `both 12` / `neither 12` (of a partition), `order 12 before 13`, `split
 * Open at 13` (a group of equal keys met again). A check asserts the items every round shows.
 * What the spec leaves open is not judged here either: tie order, the place of null keys, the
 * order between different keys of the fields with an open order (only their grouping is fixed).
 */
import { compareKeys, FIXED_ORDER, sortKey, type ModelRecord } from './search-model.js';

const idOf = (r: ModelRecord): string => String(r.id);

/** Ids answered more than once. */
function twice(got: ModelRecord[]): string[] {
  const seen = new Set<string>();
  const out = new Set<string>();
  for (const id of got.map(idOf)) (seen.has(id) ? out : seen).add(id);
  return [...out].map((id) => `twice ${id}`);
}

/** A search whose criteria `holds` tells by the record: every record of the window that satisfies it, once, and none other. */
export function selectionProblems<R extends ModelRecord>(tasks: R[], got: R[], holds: (t: R) => boolean): string[] {
  const ids = new Set(got.map(idOf));
  return [
    ...got.filter((t) => !holds(t)).map((t) => `wrong ${idOf(t)}`),
    ...tasks.filter((t) => holds(t) && !ids.has(idOf(t))).map((t) => `missing ${idOf(t)}`),
    ...twice(got),
  ];
}

/** Two searches that partition the window (followed 1 and 2): every record of the window in exactly one of them. */
export function partitionProblems(tasks: ModelRecord[], one: ModelRecord[], two: ModelRecord[]): string[] {
  const [a, b] = [new Set(one.map(idOf)), new Set(two.map(idOf))];
  return [
    ...[...a].filter((id) => b.has(id)).map((id) => `both ${id}`),
    ...tasks
      .map(idOf)
      .filter((id) => !a.has(id) && !b.has(id))
      .map((id) => `neither ${id}`),
    ...twice(one),
    ...twice(two),
  ];
}

/**
 * The pages of a sorted search read one after the other: every record of the window once, and the
 * keys in order (a fixed order: each adjacent pair; an order the spec leaves open between keys:
 * equal keys contiguous; `sortBy` undefined: the order is not judged). Null keys are left out
 * (their place is not specified).
 */
export function orderProblems(tasks: ModelRecord[], pages: ModelRecord[], sortBy: string | undefined, direction: 'asc' | 'desc'): string[] {
  const ids = new Set(pages.map(idOf));
  const sets = [
    ...tasks
      .map(idOf)
      .filter((id) => !ids.has(id))
      .map((id) => `missing ${id}`),
    ...twice(pages),
  ];
  if (sortBy === undefined) return sets;
  const keyed = pages.map((r) => ({ id: idOf(r), key: sortKey(sortBy, r) })).filter((k): k is { id: string; key: string | number } => k.key !== null);
  const sign = direction === 'asc' ? 1 : -1;
  const order = FIXED_ORDER.has(sortBy)
    ? keyed.slice(1).flatMap((k, i) => (sign * compareKeys(keyed[i].key, k.key) > 0 ? [`order ${keyed[i].id} before ${k.id}`] : []))
    : splitGroups(keyed);
  return [...sets, ...order];
}

/** For an open order between keys: a key met again after another one, named by the record that starts its second run. */
function splitGroups(keyed: { id: string; key: string | number }[]): string[] {
  const seen = new Set<string | number>();
  const out: string[] = [];
  keyed.forEach((k, i) => {
    if (i > 0 && keyed[i - 1].key === k.key) return;
    if (seen.has(k.key)) out.push(`split ${String(k.key)} at ${k.id}`);
    seen.add(k.key);
  });
  return out;
}
