/**
 * Faults of the reference that fail a rule they do not name, each with why: the rule's own check
 * genuinely breaks too (not a step it rests on, which blame gives to the step's rule). Held by
 * selftest/fault-spread.unit.test.ts and selftest/fault-spread.test.ts. Empty: every fault fails
 * only the rules it names.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const KNOWN_SPREADS: Record<string, string> = Object.fromEntries(
  (JSON.parse(readFileSync(join(__dirname, 'known-spreads.json'), 'utf8')) as { fault: string; reason: string }[]).map((k) => [k.fault, k.reason]),
);
