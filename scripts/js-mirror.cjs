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
 * It is rebuilt file by file when a source's size or modification time changes, and whole when a
 * `.ts` file is added or removed (an import may then resolve elsewhere); each file is written
 * whole, so parallel runs may build it at once. When anything fails the runner leaves its workers
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

/** esbuild: the one the suite depends on, else the one tsx brings (also the reference server's bundler, scripts/start-reference.mjs). */
function loadEsbuild() {
  try { return require('esbuild'); } catch { /* not beside the suite */ }
  try { return createRequire(require.resolve('tsx/package.json'))('esbuild'); } catch { /* nor beside tsx */ }
  throw new Error('esbuild is not installed');
}

/** Relative specifiers in esbuild's output: `from "…"`, `import "…"`, `import("…")`. */
const RELATIVE = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"(\.\.?\/[^"\n]*)"/g;

/** One source compiled: types removed, import.meta fixed to the source, relative imports resolved. */
async function compile(build, root, rel, mirrored) {
  const file = path.join(root, rel);
  const out = await build.transform(fs.readFileSync(file, 'utf8'), {
    loader: 'ts', format: 'esm', target: `node${process.versions.node}`, platform: 'node', sourcemap: 'inline', sourcefile: file,
    tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true, verbatimModuleSyntax: false } },
    define: {
      'import.meta.url': JSON.stringify(pathToFileURL(file).href),
      'import.meta.filename': JSON.stringify(file),
      'import.meta.dirname': JSON.stringify(path.dirname(file)),
    },
    logLevel: 'silent',
  });
  return out.code.replace(RELATIVE, (whole, lead, spec) => {
    const target = path.posix.join(path.posix.dirname(rel), spec);
    if (target.endsWith('.js') && mirrored.has(`${target.slice(0, -3)}.ts`)) return whole;
    return `${lead}${JSON.stringify(pathToFileURL(path.join(root, target)).href)}`;
  });
}

/**
 * Brings the mirror of the suite at `root` up to date in `dir`; resolves to what the workers need
 * ({ root, dir }: real paths) and how many files it compiled. Throws when it cannot.
 */
async function buildMirror(root, dir) {
  root = fs.realpathSync(root);
  // One mirror per checkout: two checkouts may share node_modules (a link), never a mirror.
  dir ??= path.join(root, 'node_modules', '.cache', 'crm-conformance', 'js', crypto.createHash('sha1').update(root).digest('hex').slice(0, 12));
  const build = loadEsbuild();
  const list = sources(root);
  const mirrored = new Set(list);
  const manifestFile = path.join(dir, 'manifest.json');
  let manifest = {};
  try { manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')); } catch { /* none yet */ }
  const key = `${VERSION} ${build.version} ${process.version} ${list.join(' ')}`;
  const kept = manifest.key === key ? manifest.files ?? {} : {};
  const files = {};
  let compiled = 0;
  fs.mkdirSync(dir, { recursive: true });
  // The mirror's .js files are ES modules whatever package.json says above node_modules.
  const pkg = path.join(dir, 'package.json');
  if (!fs.existsSync(pkg)) writeWhole(pkg, (tmp) => fs.writeFileSync(tmp, '{ "type": "module" }\n'));
  await Promise.all(list.map(async (rel) => {
    const st = fs.statSync(path.join(root, rel));
    const stamp = `${st.size}:${st.mtimeMs}`;
    const target = path.join(dir, `${rel.slice(0, -3)}.js`);
    files[rel] = stamp;
    if (kept[rel] === stamp && fs.existsSync(target)) return;
    const code = await compile(build, root, rel, mirrored);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    writeWhole(target, (tmp) => fs.writeFileSync(tmp, code));
    compiled += 1;
  }));
  if (compiled > 0 || manifest.key !== key) writeWhole(manifestFile, (tmp) => fs.writeFileSync(tmp, JSON.stringify({ key, files })));
  return { root, dir: fs.realpathSync(dir), compiled };
}

/**
 * What a worker imports instead of `specifier`: the mirror of a `.ts` file of the suite (a file URL
 * or path under `mirror.root`), else `specifier` itself. `mirror` is the parsed {@link ENV} value.
 */
function mirrorUrl(specifier, mirror) {
  if (!mirror || typeof specifier !== 'string' || !specifier.endsWith('.ts')) return specifier;
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

module.exports = { ENV, buildMirror, loadEsbuild, mirrorUrl, sources };
