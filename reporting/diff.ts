/**
 * What changed between two runs, rule by rule (`crm-conformance diff <before> <after>`): each rule
 * of both runs is regressed, fixed, newly failing, lost from view, still failing, newly judged
 * passing or unchanged; a rule of one run only is new or removed (runs of different versions of
 * the suite are compared on their common rules, and the diff says so). A MUST rule that passed
 * (or warned) before and fails now, and that the after run's baseline does not list, is a
 * regression that fails the diff (exit 1).
 *
 * Pure: `diffRuns` takes two runs read by reporting/runs.ts; the renderers make the console
 * text, Markdown (with a size budget, for a job summary or a PR comment) and JSON.
 */
import { relative } from 'node:path';
import { oneLine, versionOf, type RuleState, type RuleView, type RunView } from './runs.js';

export type ChangeKind = 'regressed' | 'fixed' | 'newlyFailing' | 'lostVisibility' | 'stillFailing' | 'newlyPassing' | 'added' | 'removed';

export interface RuleChange {
  id: string;
  level: string;
  /** The level in the before run, when it differs (a new version of the suite may raise a rule). */
  levelBefore?: string;
  area: string;
  text: string;
  quote?: string;
  /** The verdicts as each report wrote them; absent for a rule the run does not have. */
  before?: string;
  after?: string;
  /** The after run's baseline (CRM_EXPECTATIONS) lists the failure. */
  known?: boolean;
  /** Why, on one line: what fails now, what failed before (fixed), or why the rule was not judged now. */
  reason?: string;
  /** A MUST regression that no baseline entry covers: it fails the diff. */
  blocking?: boolean;
  where?: { file: string; line: number };
}

/** A run as the diff names it (its file relative to the working directory). */
export type RunHead = Pick<RunView, 'label' | 'file' | 'target' | 'suiteVersion' | 'verdict' | 'verdictLine' | 'generatedAt' | 'runId' | 'depth'>;

export interface RunDiff {
  format: 'crm-conformance-diff';
  version: 1;
  before: RunHead;
  after: RunHead;
  /** Rules of both runs: what the categories but `added` and `removed` are taken from. */
  commonRules: number;
  /** What the reader must know to read the diff: versions, targets or depths that differ, a partial run. */
  notes: string[];
  regressed: RuleChange[];
  fixed: RuleChange[];
  newlyFailing: RuleChange[];
  lostVisibility: RuleChange[];
  stillFailing: RuleChange[];
  newlyPassing: RuleChange[];
  added: RuleChange[];
  removed: RuleChange[];
  unchanged: number;
  /** Of the unchanged rules, those neither run judged (a subset run leaves most rules so). */
  judgedInNeither: number;
  /** MUST regressions not covered by the after run's baseline. */
  mustRegressions: number;
  /** 1 when a MUST rule regressed (not covered by the baseline), else 0. */
  exitCode: 0 | 1;
}

/** The order of the sections, and what each means. */
export const SECTIONS: { kind: ChangeKind; title: string; means: string }[] = [
  { kind: 'regressed', title: 'Regressed', means: 'passed before, fail now (or warned before and fail now)' },
  { kind: 'newlyFailing', title: 'Newly failing', means: 'not judged before (skipped, untested), fail now' },
  { kind: 'lostVisibility', title: 'Lost visibility', means: 'judged before, not judged now (skipped, untested, blocked): nothing is known of them now' },
  { kind: 'fixed', title: 'Fixed', means: 'failed or warned before, pass now' },
  { kind: 'stillFailing', title: 'Still failing', means: 'fail or warn in both runs' },
  { kind: 'newlyPassing', title: 'Newly judged, passing', means: 'not judged before, pass now' },
  { kind: 'added', title: 'New rules', means: 'only in the after run (another version of the suite)' },
  { kind: 'removed', title: 'Removed rules', means: 'only in the before run (another version of the suite)' },
];

const RANK: Record<RuleState, number> = { pass: 0, warn: 1, fail: 2, unjudged: -1 };
const LEVEL_ORDER = ['MUST', 'SHOULD', 'MAY'];
const levelRank = (l: string) => (LEVEL_ORDER.includes(l) ? LEVEL_ORDER.indexOf(l) : LEVEL_ORDER.length);

/** The change of one rule of both runs, or undefined when nothing changed that a reader needs. */
function classify(b: RuleView, a: RuleView): ChangeKind | undefined {
  const judgedBefore = b.state !== 'unjudged';
  const judgedAfter = a.state !== 'unjudged';
  if (!judgedBefore && !judgedAfter) return undefined;
  if (judgedBefore && !judgedAfter) return 'lostVisibility';
  if (!judgedBefore) return a.state === 'pass' ? 'newlyPassing' : 'newlyFailing';
  if (RANK[a.state] > RANK[b.state]) return 'regressed';
  if (a.state === 'pass') return b.state === 'pass' ? undefined : 'fixed';
  return 'stillFailing';
}

function change(kind: ChangeKind, b: RuleView | undefined, a: RuleView | undefined): RuleChange {
  const r = (a ?? b)!;
  const reasonFrom = kind === 'fixed' || kind === 'removed' ? b : a;
  const blocking = kind === 'regressed' && a!.level === 'MUST' && !a!.known;
  return {
    id: r.id,
    level: r.level,
    ...(a && b && a.level !== b.level ? { levelBefore: b.level } : {}),
    area: r.area,
    text: r.text,
    ...(r.quote ? { quote: r.quote } : {}),
    ...(b ? { before: b.verdict } : {}),
    ...(a ? { after: a.verdict } : {}),
    ...(a?.known ? { known: true } : {}),
    ...(reasonFrom?.reason && reasonFrom.state !== 'pass' ? { reason: reasonFrom.reason } : {}),
    ...(blocking ? { blocking: true } : {}),
    ...(reasonFrom?.where && kind !== 'lostVisibility' ? { where: reasonFrom.where } : {}),
  };
}

const embeddedTarget = (t: string) => (t.startsWith('embedded reference server') ? 'embedded reference server' : t);

function head(run: RunView, cwd: string): RunHead {
  return {
    label: run.label,
    file: relative(cwd, run.file) || run.file,
    target: run.target,
    ...(run.suiteVersion ? { suiteVersion: run.suiteVersion } : {}),
    verdict: run.verdict,
    verdictLine: run.verdictLine,
    ...(run.generatedAt ? { generatedAt: run.generatedAt } : {}),
    ...(run.runId ? { runId: run.runId } : {}),
    ...(run.depth ? { depth: run.depth } : {}),
  };
}

export function diffRuns(before: RunView, after: RunView, cwd: string = process.cwd()): RunDiff {
  const lists: Record<ChangeKind, RuleChange[]> = {
    regressed: [],
    fixed: [],
    newlyFailing: [],
    lostVisibility: [],
    stillFailing: [],
    newlyPassing: [],
    added: [],
    removed: [],
  };
  let common = 0;
  let unchanged = 0;
  let judgedInNeither = 0;
  // The after run's rule order (the catalog's), then the before run's rules it no longer has.
  for (const a of after.rules.values()) {
    const b = before.rules.get(a.id);
    if (!b) {
      lists.added.push(change('added', undefined, a));
      continue;
    }
    common++;
    const kind = classify(b, a);
    if (kind) lists[kind].push(change(kind, b, a));
    else unchanged++;
    if (!kind && a.state === 'unjudged') judgedInNeither++;
  }
  for (const b of before.rules.values()) if (!after.rules.has(b.id)) lists.removed.push(change('removed', b, undefined));
  for (const list of Object.values(lists)) list.sort((x, y) => levelRank(x.level) - levelRank(y.level));

  const notes: string[] = [];
  const vb = versionOf(before);
  const va = versionOf(after);
  if (vb !== va || lists.added.length || lists.removed.length) {
    notes.push(
      `the runs come from ${vb === va ? 'catalogs that differ' : `different versions of the suite (${vb} → ${va})`}: compared on their ${common} common rules` +
        (lists.added.length || lists.removed.length
          ? `; ${lists.added.length} rule(s) only in the after run, ${lists.removed.length} only in the before run`
          : ''),
    );
  }
  if (embeddedTarget(before.target) !== embeddedTarget(after.target)) notes.push(`the runs tested different targets: ${before.target} → ${after.target}`);
  if ((before.depth ?? 'standard') !== (after.depth ?? 'standard'))
    notes.push(`the runs ran at different depths (${before.depth ?? 'standard'} → ${after.depth ?? 'standard'}): a quick run judges with fewer inputs`);
  for (const [which, run] of [
    ['before', before],
    ['after', after],
  ] as const)
    if (run.partial) notes.push(`the ${which} run is partial (${run.partial})`);
  const mustRegressions = lists.regressed.filter((c) => c.blocking).length;
  return {
    format: 'crm-conformance-diff',
    version: 1,
    before: head(before, cwd),
    after: head(after, cwd),
    commonRules: common,
    notes,
    ...lists,
    unchanged,
    judgedInNeither,
    mustRegressions,
    exitCode: mustRegressions ? 1 : 0,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The counts in one line: `1 regressed (1 MUST), 0 fixed, …`. */
export function diffCounts(d: RunDiff): string {
  const must = d.regressed.filter((c) => c.level === 'MUST').length;
  const parts = [
    `${d.regressed.length} regressed${d.regressed.length ? ` (${must} MUST)` : ''}`,
    `${d.fixed.length} fixed`,
    `${d.newlyFailing.length} newly failing`,
    `${d.lostVisibility.length} lost visibility`,
    `${d.stillFailing.length} still failing`,
  ];
  if (d.newlyPassing.length) parts.push(`${d.newlyPassing.length} newly judged passing`);
  if (d.added.length) parts.push(`${d.added.length} new`);
  if (d.removed.length) parts.push(`${d.removed.length} removed`);
  return `${parts.join(', ')}; ${d.unchanged} unchanged${d.judgedInNeither ? ` (${d.judgedInNeither} judged in neither run)` : ''}`;
}

/** At most 10 ids, then how many more. */
const idList = (cs: RuleChange[]) =>
  `${cs
    .slice(0, 10)
    .map((c) => c.id)
    .join(', ')}${cs.length > 10 ? ` and ${cs.length - 10} more` : ''}`;

/** The closing line: the exit status and why. */
export function diffVerdict(d: RunDiff): string {
  const blocking = d.regressed.filter((c) => c.blocking);
  const knownOnes = d.regressed.filter((c) => c.level === 'MUST' && c.known);
  if (blocking.length) return `Exit 1: ${plural(blocking.length, 'MUST rule')} regressed (${idList(blocking)}).`;
  return `Exit 0: no MUST rule regressed${knownOnes.length ? ` that the baseline does not list (${idList(knownOnes)} regressed as known failures)` : ''}.`;
}

const transition = (c: RuleChange) => `${c.before ?? '—'} → ${c.after ?? '—'}`;
const levelText = (c: RuleChange) => (c.levelBefore ? `${c.levelBefore}→${c.level}` : c.level);
const reasonLabel = (kind: ChangeKind) => (kind === 'fixed' || kind === 'removed' ? 'was' : kind === 'lostVisibility' ? 'why' : 'now');

function runLine(which: string, h: RunHead): string {
  return `  ${which.padEnd(7)}${h.label}  (suite ${h.suiteVersion ?? 'version unknown'}, ${h.target}${h.depth && h.depth !== 'standard' ? `, depth ${h.depth}` : ''}${h.generatedAt ? `, ${h.generatedAt}` : ''}): ${h.verdictLine}`;
}

/** The console text. */
export function renderDiffText(d: RunDiff): string {
  const out = ['crm-conformance diff', runLine('before', d.before), runLine('after', d.after)];
  for (const n of d.notes) out.push(`Note: ${n}.`);
  out.push(`Compared on ${d.commonRules} common rules: ${diffCounts(d)}.`);
  for (const s of SECTIONS) {
    const list = d[s.kind];
    if (!list.length) continue;
    out.push('', `${s.title.toUpperCase()} (${list.length}): ${s.means}`);
    if (s.kind === 'newlyPassing') {
      out.push(`  ${list.map((c) => c.id).join(', ')}`);
      continue;
    }
    for (const c of list) {
      out.push(`  ${levelText(c).padEnd(7)}${c.id.padEnd(13)}${transition(c).padEnd(18)}${c.text}${c.known ? ' [known failure: the baseline lists it]' : ''}`);
      if (c.quote) out.push(`${' '.repeat(9)}spec: "${oneLine(c.quote, 150)}"`);
      if (c.reason) out.push(`${' '.repeat(9)}${reasonLabel(s.kind)}:  ${c.reason}`);
    }
  }
  out.push('', diffVerdict(d));
  return out.join('\n');
}

/** A Markdown table cell: one line, pipes and angle brackets escaped. */
export const mdCell = (s: string) => oneLine(s, 400).replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function headTable(d: RunDiff): string[] {
  const row = (name: string, f: (h: RunHead) => string) => `| ${name} | ${mdCell(f(d.before))} | ${mdCell(f(d.after))} |`;
  return [
    '| | before | after |',
    '|---|---|---|',
    row('run', (h) => h.label),
    row('suite', (h) => h.suiteVersion ?? 'version unknown'),
    row('target', (h) => h.target),
    row('verdict', (h) => h.verdictLine),
    ...(d.before.depth || d.after.depth ? [row('depth', (h) => h.depth ?? 'standard')] : []),
    ...(d.before.generatedAt || d.after.generatedAt ? [row('finished', (h) => h.generatedAt ?? '')] : []),
  ];
}

/**
 * The diff as Markdown: a heading, the two runs, the notes, then one table per section. Within
 * `maxBytes` (UTF-8): rows that do not fit are left out, and the text says how many and where
 * the whole diff is.
 */
export function renderDiffMarkdown(d: RunDiff, o: { maxBytes?: number; heading?: string; whole?: string } = {}): string {
  const max = o.maxBytes ?? Infinity;
  const lines: string[] = [
    `${o.heading ?? '###'} Changes against ${mdCell(d.before.label)}: ${d.mustRegressions ? `❌ ${plural(d.mustRegressions, 'MUST regression')}` : '✅ no MUST regression'}`,
    '',
    `${d.commonRules} common rules: ${diffCounts(d)}.`,
    '',
    ...headTable(d),
    '',
    ...d.notes.map((n) => `> **Note:** ${mdCell(n)}.`),
    ...(d.notes.length ? [''] : []),
  ];
  const closing = ['', diffVerdict(d)];
  let size = Buffer.byteLength(lines.concat(closing).join('\n'));
  let left = 0;
  const fits = (text: string) => {
    const n = Buffer.byteLength(text) + 1;
    if (size + n > max - 400) return false;
    size += n;
    return true;
  };
  for (const s of SECTIONS) {
    const list = d[s.kind];
    if (!list.length) continue;
    const title = `${o.heading ?? '###'}# ${s.title} (${list.length}): ${s.means}`;
    if (!fits(title)) {
      left += list.length;
      continue;
    }
    lines.push(title, '');
    if (s.kind === 'newlyPassing') {
      const ids = list.map((c) => c.id).join(', ');
      if (fits(ids)) lines.push(ids, '');
      else left += list.length;
      continue;
    }
    const header = ['| Rule | Level | Verdict | What the spec says | Reason |', '|---|---|---|---|---|'];
    lines.push(...header);
    size += Buffer.byteLength(header.join('\n')) + 2;
    for (const c of list) {
      const rule = `**${c.id}** ${mdCell(c.text)}${c.known ? ' *(known failure)*' : ''}`;
      const row = `| ${rule} | ${levelText(c)} | ${transition(c)} | ${c.quote ? `*${mdCell(oneLine(c.quote, 200))}*` : ''} | ${c.reason ? mdCell(c.reason) : ''} |`;
      if (fits(row)) lines.push(row);
      else left++;
    }
    lines.push('');
  }
  if (left) lines.push(`*${plural(left, 'rule')} left out to keep within ${Math.round(max / 1024)} KiB${o.whole ? `: the whole diff is in ${o.whole}` : ''}.*`);
  return lines.concat(closing).join('\n');
}
