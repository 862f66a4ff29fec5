/**
 * Commands that read finished runs (report directories or their conformance.json):
 *
 *   diff <before> <after>   what changed, rule by rule (reporting/diff.ts); exit 1 on a MUST regression
 *   compare <run>…          runs side by side, one HTML page and Markdown (reporting/compare.ts)
 *   summary [run]           the job summary and annotations CI shows (reporting/ci-summary.ts)
 *
 * A usage error (an unknown option, a run that cannot be read) exits 2 with the fix.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { annotationCommands, annotationsFor, COMMENT_LIMIT, renderSummary, STEP_SUMMARY_LIMIT } from '../reporting/ci-summary.js';
import { compareRuns, renderCompareHtml, renderCompareMarkdown, renderCompareText } from '../reporting/compare.js';
import { diffRuns, renderDiffMarkdown, renderDiffText } from '../reporting/diff.js';
import { readRun, RunReadError, type RunView } from '../reporting/runs.js';

export const DIFF_USAGE = `usage: crm-conformance diff <before> <after> [--format text|markdown|json] [--markdown file] [--json file]

  <before>, <after>   report directories (holding conformance.json) or conformance.json files;
                      name=<path> names a run (default: its directory's name)
  --format            what goes to stdout (default text)
  --markdown, --json  also write the diff there
Exit status: 1 when a MUST rule passed in <before> and fails in <after> (unless <after>'s baseline
lists it), 0 otherwise, 2 on a usage error.`;

export const COMPARE_USAGE = `usage: crm-conformance compare <run> <run> [<run>…] [--out dir]

  <run>    a report directory or conformance.json; name=<path> names its column
  --out    where conformance-compare.html, .md and .json go (default reports/compare)`;

export const SUMMARY_USAGE = `usage: crm-conformance summary [<run>] [--base <run>] [--github] [--out file] [--comment file] [--max-bytes n]

  <run>        the run's report directory (default $CRM_REPORT_DIR, else reports)
  --base       an earlier run (the base branch's, say): the summary adds the diff against it;
               a base that is not there is said in the summary, not an error
  --github     append the summary to $GITHUB_STEP_SUMMARY and print error annotations (at most 10)
  --out        write the summary there instead of stdout
  --comment    also write a PR comment's body there (within GitHub's 65,536 characters)
  --max-bytes  the summary's size limit (default 1 MiB, GitHub's)`;

class UsageError extends Error {}

/** Splits arguments into positionals and `--name value` / `--name=value` options; `flags` take no value. */
function parseArgs(args: string[], options: string[], flags: string[] = []): { positional: string[]; opts: Map<string, string> } {
  const positional: string[] = [];
  const opts = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
    if (flags.includes(name)) opts.set(name, 'true');
    else if (options.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      opts.set(name, value);
    } else throw new UsageError(`unknown option ${a}`);
  }
  return { positional, opts };
}

function write(file: string, text: string): string {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text.endsWith('\n') ? text : `${text}\n`);
  return relative(process.cwd(), path) || path;
}

/** Runs a command body; a usage error or an unreadable run prints the message and the usage, exit 2. */
function guarded(name: string, usage: string, args: string[], body: () => number): number {
  if (args.includes('-h') || args.includes('--help')) {
    console.log(usage);
    return 0;
  }
  try {
    return body();
  } catch (err) {
    if (err instanceof UsageError || err instanceof RunReadError) {
      console.error(`crm-conformance ${name}: ${err.message}\n\n${usage}`);
      return 2;
    }
    throw err;
  }
}

export function diffCommand(args: string[]): number {
  return guarded('diff', DIFF_USAGE, args, () => {
    const { positional, opts } = parseArgs(args, ['format', 'markdown', 'json']);
    if (positional.length !== 2) throw new UsageError(`name two runs, before and after (${positional.length} given)`);
    const format = opts.get('format') ?? 'text';
    if (!['text', 'markdown', 'json'].includes(format)) throw new UsageError(`--format must be text, markdown or json (not ${format})`);
    const d = diffRuns(readRun(positional[0]), readRun(positional[1]));
    const json = JSON.stringify(d, null, 2);
    console.log(format === 'json' ? json : format === 'markdown' ? renderDiffMarkdown(d) : renderDiffText(d));
    const written = [
      ...(opts.has('markdown') ? [write(opts.get('markdown')!, renderDiffMarkdown(d))] : []),
      ...(opts.has('json') ? [write(opts.get('json')!, json)] : []),
    ];
    if (written.length) (format === 'text' ? console.log : console.error)(`Wrote ${written.join(', ')}.`);
    return d.exitCode;
  });
}

export function compareCommand(args: string[]): number {
  return guarded('compare', COMPARE_USAGE, args, () => {
    const { positional, opts } = parseArgs(args, ['out']);
    if (positional.length < 2)
      throw new UsageError(`name at least two runs (${positional.length} given); for two, \`crm-conformance diff\` also says what changed`);
    const runs = positional.map((p) => readRun(p));
    const labels = runs.map((r) => r.label);
    const twice = labels.filter((l, i) => labels.indexOf(l) !== i);
    // Two runs of the same name (reports/a/x and reports/b/x): the columns are told apart by their place.
    if (twice.length) runs.forEach((r, i) => twice.includes(r.label) && (r.label = `${r.label} (${i + 1})`));
    const c = compareRuns(runs);
    const out = opts.get('out') ?? 'reports/compare';
    const files = [
      write(resolve(out, 'conformance-compare.html'), renderCompareHtml(c)),
      write(resolve(out, 'conformance-compare.md'), renderCompareMarkdown(c)),
      write(resolve(out, 'conformance-compare.json'), JSON.stringify(c, null, 2)),
    ];
    console.log(`${renderCompareText(c)}\nPage: ${files[0]} (opens offline); Markdown: ${files[1]}; JSON: ${files[2]}.`);
    return 0;
  });
}

export function summaryCommand(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  return guarded('summary', SUMMARY_USAGE, args, () => {
    const { positional, opts } = parseArgs(args, ['base', 'out', 'comment', 'max-bytes'], ['github']);
    if (positional.length > 1) throw new UsageError(`name one run (${positional.length} given); --base names the earlier one`);
    const maxBytes = opts.has('max-bytes') ? Number(opts.get('max-bytes')) : STEP_SUMMARY_LIMIT;
    if (!Number.isInteger(maxBytes) || maxBytes < 4096) throw new UsageError('--max-bytes must be a whole number of bytes, at least 4096');
    const github = opts.has('github');
    if (github && !env.GITHUB_STEP_SUMMARY)
      throw new UsageError('--github: GITHUB_STEP_SUMMARY is not set (not a GitHub Actions step); without --github the summary goes to stdout or --out');
    const run = readRun(positional[0] ?? env.CRM_REPORT_DIR ?? 'reports');
    let base: RunView | undefined;
    let baseNote: string | undefined;
    if (opts.has('base')) {
      try {
        base = readRun(opts.get('base')!);
      } catch (err) {
        if (!(err instanceof RunReadError)) throw err;
        baseNote = `No diff: the base run could not be read (${err.message}).`;
      }
    }
    const diff = base ? diffRuns(base, run) : undefined;
    const markdown = renderSummary(run, { diff, baseNote, maxBytes });
    if (opts.has('comment')) write(opts.get('comment')!, renderSummary(run, { diff, baseNote, maxBytes: Math.min(maxBytes, COMMENT_LIMIT), comment: true }));
    if (github) {
      appendFileSync(env.GITHUB_STEP_SUMMARY!, `${markdown}\n`);
      const annotations = annotationsFor(run, diff);
      for (const line of annotationCommands(annotations)) console.log(line);
      if (baseNote) console.log(annotationCommands([{ title: 'crm-conformance: no diff', message: baseNote }], 'warning')[0]);
      console.log(
        `crm-conformance summary: ${run.verdictLine}; ${Buffer.byteLength(markdown)} bytes to the job summary, ${annotations.length} annotation(s)` +
          (diff ? `; against ${diff.before.label}: ${diff.mustRegressions} MUST regression(s)` : ''),
      );
    } else if (opts.has('out')) console.log(`Wrote ${write(opts.get('out')!, markdown)}.`);
    else console.log(markdown);
    return 0;
  });
}
