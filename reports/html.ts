/** Renders conformance.json as one self-contained HTML page (no external assets). */
import { AREAS } from '../rules/index.js';
import type { ConformanceReport, RuleVerdict, Verdict } from './verdict.js';

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const COLORS: Record<Verdict, string> = { PASS: '#1a7f37', FAIL: '#cf222e', WARN: '#bf8700', SKIP: '#6e7781', UNTESTED: '#8c959f' };

function badge(v: Verdict): string {
  return `<span class="badge" style="background:${COLORS[v]}">${v}</span>`;
}

function matrix(r: ConformanceReport): string {
  const areas = Object.keys(AREAS) as (keyof typeof AREAS)[];
  const rows = areas.map((area) => {
    const rules = r.rules.filter((x) => x.area === area);
    if (!rules.length) return '';
    const cells = rules.map((x) => `<a class="cell" href="#${esc(x.id)}" title="${esc(`${x.id} (${x.level}) ${x.verdict}: ${x.text}`)}" style="background:${COLORS[x.verdict]}">${esc(x.id)}</a>`).join('');
    return `<tr><th scope="row">${esc(AREAS[area])}</th><td>${cells}</td></tr>`;
  });
  return `<table class="matrix" aria-label="areas by rules"><tbody>${rows.join('')}</tbody></table>`;
}

function detail(x: RuleVerdict): string {
  const tests = x.tests.filter((t) => t.status === 'failed' || t.status === 'warned');
  return `<section class="detail" id="${esc(x.id)}"><h3>${badge(x.verdict)} ${esc(x.id)} <small>${esc(x.level)} · § ${esc(x.section)}</small></h3>
<p>${esc(x.text)}</p>
${tests.map((t) => `<details open><summary>${esc(t.title)} <small>${esc(t.file)}:${t.line}</small></summary>
${t.error ? `<pre class="err">${esc(t.error)}</pre>` : ''}${t.warnings.map((w) => `<pre class="warn">${esc(w)}</pre>`).join('')}
${t.counterexample ? `<p><b>Counterexample / replay:</b></p><pre>${esc(t.counterexample)}</pre>` : ''}
${t.replay ? `<p><b>Replay:</b></p><pre>${esc(t.replay)}</pre>` : ''}
${t.exchanges?.length ? `<details><summary>Exchanges (${t.exchanges.length}, redacted)</summary><pre>${esc(JSON.stringify(t.exchanges, null, 2))}</pre></details>` : ''}
</details>`).join('')}</section>`;
}

export function renderHtml(r: ConformanceReport): string {
  const levels = ['MUST', 'SHOULD', 'MAY'] as const;
  const verdicts: Verdict[] = ['PASS', 'FAIL', 'WARN', 'SKIP', 'UNTESTED'];
  const counts = `<table class="counts"><thead><tr><th>Level</th>${verdicts.map((v) => `<th>${v}</th>`).join('')}</tr></thead><tbody>${levels
    .map((l) => `<tr><th scope="row">${l}</th>${verdicts.map((v) => `<td data-level="${l}" data-verdict="${v}">${r.counts[l][v]}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
  const flagged = r.rules.filter((x) => x.verdict === 'FAIL' || x.verdict === 'WARN');
  const all = r.rules.map((x) => `<tr><td><a href="#${esc(x.id)}">${esc(x.id)}</a></td><td>${esc(x.level)}</td><td>${badge(x.verdict)}</td><td>${esc(x.text)}</td><td>${x.tests.length}</td><td>${esc(x.reasons.join('; ').slice(0, 300))}</td></tr>`).join('');
  const cal = r.calibration ? `<p id="calibration">Calibration: <b>${(r.calibration.score * 100).toFixed(1)}%</b> of ${r.calibration.faults} faults caught (${esc(r.calibration.date)}).</p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CRM API conformance: ${esc(r.verdict)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1f2328}h1{margin:0}.verdict{font-size:2rem;font-weight:700;color:${r.verdict === 'CONFORMANT' ? COLORS.PASS : COLORS.FAIL}}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
.badge{color:#fff;border-radius:4px;padding:0 .4rem;font-size:12px;font-weight:600}.matrix td{display:flex;flex-wrap:wrap;gap:3px;border:0}
.cell{color:#fff;text-decoration:none;font-size:11px;padding:1px 4px;border-radius:3px}pre{background:#f6f8fa;padding:.5rem;overflow:auto;white-space:pre-wrap;max-height:30rem}
.err{border-left:4px solid ${COLORS.FAIL}}.warn{border-left:4px solid ${COLORS.WARN}}.detail{border-top:1px solid #d0d7de;margin-top:1rem}small{color:#57606a;font-weight:400}
</style></head><body>
<header><h1>CRM Developer API conformance</h1><p class="verdict" id="verdict">${esc(r.verdict)}</p>
<p>Target: <code>${esc(r.target)}</code> · run <code>${esc(r.runId)}</code> · ${esc(r.generatedAt)} · tests: <span id="tests-total">${r.tests.total}</span> (${r.tests.passed} passed, ${r.tests.failed} failed, ${r.tests.warned} warned, ${r.tests.skipped} skipped)</p>${cal}
${r.warnings.map((w) => `<p class="warn">⚠ ${esc(w)}</p>`).join('')}</header>
<h2>Rules by level and verdict</h2>${counts}
<h2>Areas × rules</h2>${matrix(r)}
<h2>Failed and warned rules (${flagged.length})</h2>${flagged.map(detail).join('') || '<p>None.</p>'}
${r.untraced.length ? `<h2>Tests without a known rule</h2><ul>${r.untraced.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>` : ''}
<h2>All rules</h2><table class="all"><thead><tr><th>Rule</th><th>Level</th><th>Verdict</th><th>Statement</th><th>Tests</th><th>Reasons</th></tr></thead><tbody>${all}</tbody></table>
</body></html>`;
}
