/**
 * Why a gap of the coverage map is no blind spot of the suite: `rules/coverage-reasons.json`, data
 * reviewed like the catalogs (format: {@link CoverageReasonRecord}, strict), shipped in the package
 * and exported as a JSON Schema (`rules/coverage-reasons.schema.json`, `npm run rules:schemas`).
 *
 * A gap is a class of the spec's surface (an endpoint's request member and value class, a status
 * the spec shows, a member of an answer, a state transition, a notification kind, an OAuth step or
 * error path) that a run never exercised; its id is the class's (reporting/coverage/surface.ts),
 * e.g. `POST /projects/search request sort_direction=desc`. A record names the gaps it explains and
 * why, of one kind:
 *
 * - `elsewhere`: a check exists, not in this run (another depth, a capability of the profile);
 * - `not-the-spec`: the spec fixes no outcome for it (a status "not shown", a value it leaves open);
 * - `not-observable`: no endpoint of the spec can bring it about or see it.
 *
 * A gap no record names is *unexplained*: a blind spot (a check to write) until a reason is given.
 * A record naming an id that is no class of the surface any more is stale (selftest/spec-coverage.unit.test.ts fails).
 */
import { z } from 'zod';
import data from './coverage-reasons.json';
import { CatalogError } from './schema.js';

export const GAP_REASON_KINDS = ['elsewhere', 'not-the-spec', 'not-observable'] as const;
export type GapReasonKind = (typeof GAP_REASON_KINDS)[number];

/** A gap id: a class id of the surface (no leading or trailing blank, one line). */
const gapId = z.string().regex(/^\S(.*\S)?$/, 'a gap id: a class id of the coverage map, e.g. "POST /projects/search request sort_direction=desc"');

export const CoverageReasonRecord = z.strictObject({
  /** The gaps it explains, by id; each id is named by one record only. */
  gaps: z.array(gapId).min(1),
  kind: z.enum(GAP_REASON_KINDS),
  /** Why: the spec's sentence that leaves it open, or where the check is. */
  reason: z.string().regex(/\S/, 'not blank').min(20),
  /** The release of this package in which the record first appeared (or last changed meaning). */
  since: z.string().regex(/^\d+\.\d+\.\d+$/, 'a release, e.g. "0.1.0"'),
});
export type CoverageReason = z.infer<typeof CoverageReasonRecord>;

/** The records of a reasons file, validated (each id named once), and their reasons by gap id. */
export function parseCoverageReasons(input: unknown, file = 'rules/coverage-reasons.json'): { records: CoverageReason[]; byGap: Map<string, CoverageReason> } {
  if (!Array.isArray(input)) throw new CatalogError(`${file}: not an array of records`);
  const byGap = new Map<string, CoverageReason>();
  const records = input.map((record: unknown, i) => {
    const parsed = CoverageReasonRecord.safeParse(record);
    if (!parsed.success) {
      throw new CatalogError(
        `${file} record ${i} is not a valid record: ${parsed.error.issues.map((e) => `${e.path.join('.') || '(record)'}: ${e.message}`).join('; ')}`,
      );
    }
    for (const id of parsed.data.gaps) {
      if (byGap.has(id)) throw new CatalogError(`${file} record ${i}: the gap ${id} is explained twice`);
      byGap.set(id, parsed.data);
    }
    return parsed.data;
  });
  return { records, byGap };
}

let loaded: ReturnType<typeof parseCoverageReasons> | undefined;
/** The suite's reasons (rules/coverage-reasons.json), validated on first use. */
export const coverageReasons = () => (loaded ??= parseCoverageReasons(data));
