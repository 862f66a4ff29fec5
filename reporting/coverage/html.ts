/**
 * `spec-coverage.html`: the coverage map (spec-coverage.json) as one self-contained page beside
 * conformance.html (no external asset, opens offline, prints): the counts, the unexplained gaps
 * first, then per endpoint a table of its request members and answer members with a chip per
 * class (its count; a gap red when unexplained, amber when explained, its reason in the chip's
 * title) and the spec files whose tests sent it requests, the transitions, notifications and OAuth steps, the requests outside the spec, and the
 * explained gaps by reason. Every count is also a data attribute, for the self-tests.
 */
import { esc } from '../html.js';
import type { SpecCoverage } from './map.js';

type Entry = SpecCoverage['notifications'][number];
type Gap = SpecCoverage['gaps'][number];

function chip(e: Entry, reasons: Map<string, Gap>): string {
  const g = e.gap ? reasons.get(e.id) : undefined;
  const cls = !e.gap ? 'ok' : e.gap === 'explained' ? 'gap-e' : 'gap-u';
  const title = !e.gap ? e.id : e.gap === 'explained' ? `${e.id}: explained (${g?.kind}): ${g?.reason ?? ''}` : `${e.id}: never exercised, unexplained`;
  return `<span class="c ${cls}" data-class="${esc(e.id)}" data-count="${e.count}" title="${esc(title)}">${esc(e.class)} <b>${e.count}</b></span>`;
}

function memberTable(caption: string, rows: { member: string; classes: Entry[] }[], reasons: Map<string, Gap>): string {
  if (!rows.length) return '';
  const body = rows
    .map((r) => {
      const gaps = r.classes.filter((c) => c.gap === 'unexplained').length;
      return `<tr class="${gaps ? 'has-gap' : r.classes.some((c) => c.gap) ? 'has-explained' : 'full'}"><th scope="row"><code>${esc(r.member)}</code></th><td>${r.classes.map((c) => chip(c, reasons)).join(' ')}</td></tr>`;
    })
    .join('');
  return `<table class="members"><caption>${esc(caption)}</caption><tbody>${body}</tbody></table>`;
}

function endpointBlock(e: SpecCoverage['endpoints'][number], reasons: Map<string, Gap>): string {
  const all = [...e.statuses, ...e.request.flatMap((r) => r.classes), ...e.response.flatMap((r) => r.classes)];
  const unexplained = all.filter((c) => c.gap === 'unexplained').length;
  const exercised = all.filter((c) => !c.gap).length;
  const seen = Object.entries(e.statusesSeen)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([s, n]) => `<span class="c seen" data-status="${esc(s)}" data-count="${n}">${s === '0' ? 'no answer' : esc(s)} <b>${n}</b></span>`)
    .join(' ');
  return `<details class="endpoint${unexplained ? ' bad' : ''}" id="${esc(e.endpoint)}"${unexplained ? ' open' : ''} data-endpoint="${esc(e.endpoint)}" data-requests="${e.requests}">
<summary><code>${esc(e.endpoint)}</code> <small>§ ${esc(e.section)} · ${e.requests} request${e.requests === 1 ? '' : 's'} · ${exercised}/${all.length} classes${unexplained ? ` · <b class="t-bad">${unexplained} unexplained</b>` : ''}</small></summary>
<p>Statuses the spec shows: ${e.statuses.map((c) => chip(c, reasons)).join(' ') || '<small>none beyond the HTML screens</small>'} · seen: ${seen || '<small>none</small>'}</p>
<p data-spec-files="${e.specFiles.length}">Spec files whose tests sent it requests (${e.specFiles.length}): ${e.specFiles.map((f) => `<code>${esc(f)}</code>`).join(' · ') || '<small>none</small>'}</p>
${memberTable('Request: each member and the value classes sent', e.request, reasons)}
${memberTable('Answers: each member and what it showed', e.response, reasons)}
</details>`;
}

function groupTable(title: string, groups: SpecCoverage['oauth'], reasons: Map<string, Gap>): string {
  return `<h2>${esc(title)}</h2><table class="members"><tbody>${groups
    .map((g) => `<tr><th scope="row">${esc(g.label)}</th><td>${g.classes.map((c) => chip(c, reasons)).join(' ')}</td></tr>`)
    .join('')}</tbody></table>`;
}

function notificationGrid(m: SpecCoverage, reasons: Map<string, Gap>): string {
  const types = [...new Set(m.notifications.map((n) => n.class.split('/')[0]))];
  const events = [...new Set(m.notifications.map((n) => n.class.split('/')[1]))];
  const cell = (t: string, ev: string) => {
    const e = m.notifications.find((n) => n.class === `${t}/${ev}`)!;
    return `<td>${chip({ ...e, class: ev }, reasons)}</td>`;
  };
  return `<h2>Notifications received (§ Events)</h2><table class="grid"><thead><tr><th>type</th>${events.map((e) => `<th>${esc(e)}</th>`).join('')}</tr></thead><tbody>${types
    .map((t) => `<tr><th scope="row">${esc(t)}</th>${events.map((e) => cell(t, e)).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function gapLists(m: SpecCoverage): { top: string; explained: string } {
  const unexplained = m.gaps.filter((g) => !g.explained);
  const byReason = new Map<string, Gap[]>();
  for (const g of m.gaps.filter((x) => x.explained)) byReason.set(g.reason!, [...(byReason.get(g.reason!) ?? []), g]);
  const top = unexplained.length
    ? `<div class="alert bad" id="unexplained"><h2>Unexplained gaps (<span data-gaps="unexplained">${unexplained.length}</span>)</h2><p>Never exercised, and no reason in rules/coverage-reasons.json: a check to write, or a reason to give.</p><ul>${unexplained.map((g) => `<li><code>${esc(g.id)}</code></li>`).join('')}</ul></div>`
    : `<div class="alert good" id="unexplained"><b>No unexplained gap</b> (<span data-gaps="unexplained">0</span>): every class the run did not exercise has its reason.</div>`;
  const explained = [...byReason]
    .map(([reason, gs]) => `<li><p><b>${esc(gs[0].kind)}</b>: ${esc(reason)}</p><p>${gs.map((g) => `<code>${esc(g.id)}</code>`).join(' · ')}</p></li>`)
    .join('');
  return {
    top,
    explained: `<details class="all"><summary><h2>Explained gaps (<span data-gaps="explained">${m.summary.gaps.explained}</span>)</h2></summary><ul class="reasons">${explained}</ul></details>`,
  };
}

const CSS = `
*{box-sizing:border-box}body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
main{max-width:1200px;margin:0 auto;padding:0 1.5rem 3rem}code{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.top{padding:1.2rem 0;color:#fff;background:#0a3069}.top .wrap{max-width:1200px;margin:0 auto;padding:0 1.5rem}.top .title{opacity:.9}.top .big{font-size:2rem;font-weight:800}.top a{color:#fff}
.cards{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0}.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:.6rem .9rem;min-width:170px}.card .big{font-size:1.5rem;font-weight:700}
h2{margin:1.6rem 0 .5rem;font-size:1.25rem;border-bottom:1px solid #d0d7de;padding-bottom:.25rem}
table{border-collapse:collapse;background:#fff;width:100%;margin:.4rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}caption{text-align:left;font-weight:600;padding:.3rem 0}
.members th{width:19rem;font-weight:400}.grid td,.grid th{width:auto}
.c{display:inline-block;border-radius:4px;padding:0 .4rem;margin:1px 0;font:12px ui-monospace,monospace;white-space:nowrap}.c b{font-weight:700}
.c.ok{background:#dafbe1;color:#116329}.c.gap-u{background:#ffebe9;color:#a40e26;outline:1px solid #cf222e}.c.gap-e{background:#fff8c5;color:#7d4e00}.c.seen{background:#eaeef2}
.endpoint{background:#fff;border:1px solid #d0d7de;border-left-width:6px;border-left-color:#1a7f37;border-radius:8px;padding:.4rem .8rem;margin:.5rem 0}.endpoint.bad{border-left-color:#cf222e}.endpoint summary{cursor:pointer}
.t-bad{color:#cf222e}.alert{border-radius:8px;padding:.6rem .9rem;margin:.8rem 0;border:1px solid}.alert.bad{background:#ffebe9;border-color:#cf222e}.alert.good{background:#dafbe1;border-color:#1a7f37}.alert h2{margin-top:.2rem;border:0}
.reasons li{margin-bottom:.6rem}.reasons p{margin:.1rem 0}details.all summary h2{display:inline;border:0}small{color:#57606a}
body.only-gaps .c.ok,body.only-gaps tr.full{display:none}
@media print{details{display:block}.top{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;

/** The page of a coverage map; `conformance` is the conformance page it sits beside (a relative link). */
export function renderCoverageHtml(m: SpecCoverage, conformance = 'conformance.html'): string {
  const s = m.summary;
  const reasons = new Map(m.gaps.map((g) => [g.id, g]));
  const gaps = gapLists(m);
  const section = (name: string) =>
    `<div class="card" data-section="${esc(name)}"><div class="big">${s.bySection[name]?.exercised ?? 0}/${s.bySection[name]?.total ?? 0}</div>${esc(name)} classes</div>`;
  const outside = Object.entries(m.outsideSpec).sort(([, a], [, b]) => b - a);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Spec coverage · ${s.classes.exercised}/${s.classes.total} classes · CRM API conformance</title><style>${CSS}</style></head><body>
<header class="top"><div class="wrap"><div class="title">CRM Developer API · the spec's surface this run exercised · <a href="${esc(conformance)}">conformance report</a></div>
<div class="big" id="coverage-headline" data-exercised="${s.classes.exercised}" data-total="${s.classes.total}">${s.classes.exercised}/${s.classes.total} classes · ${s.endpoints.exercised}/${s.endpoints.total} endpoints</div>
<div>${s.gaps.total} gaps: ${s.gaps.explained} explained, <b>${s.gaps.unexplained} unexplained</b>${m.target ? ` · target <code>${esc(m.target)}</code>` : ''}${m.shards?.length ? ` · shards ${esc(m.shards.join(', '))}` : ''}</div></div></header>
<main>
<section class="cards">${['request', 'response', 'status', 'transition', 'notification', 'oauth'].map(section).join('')}
<div class="card"><div class="big">${s.exchanges}</div>exchanges; ${s.outsideSpec} outside the spec; ${s.answersWithoutBody} answers too long to count</div>
<div class="card"><div class="big">${s.notifications}</div>notifications; ${s.oauthSteps} OAuth steps</div></section>
<p><small>A class is a value class sent (each enum member, omitted, null, empty, bounds, spaces, non-ASCII, wrong type…), a status the spec shows, what an answer showed of a member (a value, null, [], a non-empty list, absent), a transition, a notification kind or an OAuth step. A gap is a class never exercised: <span class="c gap-u">red</span> unexplained, <span class="c gap-e">amber</span> explained by rules/coverage-reasons.json (its reason in the chip's title). An answer's members are counted on every answer, whole or, where the recorder slimmed it, by its shape (but those too long to keep).</small>
<label><input type="checkbox" onchange="document.body.classList.toggle('only-gaps',this.checked)"> show only gaps</label></p>
${gaps.top}
<h2>Endpoints (${s.endpoints.exercised}/${s.endpoints.total} exercised)</h2>
${m.endpoints.map((e) => endpointBlock(e, reasons)).join('')}
${groupTable('State transitions (§ States and transitions)', m.transitions, reasons)}
${notificationGrid(m, reasons)}
${groupTable('OAuth steps and error paths (§ OAuth 2.0 authorization code grant)', m.oauth, reasons)}
<h2>Requests outside the spec (${s.outsideSpec})</h2>${outside.length ? `<table><tbody>${outside.map(([k, n]) => `<tr><td><code>${esc(k)}</code></td><td data-count="${n}">${n}</td></tr>`).join('')}</tbody></table>` : '<p>None.</p>'}
${gaps.explained}
${m.staleReasons.length ? `<div class="alert bad" id="stale-reasons"><b>Stale reasons</b> (no such class any more; remove them from rules/coverage-reasons.json): ${m.staleReasons.map((id) => `<code>${esc(id)}</code>`).join(' · ')}</div>` : ''}
<p><small>crm-conformance · generated ${esc(m.generatedAt)} · self-contained page, no network access</small></p>
</main></body></html>`;
}
