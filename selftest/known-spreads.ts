/**
 * Faults of the reference that fail a rule they do not name, each with why: the rule's own check
 * genuinely breaks too (not a step it rests on, which blame gives to the step's rule). Held by
 * selftest/fault-spread.unit.test.ts (which also fails on an entry whose rules the recorded spread
 * no longer shows) and selftest/fault-spread.test.ts. Each entry lists the exact rules it excuses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fault's wider spread: the rules outside its names whose own checks break too, and why. */
export interface KnownSpread {
  fault: string;
  rules: string[];
  reason: string;
}

export const KNOWN_SPREADS: Record<string, KnownSpread> = Object.fromEntries(
  (JSON.parse(readFileSync(join(__dirname, 'known-spreads.json'), 'utf8')) as KnownSpread[]).map((k) => [k.fault, k]),
);
