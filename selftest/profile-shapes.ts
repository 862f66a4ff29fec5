/**
 * The profile shapes of the self-tests (selftest/profile-shapes.json): each row a target profile
 * built from the reference's own (reference/profile.json) with some capabilities off, the optional
 * fixtures left out, and others' activity on the account (REFERENCE_LIVE). The rows cover every
 * pair of levels of any two factors (selftest/profile-shapes.unit.test.ts), and each runs the whole
 * suite against the reference and a sample of faults (selftest/profile-shapes.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { readJson } from './helpers.js';

/** The levels of each factor; every capability of the profile schema is one (selftest/profile-shapes.unit.test.ts). */
export const FACTORS = {
  create_task: [true, false],
  follow: [true, false],
  create_activity: [true, false],
  list_files: [true, false],
  heavy: [true, false],
  bulk_rate_limit: [true, false],
  /** As documented (10), or the reference's `bulk.entries-limit` choice, raised or lowered, declared in the profile. */
  bulk_entries_limit: ['10', 'raised', 'lowered'],
  webhook_delivery: [true, false],
  /** Every fixture of the reference's profile, or only its users and the OAuth redirect URIs. */
  fixtures: ['all', 'minimal'],
  /** Operations a second by others on the account (REFERENCE_LIVE); 0: none. */
  live: [0, 20, 200],
} as const;

/** The extensions of the profile schema, and what the reference offers for each (the suite uses create_task and follow only). */
export const EXTENSIONS = {
  create_task: 'POST /tasks',
  follow: 'POST /{entity_type}/{entity_id}/follow',
  create_activity: 'POST /activities',
  list_files: 'GET /{entity_type}/{entity_id}/files',
} as const;

export type Shape = { -readonly [K in keyof typeof FACTORS]: (typeof FACTORS)[K][number] };

/** The rows of selftest/profile-shapes.json, each checked: every factor, each at one of its levels. */
export function readShapes(): Shape[] {
  const rows = readJson<{ shapes: Record<string, unknown>[] }>('selftest/profile-shapes.json').shapes;
  for (const [i, row] of rows.entries()) {
    assert.deepEqual(Object.keys(row).sort(), Object.keys(FACTORS).sort(), `selftest/profile-shapes.json row ${i}: its factors`);
    for (const [k, v] of Object.entries(row))
      assert.ok(
        (FACTORS[k as keyof typeof FACTORS] as readonly unknown[]).includes(v),
        `row ${i}: ${k} is one of ${JSON.stringify(FACTORS[k as keyof typeof FACTORS])}`,
      );
  }
  return rows as Shape[];
}

/** A short name of a shape: what it leaves out or adds, e.g. `no create_task, heavy, bulk raised, minimal fixtures, live 20`. */
export function shapeName(s: Shape): string {
  const parts = [
    ...(['create_task', 'follow', 'create_activity', 'list_files'] as const).map((k) => (s[k] ? '' : `no ${k}`)),
    s.heavy ? 'heavy' : '',
    s.bulk_rate_limit ? '' : 'no bulk_rate_limit',
    s.bulk_entries_limit === '10' ? '' : `bulk ${s.bulk_entries_limit}`,
    s.webhook_delivery ? '' : 'no webhook_delivery',
    s.fixtures === 'all' ? '' : 'minimal fixtures',
    s.live ? `live ${s.live}` : '',
  ];
  return parts.filter(Boolean).join(', ') || 'everything';
}

type Profile = {
  fixtures: Record<string, unknown> & { users: unknown[] };
  capabilities: Record<string, unknown> & { extensions: Record<string, string> };
  oauth: Record<string, unknown> & { redirect_uris: string[] };
};

/** The profile of a shape: the reference's own, with what the shape leaves out left out. */
export function profileOf(s: Shape): Profile {
  const p = readJson<Profile>('reference/profile.json');
  const limits = { '10': 10, raised: 12, lowered: 8 } as const; // rules/choices.json bulk.entries-limit: what each alternative declares
  p.capabilities = {
    heavy: s.heavy,
    extensions: Object.fromEntries(Object.entries(EXTENSIONS).filter(([k]) => s[k as keyof typeof EXTENSIONS])),
    bulk_rate_limit: s.bulk_rate_limit,
    bulk_entries_limit: limits[s.bulk_entries_limit],
    webhook_delivery: s.webhook_delivery,
  };
  if (s.fixtures === 'minimal') {
    p.fixtures = { users: p.fixtures.users };
    p.oauth = { redirect_uris: p.oauth.redirect_uris };
  }
  return p;
}

/** The settings of a run of the suite against the embedded reference in a shape (its profile written into `dir`). */
export function envOf(s: Shape, dir: string, live: number = s.live): Record<string, string> {
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify(profileOf(s), null, 2));
  return {
    CRM_PROFILE: file,
    CRM_EMBEDDED: '1',
    ...(s.bulk_entries_limit === '10' ? {} : { REFERENCE_CHOICES: `bulk.entries-limit=${s.bulk_entries_limit}` }),
    ...(live ? { REFERENCE_LIVE: String(live) } : {}),
  };
}

/**
 * The faults each shape must still catch: some of every area, and those whose rule only a check of
 * some shapes sees there (the read-only task checks without create_task or follow; a notification
 * with delivery; the activities of the profile's company; a raised or lowered bulk limit).
 */
export function sampleOf(s: Shape): string[] {
  return [
    'upsert-duplicate-on-match',
    'search-pages-zero-based',
    'company-address-dropped',
    'project-create-drops-details',
    'timestamps-in-ms',
    'webhook-secret-not-echoed',
    'oauth-state-dropped',
    // The task searches: by the suite's own tasks with create_task, by the account's without (and SEARCH-9 without follow).
    'task-search-statuses-ignored',
    'search-followed-2-includes-followed',
    'search-max-bound-exclusive',
    'bulk-limit-off-by-one',
    ...(s.webhook_delivery ? ['webhook-secret-key-dropped'] : []),
    ...(s.fixtures === 'all' ? ['company-activities-filter-ignored', 'upsert-custom-field-match-ignored'] : []),
    ...(s.bulk_rate_limit ? ['bulk-rate-limit-stuck'] : []),
    // Not search-cap-10k, the heavy check's fault: it seeds 100,001 projects again, some 3 minutes of
    // a loaded machine; the heavy shapes' whole runs hold the check conformant, and the fault is caught with CRM_HEAVY=1.
  ];
}
