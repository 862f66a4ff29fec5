/**
 * Runs side by side (`crm-conformance compare <run> <run> …`): implementations, or releases of
 * one, as columns and the rules, area by area, as rows, with the share of rules every run
 * passes. One self-contained HTML page (no external asset, opens offline) and the same as
 * Markdown. Each column names its run, target and suite version; runs of different versions of
 * the suite are compared on the rules they all have, and the page says so.
 */
import { AREAS } from '../rules/index.js';
import { esc } from './html.js';
import { mdCell } from './diff.js';
import { oneLine, versionOf, type RuleState, type RunView } from './runs.js';

export interface Column {
  label: string;
  target: string;
  suiteVersion: string;
  verdict: string;
  verdictLine: string;
  generatedAt?: string;
  /** Rules of this run by level and what they show. */
  passed: number;
  failed: number;
  warned: number;
  unjudged: number;
}

export interface Row {
  id: string;
  level: string;
  text: string;
  quote?: string;
  /** One per column: the verdict as that run's report wrote it, or undefined when the run has no such rule. */
  cells: ({ verdict: string; state: RuleState; known: boolean; reason?: string } | undefined)[];
  /** Every run has the rule and passes it. */
  allPass: boolean;
  /** Every run has the rule. */
  common: boolean;
  /** Every run has the rule and judged it (pass, warn or fail). */
  judgedByAll: boolean;
  /** The runs that have the rule do not all show the same (pass, warn, fail, not judged). */
  differ: boolean;
}

export interface Comparison {
  format: 'crm-conformance-compare';
  version: 1;
  columns: Column[];
  areas: { area: string; title: string; rows: Row[]; common: number; allPass: number; judgedByAll: number }[];
  /** Rules every run has; of those, the ones every run judged, and the ones every run passes. */
  common: number;
  judgedByAll: number;
  allPass: number;
  differ: number;
  notes: string[];
}

const percent = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)}%` : '—');

export function compareRuns(runs: RunView[]): Comparison {
  const columns: Column[] = runs.map((r) => {
    const rules = [...r.rules.values()];
    const count = (s: RuleState) => rules.filter((x) => x.state === s).length;
    return {
      label: r.label,
      target: r.target,
      suiteVersion: versionOf(r),
      verdict: r.verdict,
      verdictLine: r.verdictLine,
      ...(r.generatedAt ? { generatedAt: r.generatedAt } : {}),
      passed: count('pass'),
      failed: count('fail'),
      warned: count('warn'),
      unjudged: count('unjudged'),
    };
  });
  // Rule order: the first run's (the catalog's), then rules only later runs have.
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const r of runs) for (const id of r.rules.keys()) if (!seen.has(id)) (seen.add(id), ids.push(id));
  const byArea = new Map<string, Row[]>();
  for (const id of ids) {
    const views = runs.map((r) => r.rules.get(id));
    const any = views.find((v) => v)!;
    const present = views.filter((v) => v !== undefined);
    const row: Row = {
      id,
      level: any.level,
      text: any.text,
      ...(any.quote ? { quote: any.quote } : {}),
      cells: views.map((v) => (v ? { verdict: v.verdict, state: v.state, known: v.known, ...(v.reason ? { reason: v.reason } : {}) } : undefined)),
      common: present.length === runs.length,
      judgedByAll: present.length === runs.length && present.every((v) => v!.state !== 'unjudged'),
      allPass: present.length === runs.length && present.every((v) => v!.state === 'pass'),
      differ: new Set(present.map((v) => v!.state)).size > 1,
    };
    byArea.set(any.area, [...(byArea.get(any.area) ?? []), row]);
  }
  const known = Object.keys(AREAS);
  const areas = [...byArea.entries()]
    .sort(([a], [b]) => (known.includes(a) ? known.indexOf(a) : known.length) - (known.includes(b) ? known.indexOf(b) : known.length))
    .map(([area, rows]) => ({
      area,
      title: (AREAS as Record<string, string>)[area] ?? area,
      rows,
      common: rows.filter((r) => r.common).length,
      judgedByAll: rows.filter((r) => r.judgedByAll).length,
      allPass: rows.filter((r) => r.allPass).length,
    }));
  const all = areas.flatMap((a) => a.rows);
  const notes: string[] = [];
  const versions = [...new Set(columns.map((c) => c.suiteVersion))];
  const common = all.filter((r) => r.common).length;
  if (versions.length > 1 || common < all.length)
    notes.push(
      `${versions.length > 1 ? `the runs come from different versions of the suite (${versions.join(', ')})` : 'the runs have different rules'}: the share is taken over the ${common} rules every run has; ${all.length - common} rule(s) are missing from some run (—)`,
    );
  return {
    format: 'crm-conformance-compare',
    version: 1,
    columns,
    areas,
    common,
    judgedByAll: all.filter((r) => r.judgedByAll).length,
    allPass: all.filter((r) => r.allPass).length,
    differ: all.filter((r) => r.differ).length,
    notes,
  };
}

/** `Rules every run passes: 120 of 146 (82%; 140 judged by every run); the runs differ on 9.` */
export function shareLine(c: Comparison): string {
  return `Rules every run passes: ${c.allPass} of ${c.common} (${percent(c.allPass, c.common)}; ${c.judgedByAll} judged by every run); the runs differ on ${c.differ}.`;
}

/** The console text: the columns and the share. */
export function renderCompareText(c: Comparison): string {
  const lines = [`crm-conformance compare: ${c.columns.length} runs side by side`];
  for (const col of c.columns)
    lines.push(
      `  ${col.label}  (suite ${col.suiteVersion}, ${col.target}): ${col.verdictLine} — ${col.passed} pass, ${col.failed} fail, ${col.warned} warn, ${col.unjudged} not judged`,
    );
  for (const n of c.notes) lines.push(`Note: ${n}.`);
  lines.push(shareLine(c));
  // Areas no run judged whole (a subset run) would read 0%: left out of the console, on the page they are.
  for (const a of c.areas.filter((x) => x.judgedByAll))
    lines.push(`  ${a.title}: ${a.allPass} of ${a.common} pass everywhere (${a.judgedByAll} judged by every run)`);
  return lines.join('\n');
}

const mdVerdict = (cell: Row['cells'][number]) =>
  !cell ? '—' : cell.state === 'fail' ? `**${cell.verdict}**${cell.known ? ' (known)' : ''}` : `${cell.verdict}${cell.known ? ' (known)' : ''}`;

export function renderCompareMarkdown(c: Comparison): string {
  const cols = c.columns;
  const lines = [
    `## ${cols.length} runs side by side`,
    '',
    '| | ' + cols.map((x) => mdCell(x.label)).join(' | ') + ' |',
    '|---|' + cols.map(() => '---').join('|') + '|',
    '| target | ' + cols.map((x) => mdCell(x.target)).join(' | ') + ' |',
    '| suite | ' + cols.map((x) => mdCell(x.suiteVersion)).join(' | ') + ' |',
    '| verdict | ' + cols.map((x) => mdCell(x.verdictLine)).join(' | ') + ' |',
    '| rules | ' + cols.map((x) => `${x.passed} pass, ${x.failed} fail, ${x.warned} warn, ${x.unjudged} not judged`).join(' | ') + ' |',
    '',
    ...c.notes.map((n) => `> **Note:** ${mdCell(n)}.`),
    ...(c.notes.length ? [''] : []),
    `**${shareLine(c)}**`,
    '',
  ];
  for (const a of c.areas) {
    lines.push(`### ${mdCell(a.title)}: ${a.allPass} of ${a.common} rules pass everywhere`, '');
    lines.push('| Rule | Level | ' + cols.map((x) => mdCell(x.label)).join(' | ') + ' |', '|---|---|' + cols.map(() => '---').join('|') + '|');
    for (const r of a.rows) lines.push(`| ${r.differ ? '≠ ' : ''}**${r.id}** ${mdCell(r.text)} | ${r.level} | ${r.cells.map(mdVerdict).join(' | ')} |`);
    lines.push('');
  }
  lines.push('≠: the runs differ on the rule; —: the run has no such rule (another version of the suite).');
  return lines.join('\n');
}

const CSS = `*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:1rem 1.5rem}header h1{margin:0;font-size:1.6rem}header p{margin:.2rem 0 0}
main{padding:0 1.5rem 2rem}table{border-collapse:collapse;background:#fff;margin:.8rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
.share{font-size:1.3rem;font-weight:700;margin:1rem 0 .3rem}.note{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:.4rem .7rem}
th.col{min-width:9rem}th.col small{display:block;font-weight:400;color:#57606a;word-break:break-all}
tr.area th{background:#eaeef2;font-size:15px}tr.area th small{font-weight:400;color:#57606a}
td.v{text-align:center;font-weight:700;font-size:12px;white-space:nowrap}
.s-pass{background:#dafbe1;color:#1a7f37}.s-fail{background:#ffebe9;color:#a40e26}.s-warn{background:#fff8c5;color:#7d4e00}.s-unjudged{background:#f6f8fa;color:#57606a}.s-none{color:#afb8c1}
.known{background-image:repeating-linear-gradient(45deg,transparent 0 4px,rgba(84,174,255,.25) 4px 8px)}
tr.differ td.rule{border-left:4px solid #bf8700}td.rule small{color:#57606a}.V-CONFORMANT{color:#1a7f37}.V-NOT{color:#cf222e}
label{user-select:none}body.only-differ tr.rule:not(.differ){display:none}`;

export function renderCompareHtml(c: Comparison): string {
  const cols = c.columns;
  const head = cols
    .map(
      (x, i) =>
        `<th class="col" data-column="${i}" data-target="${esc(x.target)}" data-suite-version="${esc(x.suiteVersion)}">${esc(x.label)}<small>${esc(x.target)}</small><small>suite ${esc(x.suiteVersion)}</small><small class="V-${esc(x.verdict.split(' ')[0])}">${esc(x.verdictLine)}</small><small>${x.passed} pass · ${x.failed} fail · ${x.warned} warn · ${x.unjudged} not judged</small>${x.generatedAt ? `<small>${esc(x.generatedAt)}</small>` : ''}</th>`,
    )
    .join('');
  const body = c.areas
    .map((a) => {
      const rows = a.rows
        .map((r) => {
          const cells = r.cells
            .map((cell) =>
              cell
                ? `<td class="v s-${cell.state}${cell.known ? ' known' : ''}" data-verdict="${esc(cell.verdict)}" title="${esc(`${cell.verdict}${cell.known ? ' (known failure)' : ''}${cell.reason ? `: ${cell.reason}` : ''}`)}">${esc(cell.verdict)}</td>`
                : '<td class="v s-none" data-verdict="" title="the run has no such rule">—</td>',
            )
            .join('');
          return `<tr class="rule${r.differ ? ' differ' : ''}" data-rule="${esc(r.id)}" data-all-pass="${r.allPass}"><td class="rule" title="${esc(r.quote ?? '')}"><b>${esc(r.id)}</b> ${esc(r.level)}<br><small>${esc(oneLine(r.text, 160))}</small></td>${cells}</tr>`;
        })
        .join('');
      return `<tr class="area" data-area="${esc(a.area)}"><th colspan="${cols.length + 1}">${esc(a.title)} <small>${a.allPass} of ${a.common} rules pass everywhere (${percent(a.allPass, a.common)})</small></th></tr>${rows}`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${cols.length} runs side by side · CRM API conformance</title><style>${CSS}</style></head><body>
<header><h1>CRM Developer API · ${cols.length} runs side by side</h1><p>${cols.map((x) => esc(x.label)).join(' · ')}</p></header>
<main>
<p class="share" id="share" data-all-pass="${c.allPass}" data-common="${c.common}">${esc(shareLine(c))}</p>
${c.notes.map((n) => `<p class="note">${esc(n)}.</p>`).join('')}
<p><label><input type="checkbox" onchange="document.body.classList.toggle('only-differ',this.checked)"> only the rules where the runs differ</label></p>
<table id="matrix"><thead><tr><th>Rule</th>${head}</tr></thead><tbody>${body}</tbody></table>
<p><small>— : the run has no such rule (another version of the suite) · striped: a known failure (the run's baseline lists it) · hover a cell for its reason, a rule for the spec's sentence · crm-conformance · self-contained page, no network access</small></p>
</main></body></html>`;
}
