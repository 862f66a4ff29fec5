/**
 * The suite's TypeScript compiled to JavaScript for the workers, so that on Node 20 they start
 * without Playwright's module-loader thread.
 *
 * On Node 20 Playwright compiles TypeScript in a loader thread (`module.register`) that every
 * process starts and that every module it loads goes through, one round trip each: a worker
 * waits 0.4-0.5 s for it at start-up while four workers start on two cores (Node 22.15 and later
 * have in-thread hooks, `module.registerHooks`, which Playwright uses instead). A worker started
 * with PW_DISABLE_TS_ESM=1 starts no such thread but can then load only JavaScript. So the runner
 * (playwright.config.ts, through specs/support/core/config.ts) keeps a mirror of every `.ts` file
 * of the suite in node_modules/.cache/crm-conformance/js/<checkout>, compiled by esbuild (the one tsx brings,
 * which also bundles the reference server), and the workers' `import()` of a `.ts` file of the
 * suite, which scripts/compile-cache.cjs already routes through itself, loads its mirror
 * ({@link mirrorUrl}). The runner itself still loads the TypeScript, through Playwright's loader:
 * test titles and locations come from there.
 *
 * A mirror file is the source with its types removed (esbuild's `transform` for this Node, the
 * settings of tsconfig.json), plus:
 * - an inline source map to the `.ts` file, so that stack traces, error snippets and step
 *   locations in a worker name the TypeScript source and line, as before;
 * - `import.meta.url`, `.filename` and `.dirname` of the source file, so that paths computed from
 *   them (the suite's root, files beside it, the webhook hub started with tsx) stay the same;
 * - each relative import of another `.ts` file of the suite kept relative (it loads that file's
 *   mirror); any other relative import (a JSON file, a `.cjs` script) names the original file.
 *   The imports are found in esbuild's output as text (`from "./…"`, `import "./…"`,
 *   `import("./…")`, the forms esbuild writes), not parsed: a string in the code with exactly
 *   that text would be changed too (none in the suite). An `import()` of a computed path is left
 *   as it is.
 *
 * The runner also removes the mirrors of checkouts that no longer exist ({@link pruneMirrors}).
 * It is rebuilt file by file when a source's size or modification time changes, and whole when a
 * `.ts` file is added or removed (an import may then resolve elsewhere) or esbuild or Node changes;
 * each file is written whole, so parallel runs may build it at once. The runner brings it up to
 * date before its workers start, and each worker checks it again (a few milliseconds) before it
 * loads anything of it, so that a runner that stays up between runs (UI and watch modes) never
 * hands its workers code older than the sources. When anything fails the runner leaves its workers
 * to Playwright's loader, as without the mirror. Plain CommonJS: loaded by the workers' compile
 * cache hook before anything else.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { writeWhole } = require('./write-whole.cjs');

/** Bumped when the mirror's content changes for the same sources. */
const VERSION = 1;
/** Directories of the suite never mirrored: packages, builds and run output. */
const SKIP = new Set(['node_modules', 'dist', 'reports', 'test-results', 'playwright-report', 'allure-results']);
/** The environment variable that tells a worker where the mirror is (set by the runner). */
const ENV = 'CRM_JS_MIRROR';

/** The `.ts` files of the suite (relative paths, sorted), outside {@link SKIP} and dot-directories. */
function sources(root) {
  const found = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP.has(e.name) && !e.name.startsWith('.')) walk(child);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

/** Where esbuild is: the one the suite depends on, else the one tsx brings. */
function esbuildEntry() {
  try { return require.resolve('esbuild'); } catch { /* not beside the suite */ }
  try { return createRequire(require.resolve('tsx/package.json')).resolve('esbuild'); } catch { /* nor beside tsx */ }
  throw new Error('esbuild is not installed');
}

/** esbuild (see {@link esbuildEntry}); also the reference server's bundler, scripts/start-reference.mjs. */
function loadEsbuild() {
  return require(esbuildEntry());
}

/** Relative specifiers in esbuild's output: `from "…"`, `import "…"`, `import("…")`. */
const RELATIVE = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"(\.\.?\/[^"\n]*)"/g;

/** esbuild's settings for one source: types removed for this Node, import.meta of the source. */
function transformOptions(file) {
  return {
    loader: 'ts', format: 'esm', target: `node${process.versions.node}`, platform: 'node', sourcemap: 'inline', sourcefile: file,
    tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true, verbatimModuleSyntax: false } },
    define: {
      'import.meta.url': JSON.stringify(pathToFileURL(file).href),
      'import.meta.filename': JSON.stringify(file),
      'import.meta.dirname': JSON.stringify(path.dirname(file)),
    },
    logLevel: 'silent',
  };
}

/**
 * What it takes to bring the mirror in `dir` up to date: the sources to compile (`todo`), how to
 * write one compiled, and `finish()` to record the state (then what the workers need: { root, dir }
 * as real paths, and how many files were compiled). esbuild itself is loaded only when needed.
 */
function plan(root, dir) {
  const list = sources(root);
  const mirrored = new Set(list);
  const manifestFile = path.join(dir, 'manifest.json');
  let manifest = {};
  try { manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')); } catch { /* none yet */ }
  const entry = esbuildEntry();
  const key = `${VERSION} ${entry} ${fs.statSync(entry).mtimeMs} ${process.version} ${list.join(' ')}`;
  const kept = manifest.key === key ? manifest.files ?? {} : {};
  const files = {};
  const todo = [];
  fs.mkdirSync(dir, { recursive: true });
  // The mirror's .js files are ES modules whatever package.json says above node_modules.
  const pkg = path.join(dir, 'package.json');
  if (!fs.existsSync(pkg)) writeWhole(pkg, (tmp) => fs.writeFileSync(tmp, '{ "type": "module" }\n'));
  for (const rel of list) {
    const st = fs.statSync(path.join(root, rel));
    files[rel] = `${st.size}:${st.mtimeMs}`;
    if (kept[rel] !== files[rel] || !fs.existsSync(path.join(dir, `${rel.slice(0, -3)}.js`))) todo.push(rel);
  }
  return {
    todo,
    source: (rel) => path.join(root, rel),
    /** Writes the compiled `code` of `rel`, its relative imports resolved (see the header). */
    write(rel, code) {
      const out = code.replace(RELATIVE, (whole, lead, spec) => {
        const target = path.posix.join(path.posix.dirname(rel), spec);
        if (target.endsWith('.js') && mirrored.has(`${target.slice(0, -3)}.ts`)) return whole;
        return `${lead}${JSON.stringify(pathToFileURL(path.join(root, target)).href)}`;
      });
      const target = path.join(dir, `${rel.slice(0, -3)}.js`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      writeWhole(target, (tmp) => fs.writeFileSync(tmp, out));
    },
    finish() {
      if (todo.length > 0 || manifest.key !== key || manifest.root !== root) writeWhole(manifestFile, (tmp) => fs.writeFileSync(tmp, JSON.stringify({ key, root, files })));
      return { root, dir: fs.realpathSync(dir), compiled: todo.length };
    },
  };
}

/** Where the mirror of the suite at `root` (a real path) is kept: one per checkout, since two checkouts may share node_modules (a link). */
function mirrorDir(root) {
  return path.join(root, 'node_modules', '.cache', 'crm-conformance', 'js', crypto.createHash('sha1').update(root).digest('hex').slice(0, 12));
}

/**
 * Removes the mirrors in `parent` (beside `keep`) of checkouts that no longer exist, as their
 * manifests say: a worktree or a clone sharing node_modules leaves its mirror behind (4-5 MB each).
 * A mirror whose manifest names no checkout is left alone. Answers the directories removed.
 */
function pruneMirrors(parent, keep) {
  const removed = [];
  let names = [];
  try { names = fs.readdirSync(parent); } catch { return removed; }
  for (const name of names) {
    const dir = path.join(parent, name);
    if (dir === keep) continue;
    let root;
    try { root = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).root; } catch { continue; }
    if (typeof root !== 'string' || fs.existsSync(root)) continue;
    try { fs.rmSync(dir, { recursive: true, force: true }); removed.push(dir); } catch { /* another run's, or not ours to remove */ }
  }
  return removed;
}

/**
 * Brings the mirror of the suite at `root` up to date (in the runner, before the workers start);
 * resolves to what the workers need ({ root, dir }: real paths) and how many files it compiled.
 * Throws when it cannot.
 */
async function buildMirror(root, dir) {
  root = fs.realpathSync(root);
  if (dir === undefined) {
    dir = mirrorDir(root);
    pruneMirrors(path.dirname(dir), dir);
  }
  const p = plan(root, dir);
  if (p.todo.length > 0) {
    const build = loadEsbuild();
    await Promise.all(p.todo.map(async (rel) => p.write(rel, (await build.transform(fs.readFileSync(p.source(rel), 'utf8'), transformOptions(p.source(rel)))).code)));
  }
  return p.finish();
}

/**
 * The same in a worker, at its first import of a suite file, synchronously: a source changed since
 * the runner built the mirror (a runner that stays up, as in Playwright's UI and watch modes, reads
 * its configuration once) is compiled again before the worker loads anything of it.
 */
function refreshMirror(mirror) {
  const p = plan(mirror.root, mirror.dir);
  if (p.todo.length > 0) {
    const build = loadEsbuild();
    for (const rel of p.todo) p.write(rel, build.transformSync(fs.readFileSync(p.source(rel), 'utf8'), transformOptions(p.source(rel))).code);
  }
  return p.finish();
}

/** The mirror this process has brought up to date (see {@link refreshMirror}). */
let refreshed;

/**
 * What a worker imports instead of `specifier`: the mirror of a `.ts` file of the suite (a file URL
 * or path under `mirror.root`), else `specifier` itself. `mirror` is the parsed {@link ENV} value.
 */
function mirrorUrl(specifier, mirror) {
  if (!mirror || typeof specifier !== 'string' || !specifier.endsWith('.ts')) return specifier;
  if (refreshed !== mirror.dir) {
    refreshed = mirror.dir;
    try { refreshMirror(mirror); } catch { /* the mirror as the runner left it */ }
  }
  let file;
  try {
    file = fs.realpathSync(specifier.startsWith('file:') ? fileURLToPath(specifier) : specifier);
  } catch {
    return specifier;
  }
  const rel = path.relative(mirror.root, file);
  if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep).some((p) => SKIP.has(p) || p.startsWith('.'))) return specifier;
  return pathToFileURL(path.join(mirror.dir, `${rel.slice(0, -3)}.js`)).href;
}

module.exports = { ENV, buildMirror, loadEsbuild, mirrorDir, mirrorUrl, pruneMirrors, refreshMirror, sources };
