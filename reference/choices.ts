/**
 * The open choices the reference server takes: one alternative of every choice of the catalog
 * (rules/choices.json), in one `Choices` object. Handlers read them with `app.choice(id)`, typed to
 * that choice's alternative names; no handler tests a "variant" flag.
 *
 * Choosing (REFERENCE_CHOICES, a comma-separated list applied left to right):
 *   (unset), `default`   alternative 0 of every choice (the reference default)
 *   `hardest`            the alternatives marked hardest in rules/choices.json, all at once
 *   `variant`            the named variant set (REFERENCE_VARIANT=1 is the same): alternative 1
 *                        of every choice, except VARIANT_KEEPS_DEFAULT (choices whose second
 *                        alternative the old variant mode did not take)
 *   `alt:<k>`            alternative k of every choice (k mod its count)
 *   `alt:<k>:<n>`        alternative k of every choice that has one; the others drawn with a PRNG
 *                        seeded with n (the runs alt:1:n … alt:<max-1>:n, with the default, take
 *                        every alternative of every choice: selftest/choices.test.ts)
 *   `<n>` (digits)       one alternative per choice drawn with a PRNG seeded with n
 *   `<id>=<name>`        that alternative of that choice (overrides what came before)
 * e.g. REFERENCE_CHOICES=alt:2,webhook.payload=ids-only. The server prints the set it took as
 * one replayable line (`describeChoices`): the `<id>=<name>` pairs that differ from the default.
 * A decided choice (rules/schema.ts, `decided`: the spec's words allow one alternative) takes that
 * alternative in every set, and `<id>=<name>` naming another of its alternatives is refused.
 *
 *   const choices = parseChoices(process.env.REFERENCE_CHOICES, process.env.REFERENCE_VARIANT === '1');
 *   app.choice('webhook.payload')   // 'record' | 'envelope' | 'ids-only'
 */
import { CHOICES, type AlternativeOf, type ChoiceId } from '../rules/choices/index.js';

export { CHOICES, type AlternativeOf, type ChoiceId };

/** One alternative of every choice. */
export type Choices = { readonly [I in ChoiceId]: AlternativeOf<I> };

/** Choices whose alternative 1 the old variant mode did not take: the variant set keeps their default. */
export const VARIANT_KEEPS_DEFAULT: ReadonlySet<string> = new Set<ChoiceId>([
  'upsert.created-lead',
  'convert.company-default',
  'bulk.close-date',
  'webhook.delivery',
]);

/**
 * One alternative of every choice, `pick`ed; a decided choice's is its decided alternative (picked
 * all the same, so that a seeded draw of the other choices stays what it was).
 */
const build = (pick: (alternatives: readonly { name: string }[], id: string) => string): Choices =>
  Object.fromEntries(
    CHOICES.map((c) => {
      const picked = pick(c.alternatives, c.id);
      return [c.id, c.decided ? c.decided.alternative : picked];
    }),
  ) as unknown as Choices;

/** Alternative 0 of every choice. */
export const defaultChoices = (): Choices => build((a) => a[0].name);

/**
 * The alternative marked `hardest` of every choice that has one (all at once: compressed, chunked,
 * closing, limited, envelopes, nested errors …), the default of the others.
 */
export const hardestChoices = (): Choices => build((a) => (a.find((x) => (x as { hardest?: boolean }).hardest) ?? a[0]).name);

/** Alternative k of every choice (k mod its count). */
export const alternativeChoices = (k: number): Choices => build((a) => a[k % a.length].name);

/** The named variant set (what REFERENCE_VARIANT=1 selects). */
export const variantChoices = (): Choices => build((a, id) => (VARIANT_KEEPS_DEFAULT.has(id) ? a[0] : a[1 % a.length]).name);

/** mulberry32: a small seeded PRNG (the same seed draws the same set as long as the catalog is unchanged). */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One alternative per choice, drawn with a PRNG seeded with `seed`. */
export const randomChoices = (seed: number): Choices => {
  const rnd = prng(seed);
  return build((a) => a[Math.floor(rnd() * a.length)].name);
};

/** Alternative k of every choice that has one; the others drawn with a PRNG seeded with `seed`. */
export const coveringChoices = (k: number, seed: number): Choices => {
  const rnd = prng(seed + k);
  return build((a) => {
    const r = Math.floor(rnd() * a.length);
    return a[k < a.length ? k : r].name;
  });
};

/** The largest number of alternatives of any open choice: `alt:0` … `alt:<max-1>` exercise them all. */
export const maxAlternatives = (): number => Math.max(...CHOICES.filter((c) => !c.decided).map((c) => c.alternatives.length));

export class ChoicesError extends Error {}

/** Parses REFERENCE_CHOICES (see the header); `variant` is REFERENCE_VARIANT=1. */
export function parseChoices(spec: string | undefined, variant = false): Choices {
  let out: Record<string, string> = { ...(variant ? variantChoices() : defaultChoices()) };
  for (const raw of (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = raw.indexOf('=');
    if (raw === 'default') out = { ...defaultChoices() };
    else if (raw === 'variant') out = { ...variantChoices() };
    else if (raw === 'hardest') out = { ...hardestChoices() };
    else if (/^alt:\d+$/.test(raw)) out = { ...alternativeChoices(Number(raw.slice(4))) };
    else if (/^alt:\d+:\d+$/.test(raw)) out = { ...coveringChoices(Number(raw.split(':')[1]), Number(raw.split(':')[2])) };
    else if (/^\d+$/.test(raw)) out = { ...randomChoices(Number(raw)) };
    else if (eq > 0) {
      const id = raw.slice(0, eq);
      const name = raw.slice(eq + 1);
      const choice = CHOICES.find((c) => c.id === id);
      if (!choice) throw new ChoicesError(`REFERENCE_CHOICES: unknown choice "${id}"; known: ${CHOICES.map((c) => c.id).join(', ')}`);
      if (!choice.alternatives.some((a) => a.name === name))
        throw new ChoicesError(
          `REFERENCE_CHOICES: choice "${id}" has no alternative "${name}"; alternatives: ${choice.alternatives.map((a) => a.name).join(', ')}`,
        );
      if (choice.decided && choice.decided.alternative !== name)
        throw new ChoicesError(
          `REFERENCE_CHOICES: choice "${id}" is no longer open (decided in ${choice.decided.since}): the spec allows "${choice.decided.alternative}" only (rules/choices.json)`,
        );
      out[id] = name;
    } else throw new ChoicesError(`REFERENCE_CHOICES: cannot read "${raw}" (default, variant, hardest, alt:<k>, alt:<k>:<seed>, <seed>, <id>=<alternative>)`);
  }
  return out as unknown as Choices;
}

/**
 * What a target taking the alternatives of `c` says in its target profile (the `declares` of each
 * alternative, merged): the embedded run's profile carries it (playwright.config.ts,
 * CRM_EMBEDDED_DECLARES), as a real target's would.
 */
export function declarations(c: Choices): { capabilities: Record<string, unknown> } {
  const capabilities: Record<string, unknown> = {};
  for (const choice of CHOICES) {
    const taken = choice.alternatives.find((a) => a.name === (c as Record<string, string>)[choice.id]) as
      { declares?: { capabilities?: Record<string, unknown> } } | undefined;
    Object.assign(capabilities, taken?.declares?.capabilities);
  }
  return { capabilities };
}

/** The `<id>=<name>` pairs that differ from the default: a REFERENCE_CHOICES value replaying `c`. */
export function describeChoices(c: Choices): string {
  const d = defaultChoices() as Record<string, string>;
  const pairs = Object.entries(c as Record<string, string>)
    .filter(([id, name]) => d[id] !== name)
    .map(([id, name]) => `${id}=${name}`);
  return pairs.length ? pairs.join(',') : 'default';
}
