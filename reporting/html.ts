/**
 * Renders a conformance report as one self-contained HTML page: no external asset, no
 * network access, readable offline and printable. Every number is also a data attribute so
 * the self-test can check the page against conformance.json.
 */
import { AREAS, ruleIdOfTitle, ruleLink } from '../rules/index.js';
import { rootCauseOrder, type ConformanceReport, type RuleVerdict, type Verdict } from './verdict.js';
import { runCommand } from '../specs/support/core/replay.js';

export const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const VERDICTS: Verdict[] = ['PASS', 'FAIL', 'WARN', 'BLOCKED', 'SKIP', 'UNTESTED'];
const LEVELS = ['MUST', 'SHOULD', 'MAY'] as const;
const LABEL: Record<Verdict, string> = { PASS: 'pass', FAIL: 'fail', WARN: 'warn', BLOCKED: 'blocked', SKIP: 'skip', UNTESTED: 'untested' };

interface ExchangeLike {
  method?: string;
  url?: string;
  status?: number;
  durationMs?: number;
  error?: string;
  problem?: string;
  requestHeaders?: Record<string, string>;
  requestBody?: unknown;
  responseHeaders?: Record<string, string>;
  responseBody?: unknown;
  curl?: string;
}

const MAX_TESTS_SHOWN = 8;
const MAX_EXCHANGES_SHOWN = 5;
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}\n… (${s.length - n} more characters)` : s);
const pretty = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v, null, 2));
const fmtMs = (ms: number | undefined) => (ms === undefined ? '' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

function badge(v: Verdict, known?: boolean): string {
  return `<span class="badge v-${v}">${v}${known ? ' · known' : ''}</span>`;
}

/** The rule's section, linked to the spec's section or the rule's row on the rule pages (ruleLink). */
function specLink(r: ConformanceReport, rule: RuleVerdict): string {
  const text = `§ ${esc(rule.section)}`;
  return r.specUrl ? `<a href="${esc(ruleLink(r.specUrl, rule))}">${text}</a>` : text;
}

function header(r: ConformanceReport): string {
  const must = r.counts.MUST;
  const mustTotal = VERDICTS.reduce((a, v) => a + must[v], 0);
  const ok = r.verdict === 'CONFORMANT';
  const cov = r.coverage;
  const partialScope = r.scope === 'partial' && cov;
  const first = r.rootCauses?.map((id) => r.rules.find((x) => x.id === id)).find((x) => x && x.verdict === 'FAIL' && x.level === 'MUST');
  const sub = ok
    ? partialScope
      ? `No MUST rule fails among the ${cov.judged} rules judged; ${cov.notJudged} rules were not judged in this run (no test of theirs ran: a spec directory, --grep or one shard). This is no verdict on them: run the whole suite for a verdict on every rule.`
      : `No MUST rule fails: ${must.PASS} of ${mustTotal} MUST rules pass${must.UNTESTED + must.SKIP ? `, ${must.UNTESTED + must.SKIP} not tested in this run` : ''}${r.certify ? ' (CRM_CERTIFY=1: every judgeable MUST rule was judged)' : ''}.`
    : r.verdict === 'INCONCLUSIVE'
      ? `${r.scope === 'none' || r.targetDown || (r.preflight && r.preflight.state !== 'alive') ? 'Nothing could be judged' : 'Not every rule could be judged'}: ${r.verdictReason ?? 'the target could not be tested'}.`
      : must.FAIL === 0 && r.strict
        ? `No MUST rule fails, but CRM_STRICT=1 fails the run on SHOULD rules: ${r.counts.SHOULD.FAIL} SHOULD rule${r.counts.SHOULD.FAIL === 1 ? '' : 's'} fail.`
        : `${must.FAIL} of ${mustTotal} MUST rules fail${r.expectations?.knownFailures.length ? ' (known failures included)' : ''}${must.BLOCKED ? `; ${must.BLOCKED} more could not be judged, blocked by a failed step` : ''}.${first ? ` Start with ${first.id}: ${first.text}.` : ''}`;
  const verdictText =
    r.verdictLine && r.verdictLine !== r.verdict
      ? `${esc(r.verdict)}<span class="qualifier">${esc(r.verdictLine.slice(r.verdict.length))}</span>`
      : esc(r.verdict);
  const coverageCard = cov
    ? `<div class="card" id="coverage" data-scope="${esc(r.scope)}"><div class="big"><span data-coverage="judged">${cov.judged}</span> <small>of <span data-coverage="judgeable">${cov.judgeable}</span></small></div><div>rules judged${cov.notJudged ? `; <b><span data-coverage="notJudged">${cov.notJudged}</span> not judged in this run</b>` : ''}${cov.notApplicable ? `; <span data-coverage="notApplicable">${cov.notApplicable}</span> not applicable to this target` : ''}<br><small>${cov.untestable} untestable (no test can observe them)</small></div></div>`
    : '';
  const cal = r.calibration
    ? `<div class="card" id="calibration"><div class="big" data-calibration-score="${r.calibration.score}">${(r.calibration.score * 100).toFixed(1)}%</div><div>calibration: ${r.calibration.caught} of ${r.calibration.faults} injected faults caught<br><small>${esc(r.calibration.date)}</small></div></div>`
    : '';
  const sc = r.specCoverage;
  const specCard = sc
    ? `<div class="card" id="spec-coverage" data-classes="${sc.classes.exercised}/${sc.classes.total}" data-unexplained="${sc.gaps.unexplained}"><div class="big">${sc.classes.exercised}<small>/${sc.classes.total}</small></div><div>classes of the spec exercised, ${sc.endpoints.exercised}/${sc.endpoints.total} endpoints<br><small>${sc.gaps.total} gaps: ${sc.gaps.explained} explained, ${sc.gaps.unexplained} unexplained</small> · <a href="${esc(sc.file)}">spec coverage map</a></div></div>`
    : '';
  const t = r.tests;
  return `<header class="top ${ok ? (partialScope ? 'ok partial' : 'ok') : r.verdict === 'INCONCLUSIVE' ? 'inconclusive' : 'bad'}"><div class="wrap">
<div class="title">CRM Developer API · conformance report${r.depth ? ` · <span id="depth" data-depth="${esc(r.depth)}">depth ${esc(r.depth)}</span>` : ''}</div>
<div class="verdict" data-verdict="${esc(r.verdict)}" data-scope="${esc(r.scope ?? '')}" id="verdict">${verdictText}</div>
<div class="sub">${esc(sub)}${r.partial ? ` <b>Partial: ${esc(r.partial)}.</b>` : ''}</div>
${
  (r.power ?? []).some((p) => p.cut)
    ? `<div class="sub" id="power">Power: ${esc(
        (r.power ?? [])
          .filter((p) => p.cut)
          .map((p) => `${p.rule} (${p.property}) ${p.runs} of ${p.planned} runs`)
          .join(', '),
      )} (cut short by a time budget).</div>`
    : ''
}
</div></header>
<section class="cards">
${coverageCard}
<div class="card"><div class="big" id="tests-total">${t.total}</div><div>tests: <span data-tests="passed">${t.passed}</span> passed, <span data-tests="failed">${t.failed}</span> failed, <span data-tests="warned">${t.warned}</span> warned, <span data-tests="skipped">${t.skipped}</span> skipped${t.knownFailures ? `, <span data-tests="knownFailures">${t.knownFailures}</span> known failures` : ''}</div></div>
<div class="card"><div class="big" id="requests-total">${r.requests.total}</div><div>requests sent${r.durationMs ? ` in ${fmtMs(r.durationMs)}` : ''}<br><small>${esc(statusSummary(r.requests.byStatus))}</small></div></div>
${cal}
${specCard}
<div class="card meta"><div>target <code>${esc(r.target)}</code></div><div>run <code>${esc(r.runId)}</code>${r.shards?.length ? ` · shards ${esc(r.shards.join(', '))}` : ''}</div><div>${esc(r.generatedAt)}</div></div>
</section>`;
}

function statusSummary(by: Record<string, number>): string {
  const entries = Object.entries(by).sort(([a], [b]) => Number(a) - Number(b));
  return entries.map(([s, n]) => `${s === '0' ? 'no answer' : s}: ${n}`).join(' · ');
}

function counts(r: ConformanceReport): string {
  const head = VERDICTS.map((v) => `<th class="h-${v}">${v}</th>`).join('');
  const rows = LEVELS.map((l) => {
    const total = VERDICTS.reduce((a, v) => a + r.counts[l][v], 0);
    return `<tr><th scope="row">${l}</th>${VERDICTS.map((v) => `<td data-level="${l}" data-verdict="${v}" class="${r.counts[l][v] ? `n-${v}` : 'zero'}">${r.counts[l][v]}</td>`).join('')}<td class="total">${total}</td></tr>`;
  });
  return `<table class="counts" aria-label="rules by level and verdict"><thead><tr><th>Level</th>${head}<th>Rules</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function matrix(r: ConformanceReport): string {
  const areas = Object.keys(AREAS) as (keyof typeof AREAS)[];
  const rows = areas.map((area) => {
    const rules = r.rules.filter((x) => x.area === area);
    if (!rules.length) return '';
    const n = (v: Verdict) => rules.filter((x) => x.verdict === v).length;
    const stat = VERDICTS.filter((v) => n(v))
      .map((v) => `<span class="t-${v}">${n(v)} ${LABEL[v]}</span>`)
      .join(' ');
    const cells = rules
      .map(
        (x) =>
          `<a class="cell v-${x.verdict}${x.known ? ' known' : ''}" data-rule="${esc(x.id)}" data-cell-verdict="${x.verdict}" href="#${x.verdict === 'FAIL' || x.verdict === 'WARN' ? '' : 'rule-'}${esc(x.id)}" title="${esc(`${x.id} (${x.level}) ${x.verdict}${x.known ? ' (known failure)' : ''}: ${x.text}`)}">${esc(x.id)}${x.level === 'MUST' ? '' : `<sup>${x.level[0]}</sup>`}</a>`,
      )
      .join('');
    return `<tr><th scope="row">${esc(AREAS[area])}<div class="stat">${stat}</div></th><td><div class="cells">${cells}</div></td></tr>`;
  });
  const legend = VERDICTS.map((v) => `<span class="cell v-${v}">${v}</span>`).join(' ');
  return `<p class="legend">${legend} <small>· <sup>S</sup> SHOULD, <sup>M</sup> MAY, no mark: MUST · striped: known failure (baseline)</small></p>
<table class="matrix" aria-label="areas by rules"><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * A property's counterexample (counterexample.txt of specs/support/property.ts), without the
 * problem the failure above already shows, and the line that replays it as the console printed
 * it (seed, path and CRM_FC_RUNS).
 */
function counterexampleBlock(text: string, error: string | undefined): string {
  const shown = text
    .split(/\n(?=(?:first )?problem:\n)/)
    .map((part) => {
      const m = /^((?:first )?problem):\n([\s\S]*?)(\n\n[\s\S]*)?$/.exec(part);
      return m && error?.includes(m[2].trim().split('\n')[0]) ? `${m[1]}: as in the failure above${m[3] ?? ''}` : part;
    })
    .join('\n');
  const replay = /^replay: (.+)$/m.exec(text)?.[1];
  return `<h4>Counterexample</h4><pre class="cx">${esc(clip(shown, 3000))}</pre>${replay ? `<p>Replay the property: <code class="cmd">${esc(replay)}</code></p>` : ''}`;
}

/** The replay script: the line that runs it (as the console named it) and the script whole. */
function replayBlock(script: string, command: string | undefined): string {
  return `<h4>Replay</h4><p>${command ? `<code class="cmd">${esc(command)}</code>: ` : ''}sends the request the failure is about after those that made the records it names, with the ids the server gives now, and says whether the failure shows (export the CRM_* variables first).</p><pre class="replay">${esc(script)}</pre>`;
}

function exchangeBlock(x: ExchangeLike, i: number): string {
  const status = x.error ? '' : `<b>${esc(x.status)}</b>`;
  const headers = (h?: Record<string, string>) =>
    Object.entries(h ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
  const req = [headers(x.requestHeaders), x.requestBody === undefined ? '' : `\n${clip(pretty(x.requestBody), 3000)}`].join('');
  const res = x.error
    ? x.error
    : [headers(x.responseHeaders), x.responseBody === undefined ? '\n(empty body)' : `\n${clip(pretty(x.responseBody), 4000)}`].join('');
  return `<details class="exchange"><summary><span class="n">#${i + 1}</span> <code>${esc(x.method)} ${esc(x.url)}</code> → ${status}${x.problem ? ` <span class="t-WARN">${esc(x.problem)}</span>` : ''}${x.error ? ` <span class="t-FAIL">${esc(x.error)}</span>` : ''} <small>${fmtMs(x.durationMs)}</small></summary>
<div class="io"><div><h5>Request</h5><pre>${esc(req)}</pre></div><div><h5>Response</h5><pre>${esc(res)}</pre></div></div>
${x.curl ? `<pre class="replay">${esc(x.curl)}</pre>` : ''}</details>`;
}

/** Which rules a failed test counts against, when its failure names them (reporting/blame.ts). */
function breaksNote(title: string, breaks: string[], covers: string[] = []): string {
  const own = ruleIdOfTitle(title);
  const them = breaks.length === 1 ? 'it' : 'them';
  // A step of another rule (a create, an upsert that must update): not one of the rules the test covers.
  const step = own && !breaks.includes(own) && !breaks.every((b) => covers.includes(b));
  const text = step
    ? `A step this test of ${own} relies on failed: the failure counts against ${breaks.join(', ')}, and ${own} is blocked by ${them} (not judged by this test).`
    : `The failure names the rule${breaks.length === 1 ? '' : 's'} whose check broke: ${breaks.join(', ')}; it counts against ${them} only, not against the other rules this test covers.`;
  return `<p class="known-note" data-breaks="${esc(breaks.join(' '))}">${esc(text)}</p>`;
}

/** The rules a failed rule blocks: their tests stopped at a step of it (fix it first). */
function blocksNote(r: ConformanceReport, x: RuleVerdict): string {
  const blocked = r.rules.filter((v) => v.verdict === 'BLOCKED' && v.tests.some((t) => t.blockedBy?.includes(x.id))).map((v) => v.id);
  if (!blocked.length) return '';
  return `<p class="blocks" data-blocks="${esc(blocked.join(' '))}">Blocks ${blocked.length} rule${blocked.length === 1 ? '' : 's'}, not judged until ${esc(x.id)} is fixed: ${esc(blocked.join(', '))}.</p>`;
}

function detail(r: ConformanceReport, x: RuleVerdict): string {
  const all = x.tests.filter((t) => t.status === 'failed' || t.status === 'warned' || t.status === 'known-failure');
  // A run where everything fails stays readable (and small): the first tests of each rule in full.
  const tests = all.slice(0, MAX_TESTS_SHOWN);
  return `<section class="detail v-border-${x.known ? 'known' : x.verdict}" id="${esc(x.id)}">
<h3>${badge(x.verdict, x.known)} ${esc(x.id)} <small>${esc(x.level)} · ${specLink(r, x)}${x.endpoint ? ` · <code>${esc(x.endpoint)}</code>` : ''}</small></h3>
<p class="statement">${esc(x.text)}</p>
${blocksNote(r, x)}
${tests.length ? '' : `<ul>${x.reasons.map((reason) => `<li>${esc(reason)}</li>`).join('')}</ul>`}
${tests
  .map((t) => {
    const rerun = `${runCommand()} ${t.file}:${t.line}`;
    const exchanges = ((t.exchanges ?? []) as ExchangeLike[]).slice(-MAX_EXCHANGES_SHOWN);
    return `<div class="test" data-test-status="${esc(t.status)}"><div class="test-head"><span class="chip s-${esc(t.status)}">${esc(t.status)}</span> <b>${esc(t.title)}</b> <small>${esc(t.file)}:${t.line}${t.durationMs !== undefined ? ` · ${fmtMs(t.durationMs)}` : ''}</small></div>
${t.breaks?.length ? breaksNote(t.title, t.breaks, t.covers) : ''}
${t.held ? `<p class="known-note">${t.repeatOf ? `The same problem as <b>${esc(t.repeatOf)}</b>, which failed first` : esc(t.held)}: Playwright's reports show this test as skipped (held), this report as failed.</p>` : ''}
${t.expectedFailure ? `<p class="known-note">Known failure, listed in the CRM_EXPECTATIONS baseline: ${esc(t.expectedFailure.split('\n')[0])}</p>` : ''}
${t.error ? `<h4>Failure</h4><pre class="err">${esc(clip(t.error, 4000))}</pre>` : ''}${t.warnings.map((w) => `<pre class="warn">${esc(w)}</pre>`).join('')}
${t.counterexample ? counterexampleBlock(t.counterexample, t.error) : ''}
${t.replay ? replayBlock(t.replay, t.replayCommand) : ''}
<p class="rerun">Run this test again: <code class="cmd">${esc(rerun)}</code></p>
${exchanges.length ? `<h4>Exchanges (last ${exchanges.length}, redacted)</h4>${exchanges.map(exchangeBlock).join('')}` : ''}
</div>`;
  })
  .join(
    '',
  )}${all.length > tests.length ? `<p><small>… and ${all.length - tests.length} more failed or warned tests of this rule (all of them are in conformance.json).</small></p>` : ''}</section>`;
}

/** The preflight's banner: what was tried before any test and what came back (dead or nonsense target). */
function preflightBlock(r: ConformanceReport): string {
  const p = r.preflight;
  const down =
    (r.targetDown
      ? `<p id="target-down">${r.targetDown.tests} test(s) skipped because the target stopped answering during the run: ${esc(r.targetDown.reason)}</p>`
      : '') +
    (r.notJudged
      ? `<p id="not-judged">${r.notJudged.tests} test(s) could not be judged, an observation they need never came: ${esc(r.notJudged.reason)}</p>`
      : '');
  if (!p || p.state === 'alive') return down ? `<div class="alert preflight" data-preflight="alive">${down}</div>` : '';
  const rows = p.probes
    .map(
      (x) =>
        `<tr><td>${esc(x.label)}<br><code>${esc(x.method)} ${esc(x.url)}</code></td><td>${x.error ? `<span class="t-FAIL">no usable answer: ${esc(x.error)}</span>` : `<b>${x.status}</b> ${esc(x.contentType ?? '')}<pre>${esc(x.body ?? '(empty body)')}</pre>${x.problem ? `<span class="t-WARN">${esc(x.problem)}</span>` : ''}`}</td><td>${fmtMs(x.durationMs)}</td></tr>`,
    )
    .join('');
  return `<div class="alert preflight" id="preflight" data-preflight="${esc(p.state)}"><h2>${p.state === 'misconfigured' ? 'The set-up is wrong (not a verdict on the server)' : p.state === 'dead' ? 'The target does not answer' : 'The target answers nonsense'}</h2>
<p><b>${esc(p.headline)}.</b></p>${p.findings.map((f) => `<p>${esc(f.rule)} (MUST) fails: ${esc(f.message)}</p>`).join('')}<p>${esc(p.meaning)}</p>
<table><thead><tr><th>Tried before any test (deadline ${p.deadlineMs / 1000} s)</th><th>What came back</th><th>Time</th></tr></thead><tbody>${rows}</tbody></table>
<pre class="replay">${esc(p.probes[0]?.curl ?? '')}</pre>${down}</div>`;
}

function expectationsBlock(r: ConformanceReport): string {
  const e = r.expectations;
  if (!e) return '';
  const up = e.unexpectedPasses.length
    ? `<div class="alert unexpected" id="unexpected-passes"><b>${e.unexpectedPasses.length} unexpected pass${e.unexpectedPasses.length === 1 ? '' : 'es'}</b>: these tests are listed as known failures and passed; remove them from the baseline.<ul>${e.unexpectedPasses.map((u) => `<li><b>${esc(u.title)}</b> <small>${esc(u.file)}:${u.line}</small> — ${esc(u.reason)}</li>`).join('')}</ul></div>`
    : '';
  const unmatched = e.unmatched.length ? `<p><small>Baseline entries that matched no test of this run: ${esc(e.unmatched.join(', '))}</small></p>` : '';
  const entries = (list: { entry: string; reason: string; expires?: string; issue?: string }[]) =>
    `<ul>${list.map((x) => `<li><b>${esc(x.entry)}</b>${x.expires ? ` expired ${esc(x.expires)}` : ''} — ${esc(x.reason)}${x.issue ? ` <a href="${esc(x.issue)}">${esc(x.issue)}</a>` : ''}</li>`).join('')}</ul>`;
  const stale = e.stale?.length
    ? `<div class="alert unexpected" id="stale-entries"><b>${e.stale.length} stale entr${e.stale.length === 1 ? 'y' : 'ies'}</b>${e.failOnStale ? ' (they fail the run: CRM_EXPECTATIONS_STRICT=1)' : ''}: the failure no longer happens (every test of theirs that ran passed); remove them.${entries(e.stale)}</div>`
    : '';
  const expired = e.expired?.length
    ? `<div class="alert warn" id="expired-entries"><b>${e.expired.length} expired entr${e.expired.length === 1 ? 'y' : 'ies'}</b>, counted as no entry:${entries(e.expired)}</div>`
    : '';
  return `<section class="baseline"><h2>Known-failure baseline</h2>
<p><code>${esc(e.source)}</code>: ${e.entries} entr${e.entries === 1 ? 'y' : 'ies'}; <span id="known-failures">${e.knownFailures.length}</span> test(s) failed as expected (reported, not fatal); <span id="unexpected-pass-count">${e.unexpectedPasses.length}</span> unexpected pass(es).</p>${up}${stale}${expired}${unmatched}</section>`;
}

function allRules(r: ConformanceReport): string {
  const rows = r.rules
    .map(
      (x) =>
        `<tr id="rule-${esc(x.id)}" data-row-verdict="${x.verdict}"><td><a href="#${x.verdict === 'FAIL' || x.verdict === 'WARN' ? esc(x.id) : `rule-${esc(x.id)}`}">${esc(x.id)}</a></td><td>${esc(x.level)}</td><td>${badge(x.verdict, x.known)}</td><td>${esc(x.text)}<br><small>${specLink(r, x)}${x.endpoint ? ` · ${esc(x.endpoint)}` : ''}</small></td><td>${x.tests.length}</td><td><small>${esc(clip(x.reasons.join('; '), 300))}</small></td></tr>`,
    )
    .join('');
  return `<details class="all"><summary><h2>All rules (${r.rules.length})</h2></summary>
<p><label>Filter <input id="filter" type="search" placeholder="id, verdict or words" oninput="filterRules(this.value)"></label></p>
<table class="rules"><thead><tr><th>Rule</th><th>Level</th><th>Verdict</th><th>Statement</th><th>Tests</th><th>Reasons</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

const CSS = `
*{box-sizing:border-box}body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
main{max-width:1200px;margin:0 auto;padding:0 1.5rem 3rem}code,pre{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.top{padding:1.2rem 0;color:#fff}.top .wrap{max-width:1200px;margin:0 auto;padding:0 1.5rem}.top.ok{background:#1a7f37}.top.bad{background:#cf222e}.top.inconclusive{background:#57606a}.top .title{opacity:.9;font-size:14px;letter-spacing:.03em}
.top .verdict{font-size:2.4rem;font-weight:800;line-height:1.2}.top .verdict .qualifier{font-size:1.5rem;font-weight:600}.top.ok.partial{background:#2d6a4f;background-image:repeating-linear-gradient(135deg,transparent 0 14px,rgba(255,255,255,.07) 14px 28px)}.top .sub{font-size:15px}
.cards{display:flex;flex-wrap:wrap;gap:.75rem;max-width:1200px;margin:1rem auto;padding:0 1.5rem}.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:.6rem .9rem;display:flex;gap:.75rem;align-items:center;min-width:200px}
.card .big{font-size:1.8rem;font-weight:700}.card.meta{flex-direction:column;align-items:flex-start;gap:0;font-size:13px}.card code{word-break:break-all}
h2{margin:1.6rem 0 .5rem;font-size:1.25rem;border-bottom:1px solid #d0d7de;padding-bottom:.25rem}h3{margin:.2rem 0}h4{margin:.8rem 0 .2rem;font-size:13px}h5{margin:0 0 .2rem;font-size:12px;color:#57606a}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;vertical-align:top}
.counts td{text-align:right;min-width:4.5rem;font-variant-numeric:tabular-nums;font-weight:600}.counts td.zero{color:#afb8c1;font-weight:400}.counts td.total{color:#57606a}
.h-PASS{color:#1a7f37}.h-FAIL{color:#cf222e}.h-WARN{color:#9a6700}.h-SKIP,.h-UNTESTED,.h-BLOCKED{color:#57606a}
.n-PASS{background:#dafbe1}.n-FAIL{background:#ffebe9;color:#a40e26}.n-WARN{background:#fff8c5;color:#7d4e00}.n-SKIP{background:#eaeef2}.n-BLOCKED{background:#f3e8ff;color:#6639ba}.n-UNTESTED{background:#f6f8fa}
.badge{display:inline-block;color:#fff;border-radius:4px;padding:0 .45rem;font-size:12px;font-weight:700;vertical-align:1px}
.v-PASS{background:#1a7f37;color:#fff}.v-FAIL{background:#cf222e;color:#fff}.v-WARN{background:#bf8700;color:#1f2328}.v-SKIP{background:#8c959f;color:#fff}.v-UNTESTED{background:#e6e9ed;color:#57606a}.v-BLOCKED{background:#8250df;color:#fff}
.t-PASS{color:#1a7f37}.t-FAIL{color:#cf222e}.t-WARN{color:#9a6700}.t-SKIP,.t-UNTESTED{color:#57606a}.t-BLOCKED{color:#6639ba}
.matrix{width:100%}.matrix th{width:15rem;font-weight:600}.matrix .stat{font-weight:400;font-size:12px}.cells{display:flex;flex-wrap:wrap;gap:3px}
.cell{display:inline-block;text-decoration:none;font-size:11.5px;font-weight:600;padding:1px 5px;border-radius:3px;font-family:ui-monospace,monospace}
.cell.known{background-image:repeating-linear-gradient(45deg,transparent 0 4px,rgba(255,255,255,.35) 4px 8px)}.cell sup{font-size:9px;margin-left:1px}
.legend .cell{cursor:default}
.alert{border-radius:8px;padding:.6rem .9rem;margin:.6rem 0;border:1px solid}.alert p{margin:.2rem 0}.alert ul{margin:.3rem 0}.alert.warn{background:#fff8c5;border-color:#d4a72c}.alert.unexpected{background:#ddf4ff;border-color:#54aeff}.alert.preflight{background:#fff;border-color:#57606a;border-left-width:6px}.alert.preflight h2{margin-top:.2rem}
.detail{background:#fff;border:1px solid #d0d7de;border-left-width:6px;border-radius:8px;padding:.7rem 1rem;margin:.8rem 0}
.v-border-FAIL{border-left-color:#cf222e}.v-border-WARN{border-left-color:#bf8700}.v-border-known{border-left-color:#54aeff}.statement{margin:.2rem 0 .4rem;font-size:15px}
.test{border-top:1px dashed #d0d7de;padding-top:.5rem;margin-top:.5rem}.chip{display:inline-block;border-radius:10px;padding:0 .5rem;font-size:12px;font-weight:600;background:#eaeef2}
.s-failed{background:#ffebe9;color:#a40e26}.s-warned{background:#fff8c5;color:#7d4e00}.s-known-failure{background:#ddf4ff;color:#0a3069}.known-note{color:#0a3069}
pre{background:#f6f8fa;border:1px solid #eaeef2;border-radius:6px;padding:.5rem .7rem;overflow:auto;white-space:pre-wrap;word-break:break-word;max-height:28rem;margin:.2rem 0}
pre.err{border-left:4px solid #cf222e}pre.warn{border-left:4px solid #bf8700}pre.replay{border-left:4px solid #0969da}pre.cx{border-left:4px solid #8250df}
.cmd{background:#eaeef2;padding:0 .3rem;border-radius:4px}.rerun{margin:.4rem 0}
.exchange{margin:.25rem 0;background:#fbfcfd;border:1px solid #eaeef2;border-radius:6px;padding:.2rem .5rem}.exchange summary{cursor:pointer}.exchange .n{color:#57606a}
.io{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}@media (max-width:800px){.io{grid-template-columns:1fr}}
details.all summary h2{display:inline;border:0}.rules{width:100%}.rules td:nth-child(4){max-width:34rem}
small{color:#57606a;font-weight:400}a{color:#0969da}
@media print{details{display:block}.top{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;

const SCRIPT = `function filterRules(q){q=q.toLowerCase();document.querySelectorAll('table.rules tbody tr').forEach(function(tr){tr.style.display=!q||tr.textContent.toLowerCase().indexOf(q)>=0?'':'none';});}
function openTarget(){var el=location.hash&&document.getElementById(decodeURIComponent(location.hash.slice(1)));for(var d=el;d;d=d.parentElement){if(d.tagName==='DETAILS')d.open=true;}if(el)el.scrollIntoView();}
window.addEventListener('hashchange',openTarget);window.addEventListener('DOMContentLoaded',openTarget);`;

export function renderHtml(r: ConformanceReport): string {
  // The likeliest root cause first (reporting/verdict.ts, rootCauseOrder).
  const order = r.rootCauses ?? rootCauseOrder(r.rules);
  const flagged = order.map((id) => r.rules.find((x) => x.id === id)).filter((x): x is RuleVerdict => !!x);
  const warnings = r.warnings.length ? `<div class="alert warn" id="run-warnings">${r.warnings.map((w) => `<p>⚠ ${esc(w)}</p>`).join('')}</div>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(r.verdictLine ?? r.verdict)} · CRM API conformance · ${esc(r.target)}</title>
<style>${CSS}</style><script>${SCRIPT}</script></head><body>
${header(r)}
<main>
${preflightBlock(r)}
${warnings}
${expectationsBlock(r)}
<h2>Rules by level and verdict</h2>${counts(r)}
<h2>Areas × rules</h2>${matrix(r)}
<h2>Failed and warned rules (<span id="flagged-count">${flagged.length}</span>)</h2>${flagged.map((x) => detail(r, x)).join('') || '<p>None: every rule that ran passed.</p>'}
${r.untraced.length ? `<h2>Tests without a known rule</h2><ul>${r.untraced.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>` : ''}
${allRules(r)}
<p><small>crm-conformance · generated ${esc(r.generatedAt)} · self-contained page, no network access</small></p>
</main></body></html>`;
}
