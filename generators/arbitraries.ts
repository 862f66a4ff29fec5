/**
 * Small named fast-check arbitraries of the search generators. Choices among things that exist
 * only at run time (records, users, options) are generated as indices (`pick`) and resolved
 * against the run's values, so that a seed replays the same choices on a fresh namespace.
 */
import fc from 'fast-check';
import { REAL_NAMES, REAL_TEXTS } from './real-text.js';

/** The alphabet of generated name labels: lower-case ASCII only, so every collation agrees. */
export const LABEL_ALPHABET = 'abcdefghjkmnpqrstuvwxyz';

/**
 * A name as real users write it (generators/real-text.ts: outside ASCII, combining marks, beyond the
 * BMP, spaces), to follow a label: the label before it decides any order.
 */
export const realName = () => fc.constantFrom(...REAL_NAMES);

/** Free text as real users write it (details, notes): spaces, punctuation, letters outside ASCII, an emoji. */
export const freeText = () => fc.constantFrom(...REAL_TEXTS);

/** A name label of fixed length: labels of equal length never tie on a prefix. */
export const nameLabel = (length = 4) => fc.string({ unit: fc.constantFrom(...LABEL_ALPHABET), minLength: length, maxLength: length });

/** Distinct labels, so that names (and hence name order) are distinct. */
export const uniqueLabels = (count: number) => fc.uniqueArray(nameLabel(), { minLength: count, maxLength: count });

/** An index into a list known at run time (resolved with {@link resolve}). */
export const pick = () => fc.nat({ max: 1_000 });

/** A non-empty set of indices, resolved against a list known at run time. */
export const picks = (maxLength = 3) => fc.uniqueArray(pick(), { minLength: 1, maxLength });

export function resolve<T>(list: readonly T[], index: number): T {
  if (!list.length) throw new Error('resolve: empty list');
  return list[index % list.length];
}

export function resolveAll<T>(list: readonly T[], indices: number[]): T[] {
  return [...new Set(indices.map((i) => resolve(list, i)))];
}

/** An owner: an index into the profile's users, or none (no owner). */
export const owner = () => fc.option(pick(), { nil: null, freq: 4 });

/** A subset of the extra tags (indices 0..count-1). */
export const tagSubset = (count: number) => fc.subarray([...Array(count).keys()]);

/** A dropdown value: an option index or empty. */
export const dropdownChoice = () => fc.option(pick(), { nil: null, freq: 3 });

/** A multi-select value: option indices, possibly none. */
export const multiChoice = () => fc.uniqueArray(pick(), { maxLength: 2 });

/** A numeric custom field value: small integers so that bounds often hit a value exactly. */
export const scoreValue = () => fc.integer({ min: 0, max: 12 });

/** A timestamp bound relative to the timestamps seen: one of them, or one second off. */
export const timestampBound = () => fc.record({ at: pick(), delta: fc.constantFrom(-1, 0, 0, 1) });
export type TimestampBound = { at: number; delta: number };

export function resolveBound(distinct: readonly number[], b: TimestampBound): number {
  return resolve(distinct, b.at) + b.delta;
}

/** A pair of optional bounds (at least one). */
export const boundPair = () =>
  fc.oneof(
    fc.record({ min: timestampBound() }),
    fc.record({ max: timestampBound() }),
    fc.record({ min: timestampBound(), max: timestampBound() }),
  ) as fc.Arbitrary<{ min?: TimestampBound; max?: TimestampBound }>;

/** `followed`: 1 followed, 2 not followed. */
export const followedChoice = () => fc.constantFrom(1, 2);

export const direction = () => fc.constantFrom('asc' as const, 'desc' as const);

/** A page size every target serves: 20 is the default, so at most 20. */
export const pageSize = (min = 1) => fc.integer({ min, max: 20 });

/** The tag filter forms of the spec. */
export const tagForm = () => fc.constantFrom('list' as const, 'object' as const);
