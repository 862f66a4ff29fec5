/**
 * Where CI looks: a run's job summary (Markdown: the verdict, the diff against an earlier run when
 * one is given, the failed rules with their reasons, the baseline's stale and expired entries),
 * kept within a size limit (GitHub's job summary takes at most 1 MiB per step, a PR comment
 * 65,536 characters), and GitHub's error annotations: at most 10, the MUST regressions first,
 * then the other failed MUST rules, and one "N more" when they do not all fit.
 *
 * Pure: `crm-conformance summary` (cli/compare.ts) reads the runs and writes what these return.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { mdCell, renderDiffMarkdown, type RunDiff } from './diff.js';
import { oneLine, versionOf, type RuleView, type RunView } from './runs.js';

/** GitHub's limit of one step's job summary. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;
/** GitHub's limit of a comment's body (characters; the budget counts bytes, which is stricter). */
export const COMMENT_LIMIT = 65_536;
/** GitHub shows at most 10 error annotations of a step. */
export const MAX_ANNOTATIONS = 10;
/** The first line of a PR comment of the suite: the comment is found by it and updated, not added again. */
export const COMMENT_MARK = '<!-- crm-conformance summary -->';

const LEVELS = ['MUST', 'SHOULD', 'MAY'];
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function failedRules(run: RunView, level: (l: string) => boolean): RuleView[] {
  return [...run.rules.values()].filter((r) => (r.state === 'fail' || r.state === 'warn') && level(r.level));
}

function countsLine(run: RunView): string {
  const rules = [...run.rules.values()];
  return LEVELS.map((l) => {
    const of = rules.filter((r) => r.level === l);
    const n = (s: string) => of.filter((r) => r.state === s).length;
    return `${l} ${n('pass')} pass / ${n('fail') + (l === 'MUST' ? n('warn') : 0)} fail${l === 'MUST' ? '' : ` / ${n('warn')} warn`} / ${n('unjudged')} not judged`;
  }).join(' · ');
}

/**
 * The job summary of `run`, with `diff` (against a base run) when given; `baseNote`: why there is
 * no diff (the base run was not found). Within `maxBytes`: the diff takes at most half, the failed
 * rules what is left, and what does not fit is counted and pointed to.
 */
export function renderSummary(run: RunView, o: { diff?: RunDiff; baseNote?: string; maxBytes?: number; comment?: boolean } = {}): string {
  const max = o.maxBytes ?? STEP_SUMMARY_LIMIT;
  const icon = run.verdict === 'CONFORMANT' ? '✅' : run.verdict === 'INCONCLUSIVE' ? '⚠️' : '❌';
  const head = [
    ...(o.comment ? [COMMENT_MARK] : []),
    `## ${icon} crm-conformance: ${mdCell(run.verdictLine)}`,
    '',
    `${mdCell(run.target)} · suite ${mdCell(versionOf(run))}${run.depth ? ` · depth ${mdCell(run.depth)}` : ''}${run.runId ? ` · run \`${mdCell(run.runId)}\`` : ''}${run.generatedAt ? ` · ${mdCell(run.generatedAt)}` : ''}`,
    '',
    countsLine(run),
    '',
    ...(run.verdictReason ? [`> ${mdCell(run.verdictReason)}`, ''] : []),
    ...(run.partial ? [`> **Partial:** ${mdCell(run.partial)}`, ''] : []),
  ];
  const tail = [
    '',
    `<sub>The whole report: conformance.html of the run's artifact (opens offline). \`npx crm-conformance diff <before> <after>\` compares two runs.</sub>`,
  ];
  let size = Buffer.byteLength([...head, ...tail].join('\n'));
  const parts: string[] = [...head];
  if (o.diff) {
    const text = renderDiffMarkdown(o.diff, { maxBytes: Math.max(2000, Math.floor((max - size) / 2)), heading: '###', whole: 'the diff command' });
    parts.push(text, '');
    size += Buffer.byteLength(text) + 2;
  } else if (o.baseNote) {
    parts.push(`> ${mdCell(o.baseNote)}`, '');
    size += Buffer.byteLength(o.baseNote) + 6;
  }
  const blocks: { title: string; rules: RuleView[]; open: boolean }[] = [
    { title: 'Failed MUST rules', rules: failedRules(run, (l) => l === 'MUST'), open: true },
    { title: 'Warnings (SHOULD and MAY rules)', rules: failedRules(run, (l) => l !== 'MUST'), open: false },
  ];
  let left = 0;
  for (const b of blocks) {
    if (!b.rules.length) continue;
    const top = [
      b.open ? `### ${b.title} (${b.rules.length})` : `<details><summary><b>${b.title} (${b.rules.length})</b></summary>`,
      '',
      '| Rule | Level | What the spec says | Reason |',
      '|---|---|---|---|',
    ];
    const bottom = b.open ? [''] : ['', '</details>', ''];
    const fixed = Buffer.byteLength([...top, ...bottom].join('\n')) + 2;
    if (size + fixed > max - 600) {
      left += b.rules.length;
      continue;
    }
    size += fixed;
    const rows: string[] = [];
    for (const r of b.rules) {
      const row = `| **${r.id}** ${mdCell(r.text)}${r.known ? ' *(known failure)*' : ''} | ${r.level} ${r.verdict} | ${r.quote ? `*${mdCell(oneLine(r.quote, 200))}*` : ''} | ${mdCell(r.reason ?? '')} |`;
      const n = Buffer.byteLength(row) + 1;
      if (size + n > max - 600) {
        left++;
        continue;
      }
      size += n;
      rows.push(row);
    }
    parts.push(...top, ...rows, ...bottom);
  }
  if (run.stale.length || run.expired.length) {
    const lines = [
      '### Baseline (CRM_EXPECTATIONS)',
      '',
      ...(run.stale.length ? [`- **Stale** (the failure no longer happens: remove the entry): ${run.stale.map(mdCell).join('; ')}`] : []),
      ...(run.expired.length ? [`- **Expired** (counted as no entry): ${run.expired.map(mdCell).join('; ')}`] : []),
      '',
    ];
    const n = Buffer.byteLength(lines.join('\n'));
    if (size + n < max - 600) {
      parts.push(...lines);
      size += n;
    }
  }
  if (left)
    parts.push(`*${plural(left, 'rule')} left out to keep within ${Math.floor(max / 1024)} KiB: every rule is in conformance.html and conformance.json.*`);
  return [...parts, ...tail].join('\n');
}

/** One GitHub workflow command's text, escaped (`%`, CR and LF; in a property also `:` and `,`). */
const escData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escProp = (s: string) => escData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export interface Annotation {
  title: string;
  message: string;
  file?: string;
  line?: number;
}

/**
 * The error annotations of a run: MUST regressions against the base (when a diff is given) first,
 * then the run's other failed MUST rules the baseline does not list; a run that failed none but is
 * not CONFORMANT gets one for its verdict. At most `max`; when more failed, the last is "N more".
 * `cwd`: a test's file is named only where it exists (in the suite's own repository; from the
 * installed package the spec files are not the workspace's).
 */
export function annotationsFor(run: RunView, diff?: RunDiff, o: { max?: number; cwd?: string } = {}): Annotation[] {
  const max = o.max ?? MAX_ANNOTATIONS;
  const cwd = o.cwd ?? process.cwd();
  const located = (where?: { file: string; line: number }) =>
    where && existsSync(resolve(cwd, where.file)) ? { file: where.file.split('\\').join('/'), line: where.line } : {};
  const all: Annotation[] = [];
  const regressed = new Set<string>();
  for (const c of diff?.regressed.filter((x) => x.blocking) ?? []) {
    regressed.add(c.id);
    all.push({
      title: `MUST ${c.id} regressed (${c.before} → ${c.after})`,
      message: `${c.id}: ${c.text}${c.reason ? ` — ${c.reason}` : ''}`,
      ...located(c.where),
    });
  }
  for (const r of failedRules(run, (l) => l === 'MUST'))
    if (!regressed.has(r.id) && !r.known)
      all.push({ title: `MUST ${r.id} fails`, message: `${r.id}: ${r.text}${r.reason ? ` — ${r.reason}` : ''}`, ...located(r.where) });
  if (!all.length && run.verdict !== 'CONFORMANT')
    all.push({ title: `crm-conformance: ${run.verdict}`, message: `${run.verdictLine}${run.verdictReason ? `: ${run.verdictReason}` : ''}` });
  if (all.length <= max) return all;
  const shown = all.slice(0, max - 1);
  return [
    ...shown,
    {
      title: `${all.length - shown.length} more`,
      message: `${all.length - shown.length} more failed MUST rules (${all
        .slice(max - 1)
        .map((a) => a.title.split(' ')[1])
        .join(', ')}): the job summary and conformance.html list every one`,
    },
  ];
}

/** The workflow commands (`::error …::…`, or `::warning`) that make the annotations. */
export function annotationCommands(list: Annotation[], kind: 'error' | 'warning' = 'error'): string[] {
  return list.map((a) => {
    const props = [...(a.file ? [`file=${escProp(a.file)}`, `line=${a.line ?? 1}`] : []), `title=${escProp(a.title)}`].join(',');
    return `::${kind} ${props}::${escData(a.message)}`;
  });
}
