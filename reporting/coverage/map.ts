/**
 * `spec-coverage.json`, the map of the spec's surface a run exercised (its format:
 * {@link SpecCoverage}): per endpoint the requests sent, the statuses seen against those the spec
 * shows, each request member's value classes and each answer member's classes, with counts; the
 * state transitions, notification kinds and OAuth steps; the requests to paths the spec does not
 * show; and every gap (a class never exercised), explained by rules/coverage-reasons.json or not;
 * per endpoint (and per path shape outside the spec) the spec files whose tests sent it requests.
 * Built from counts alone ({@link buildCoverageMap}), so shards merge by summing them
 * ({@link mergeCoverageMaps}). It holds no value sent or received: member names, class names, enum
 * members and statuses only.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { SpecCoverageSummary } from '../verdict.js';
import { renderCoverageHtml } from './html.js';
import { coverageReasons, GAP_REASON_KINDS, type CoverageReason } from '../../rules/coverage-reasons.js';
import { quickStandardClasses } from '../../specs/support/core/quick.js';
import { addFile, emptyTallies, type CoverageTallies } from './collector.js';
import type { Node } from './nodes.js';
import { NOTIFICATION_KINDS, OAUTH_STEPS, surface as surfaceOnce, TRANSITIONS, type EndpointSurface, type Surface } from './surface.js';

export const SPEC_COVERAGE_FILE = 'spec-coverage.json';
export const SPEC_COVERAGE_HTML = 'spec-coverage.html';

const count = z.int().min(0);
const ClassEntry = z.strictObject({
  /** The class's stable id, the gap id of rules/coverage-reasons.json. */
  id: z.string(),
  class: z.string(),
  count,
  /** Set on a gap (count 0): whether rules/coverage-reasons.json explains it. */
  gap: z.enum(['explained', 'unexplained']).optional(),
});
const MemberEntry = z.strictObject({ member: z.string(), classes: z.array(ClassEntry) });
const GroupEntry = z.strictObject({ group: z.string(), label: z.string(), classes: z.array(ClassEntry) });
const Ratio = z.strictObject({ exercised: count, total: count });

export const SpecCoverage = z.strictObject({
  version: z.literal(1),
  generatedAt: z.string(),
  runId: z.string().optional(),
  target: z.string().optional(),
  shards: z.array(z.string()).optional(),
  summary: z.strictObject({
    endpoints: Ratio,
    classes: Ratio,
    bySection: z.record(z.string(), Ratio),
    gaps: z.strictObject({ total: count, explained: count, unexplained: count }),
    exchanges: count,
    outsideSpec: count,
    answersWithoutBody: count,
    notifications: count,
    oauthSteps: count,
  }),
  endpoints: z.array(
    z.strictObject({
      endpoint: z.string(),
      host: z.enum(['api', 'auth']),
      section: z.string(),
      requests: count,
      /** Every status seen, by status ("0": no usable answer). */
      statusesSeen: z.record(z.string(), count),
      /** The statuses the spec shows (`2xx`: the success contract). */
      statuses: z.array(ClassEntry),
      request: z.array(MemberEntry),
      response: z.array(MemberEntry),
      /** The spec files whose tests sent it requests, sorted (`GET /oauth/authorize`: took OAuth steps); [] in a map of an older run. */
      specFiles: z.array(z.string()).default([]),
    }),
  ),
  transitions: z.array(GroupEntry),
  notifications: z.array(ClassEntry),
  oauth: z.array(GroupEntry),
  outsideSpec: z.record(z.string(), count),
  /** Per path shape outside the spec, the spec files whose tests sent it requests, sorted. */
  outsideSpecFiles: z.record(z.string(), z.array(z.string())).default({}),
  gaps: z.array(
    z.strictObject({
      id: z.string(),
      section: z.enum(['request', 'response', 'status', 'transition', 'notification', 'oauth']),
      explained: z.boolean(),
      kind: z.enum(GAP_REASON_KINDS).optional(),
      reason: z.string().optional(),
    }),
  ),
  /** Ids named by rules/coverage-reasons.json that are no class of the surface (stale: remove them). */
  staleReasons: z.array(z.string()),
});
export type SpecCoverage = z.infer<typeof SpecCoverage>;

/** What a map is built from: counts per class id and the tallies; summed by a merge. */
export interface CoverageData {
  counts: Record<string, number>;
  tallies: CoverageTallies;
}

export interface MapMeta {
  runId?: string;
  target?: string;
  shards?: string[];
  /** The run's depth (CRM_DEPTH): at quick, a class a standard run exercises is explained by the depth. */
  depth?: string;
}

/** Why a quick run's gap is no blind spot: the standard runs the quick selection was made from exercised it. */
export const QUICK_GAP_REASON =
  'quick depth leaves out the tests that exercise it (specs/support/quick-selection.json); a standard run of the suite exercises it';

/** The reasons of a run at `depth`: at quick, also every class a standard run exercises ({@link QUICK_GAP_REASON}). */
function reasonsAt(depth: string | undefined, reasons: ReturnType<typeof coverageReasons>, standard: () => Set<string>): Map<string, CoverageReason> {
  if (depth !== 'quick') return reasons.byGap;
  const byGap = new Map(reasons.byGap);
  const record: CoverageReason = { gaps: [], kind: 'elsewhere', reason: QUICK_GAP_REASON, since: '0.3.0' };
  for (const id of standard()) if (!byGap.has(id)) byGap.set(id, record);
  return byGap;
}

type Entry = z.infer<typeof ClassEntry>;

function entryOf(s: Surface, i: number, counts: Record<string, number>, byGap: Map<string, CoverageReason>): Entry {
  const c = s.classes[i];
  const n = counts[c.id] ?? 0;
  return { id: c.id, class: c.token, count: n, ...(n ? {} : { gap: byGap.has(c.id) ? ('explained' as const) : ('unexplained' as const) }) };
}

/** The rows of a request tree, a member before its members (a list's items, a union's forms). */
function requestRows(n: Node | undefined, rows: Map<string, number[]> = new Map()): Map<string, number[]> {
  if (!n) return rows;
  const row = rows.get(n.path) ?? [];
  for (const i of Object.values(n.cls)) if (!row.includes(i)) row.push(i);
  rows.set(n.path, row);
  for (const m of n.members?.values() ?? []) requestRows(m, rows);
  for (const a of n.alts ?? []) requestRows(a, rows);
  if (n.item) requestRows(n.item, rows);
  if (n.value) requestRows(n.value, rows);
  return rows;
}

function endpointEntry(s: Surface, e: EndpointSurface, data: CoverageData, byGap: Map<string, CoverageReason>) {
  const entry = (i: number) => entryOf(s, i, data.counts, byGap);
  const params = e.params.filter((p) => Object.keys(p.cls).length).map((p) => [p.path, Object.values(p.cls)] as const);
  const request = [...params, ...requestRows(e.request)].map(([member, idx]) => ({
    member,
    classes: idx.map(entry),
  }));
  const response = e.answers.flatMap((a) =>
    a.contracts.flatMap((c) =>
      [...c.members.values()].map((m) => {
        const idx = Object.values(m.cls);
        return { member: s.classes[idx[0]].member, classes: idx.map(entry) };
      }),
    ),
  );
  return {
    endpoint: e.key,
    host: e.endpoint.host,
    section: e.endpoint.section,
    requests: data.tallies.requests[e.key] ?? 0,
    statusesSeen: data.tallies.statuses[e.key] ?? {},
    statuses: e.answers.map((a) => entry(a.classIndex)),
    request,
    response,
    specFiles: [...(data.tallies.specFiles[e.key] ?? [])].sort(),
  };
}

function groups(s: Surface, defs: Record<string, { label: string; outcomes: string[] }>, data: CoverageData, byGap: Map<string, CoverageReason>) {
  return Object.entries(defs).map(([group, d]) => ({
    group,
    label: d.label,
    classes: d.outcomes.map((o) => entryOf(s, s.named.get(`${group} ${o}`)!, data.counts, byGap)),
  }));
}

/** The map of a run from its counts (a run's collector, or the sum of shards' maps). */
export function buildCoverageMap(
  data: CoverageData,
  meta: MapMeta = {},
  s: Surface = surfaceOnce(),
  reasons = coverageReasons(),
  standard: () => Set<string> = quickStandardClasses,
): SpecCoverage {
  const byGap = reasonsAt(meta.depth, reasons, standard);
  const endpoints = s.endpoints.map((e) => endpointEntry(s, e, data, byGap));
  const gaps = s.classes
    .filter((c) => !data.counts[c.id])
    .map((c) => {
      const r = byGap.get(c.id);
      return { id: c.id, section: c.section, explained: !!r, ...(r ? { kind: r.kind, reason: r.reason } : {}) };
    });
  const bySection: Record<string, { exercised: number; total: number }> = {};
  for (const c of s.classes) {
    const r = (bySection[c.section] ??= { exercised: 0, total: 0 });
    r.total++;
    if (data.counts[c.id]) r.exercised++;
  }
  const explained = gaps.filter((g) => g.explained).length;
  // The authorization request goes through a browser: the OAuth steps say whether it was made.
  const exercised = (e: (typeof endpoints)[number]) => e.requests > 0 || (e.endpoint === 'GET /oauth/authorize' && data.tallies.oauthSteps > 0);
  return {
    version: 1,
    generatedAt: new Date().toISOString(),
    ...(meta.runId ? { runId: meta.runId } : {}),
    ...(meta.target ? { target: meta.target } : {}),
    ...(meta.shards?.length ? { shards: meta.shards } : {}),
    summary: {
      endpoints: { exercised: endpoints.filter(exercised).length, total: endpoints.length },
      classes: { exercised: s.classes.length - gaps.length, total: s.classes.length },
      bySection,
      gaps: { total: gaps.length, explained, unexplained: gaps.length - explained },
      exchanges: data.tallies.exchanges,
      outsideSpec: Object.values(data.tallies.outsideSpec).reduce((a, b) => a + b, 0),
      answersWithoutBody: data.tallies.answersWithoutBody,
      notifications: data.tallies.notifications,
      oauthSteps: data.tallies.oauthSteps,
    },
    endpoints,
    transitions: groups(s, TRANSITIONS, data, byGap),
    notifications: NOTIFICATION_KINDS.map((k) => entryOf(s, s.named.get(`notification ${k}`)!, data.counts, byGap)),
    oauth: groups(s, OAUTH_STEPS, data, byGap),
    outsideSpec: data.tallies.outsideSpec,
    outsideSpecFiles: sortedLists(data.tallies.outsideSpecFiles),
    gaps,
    staleReasons: [...byGap.keys()].filter((id) => !s.byId.has(id)),
  };
}

/** Lists of files by key, each sorted, the keys in order. */
const sortedLists = (lists: Record<string, string[]>): Record<string, string[]> =>
  Object.fromEntries(
    Object.keys(lists)
      .sort()
      .map((k) => [k, [...lists[k]].sort()]),
  );

/** Every class entry of a map. */
function entriesOf(m: SpecCoverage): Entry[] {
  return [
    ...m.endpoints.flatMap((e) => [...e.statuses, ...e.request.flatMap((r) => r.classes), ...e.response.flatMap((r) => r.classes)]),
    ...m.transitions.flatMap((g) => g.classes),
    ...m.notifications,
    ...m.oauth.flatMap((g) => g.classes),
  ];
}

const add = (to: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) to[k] = (to[k] ?? 0) + v;
};

/** The counts a map was built from (a class the surface no longer has is dropped by the rebuild). */
export function dataOf(m: SpecCoverage): CoverageData {
  const counts: Record<string, number> = {};
  for (const e of entriesOf(m)) if (e.count) counts[e.id] = (counts[e.id] ?? 0) + e.count;
  const t = m.summary;
  return {
    counts,
    tallies: {
      requests: Object.fromEntries(m.endpoints.map((e) => [e.endpoint, e.requests])),
      statuses: Object.fromEntries(m.endpoints.map((e) => [e.endpoint, { ...e.statusesSeen }])),
      outsideSpec: { ...m.outsideSpec },
      exchanges: t.exchanges,
      answersWithoutBody: t.answersWithoutBody,
      notifications: t.notifications,
      oauthSteps: t.oauthSteps,
      specFiles: Object.fromEntries(m.endpoints.filter((e) => e.specFiles.length).map((e) => [e.endpoint, [...e.specFiles]])),
      outsideSpecFiles: Object.fromEntries(Object.entries(m.outsideSpecFiles).map(([k, v]) => [k, [...v]])),
    },
  };
}

/** The map of several shards: their counts summed, the map built again. */
export function mergeCoverageMaps(maps: SpecCoverage[], meta: MapMeta = {}): SpecCoverage {
  const sum: CoverageData = { counts: {}, tallies: emptyTallies() };
  for (const m of maps) {
    const d = dataOf(m);
    add(sum.counts, d.counts);
    add(sum.tallies.requests, d.tallies.requests);
    add(sum.tallies.outsideSpec, d.tallies.outsideSpec);
    for (const [k, v] of Object.entries(d.tallies.statuses)) add((sum.tallies.statuses[k] ??= {}), v);
    for (const k of ['exchanges', 'answersWithoutBody', 'notifications', 'oauthSteps'] as const) sum.tallies[k] += d.tallies[k];
    for (const k of ['specFiles', 'outsideSpecFiles'] as const)
      for (const [key, files] of Object.entries(d.tallies[k])) for (const f of files) addFile(sum.tallies[k], key, f);
  }
  return buildCoverageMap(sum, meta);
}

/** What conformance.json says of the map (reporting/verdict.ts, `specCoverage`). */
export function coverageSummary(m: SpecCoverage): SpecCoverageSummary {
  const { endpoints, classes, gaps } = m.summary;
  return { file: SPEC_COVERAGE_HTML, endpoints, classes, gaps };
}

/** The console's line, e.g. `Spec coverage: 22/22 endpoints, 754/1292 classes (538 gaps, 496 explained, 42 unexplained): reports/spec-coverage.html`. */
export function coverageLine(s: Omit<SpecCoverageSummary, 'file'>, htmlPath: string): string {
  return `Spec coverage: ${s.endpoints.exercised}/${s.endpoints.total} endpoints, ${s.classes.exercised}/${s.classes.total} classes (${s.gaps.total} gaps, ${s.gaps.explained} explained, ${s.gaps.unexplained} unexplained): ${htmlPath}`;
}

/** Writes spec-coverage.json and spec-coverage.html into a report directory. */
export function writeCoverageMap(dir: string, m: SpecCoverage): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(resolve(dir, SPEC_COVERAGE_FILE), JSON.stringify(m, null, 2));
  writeFileSync(resolve(dir, SPEC_COVERAGE_HTML), renderCoverageHtml(m));
}

/** A report directory's map, validated; undefined when it has none (a run of an older suite). */
export function readCoverageMap(dir: string): SpecCoverage | undefined {
  const file = resolve(dir, SPEC_COVERAGE_FILE);
  if (!existsSync(file)) return undefined;
  return SpecCoverage.parse(JSON.parse(readFileSync(file, 'utf8')));
}
