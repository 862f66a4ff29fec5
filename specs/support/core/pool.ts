/**
 * Bounded concurrency: `inPool(items, n, fn)` runs `fn` over `items`, at most `n` at once (a few
 * connections or processes, not one per item), and answers the results in the order of `items`.
 * For work whose order does not matter: records created together, seeds of the heavy spec,
 * faults calibrated side by side.
 */
export async function inPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
