/**
 * Docs that exist where they are linked: every relative link of the Markdown files (README.md,
 * CONTRIBUTING.md, CHANGELOG.md, docs/**, …) reaches a file or directory of the repository, and a
 * link of a page the package carries reaches a file the package carries too (`npm pack`'s file
 * list); every repository path the docs and the code's comments name (a token such as
 * `selftest/rules.unit.test.ts`, `specs/support/core/replay.ts`, `reference/faults/<area>.ts`)
 * names a file or directory that exists, a pattern one matches, or an output of the project's
 * scripts (a path .gitignore names, such as docs/benchmarks.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { ROOT } from './helpers.js';
import { commentsOf, git, packedFiles, repositoryFiles } from './repo-files.js';

/** The repository's files (paths from the root, `/`). */
const FILES = repositoryFiles();
/** Their directories, each with every parent. */
const DIRS = new Set(
  FILES.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const exists = (path: string) => FILES.includes(path) || DIRS.has(path);

/** The Markdown pages: every .md of the repository. */
const PAGES = FILES.filter((f) => f.endsWith('.md'));
/** Files searched for repository paths: the code's comments, and the whole of the other files. */
const CODE = /\.(ts|mts|cts|mjs|cjs|js)$/;
const SOURCES = FILES.filter((f) => CODE.test(f) || /\.(md|yml|yaml)$/.test(f) || f === '.ci/run');

/** The top-level directories of the repository: a path token starts with one of them. */
const TOP = [...DIRS].filter((d) => !d.includes('/')).sort();
const TOKEN = new RegExp(`(?<![\\w./@$-])(?:\\.\\.?/)*((?:${TOP.map((d) => d.replace(/\./g, '\\.')).join('|')})/[\\w.*<>…{},/-]*)`, 'g');

/** A path token as a pattern: `<area>`, `…`, `*`, `{a,b}` and a name `x` (`specs/wire/x.spec.ts`) stand for any name. */
function pattern(token: string): RegExp | undefined {
  if (!/[<…*{]|\/x(\.|\/|$)/.test(token)) return undefined;
  const source = token
    .split(/(<[^>]*>|…|\*+|\{[^}]*\}|(?<=\/)x(?=\.|\/|$))/)
    .map((part, i) => (i % 2 ? '[^]*' : part.replace(/[.+?^$()[\]\\|]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}`);
}

/** A token without what follows a path in prose: a full stop, a comma, the `>` closing `<schema from contracts/index.ts>`. */
const bare = (token: string) => token.replace(token.includes('<') ? /[.,;:]+$/ : /[.,;:>]+$/, '');

/** Whether a path token names something of the repository. */
function found(token: string): boolean {
  const path = bare(token).replace(/:\d+(-\d+)?$/, '');
  const p = pattern(path);
  if (p) return FILES.some((f) => p.test(f));
  const name = path.replace(/\/$/, '');
  // A module named as it is imported (`x.js` for `x.ts`).
  return exists(name) || (name.endsWith('.js') && exists(name.replace(/\.js$/, '.ts')));
}

/** Of `paths`, those .gitignore names (outputs of the project's scripts). */
function ignored(paths: string[]): Set<string> {
  if (!paths.length) return new Set();
  const res = git(['check-ignore', '--no-index', '--stdin'], `${paths.join('\n')}\n`);
  return new Set(res.stdout.split('\n').filter(Boolean));
}

/** Relative links of a Markdown page (not URLs, not anchors of the page itself), with their targets from the root. */
function linksOf(page: string): { link: string; target: string }[] {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[^]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((link) => !/^[a-z][a-z+.-]*:/i.test(link) && !link.startsWith('#'))
    .map((link) => ({
      link,
      target: normalize(join(dirname(page), link.split('#')[0]))
        .split(sep)
        .join('/')
        .replace(/\/$/, ''),
    }));
}

test('the repository has the pages its docs link to', () => {
  const broken: string[] = [];
  for (const page of PAGES) for (const { link, target } of linksOf(page)) if (!exists(target)) broken.push(`${page}: (${link})`);
  assert.deepEqual(broken, [], `links to nothing:\n${broken.join('\n')}`);
});

test('a page the package carries links only to files the package carries', () => {
  const packed = packedFiles();
  const has = (target: string) => packed.includes(target) || packed.some((f) => f.startsWith(`${target}/`));
  const shipped = PAGES.filter((p) => packed.includes(p));
  assert.ok(
    shipped.includes('README.md') && shipped.includes('CONTRIBUTING.md') && shipped.includes('CHANGELOG.md'),
    `the package's pages: ${shipped.join(', ')}`,
  );
  const missing: string[] = [];
  for (const page of shipped) for (const { link, target } of linksOf(page)) if (exists(target) && !has(target)) missing.push(`${page}: (${link}) → ${target}`);
  assert.deepEqual(
    missing,
    [],
    `links to files the package lacks (add them to "files" of package.json, or link no further than the package):\n${missing.join('\n')}`,
  );
});

test('every repository path named in the docs and the code exists (or is an output .gitignore names)', () => {
  const named = new Map<string, string[]>();
  for (const file of SOURCES) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    (CODE.test(file) ? commentsOf(text) : text).split('\n').forEach((line, i) => {
      for (const m of line.matchAll(TOKEN)) if (!found(m[1])) named.set(m[1], [...(named.get(m[1]) ?? []), `${file}:${i + 1}`]);
    });
  }
  const outputs = ignored([...named.keys()].map(bare));
  const missing = [...named].filter(([token]) => !outputs.has(bare(token))).map(([token, at]) => `${token} (${at.join(', ')})`);
  assert.deepEqual(missing, [], `paths that name nothing of the repository:\n${missing.join('\n')}`);
  assert.ok(TOP.includes('specs') && TOP.includes('docs'), `top-level directories: ${TOP.join(', ')}`);
});
