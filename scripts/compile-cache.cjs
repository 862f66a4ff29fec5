/**
 * A V8 code cache for the CommonJS packages every Playwright worker compiles again: playwright,
 * playwright-core and undici, some 8 MB of JavaScript. Node 22 has this built in
 * (module.enableCompileCache), and this file turns it on there; Node 20 has not, so this does it the
 * way v8-compile-cache does: each file of those packages is compiled with the code V8 produced for
 * it in an earlier run, and a process that found none keeps, when it ends, the code of every
 * function it compiled (so the next worker skips the lazy compiles as well as the parse).
 * Measured on the default run: 17.2 s of CPU against 18.4 s, 12.9 s of wall time against 13.8 s
 * (4 alternated pairs; README, Benchmark).
 *
 * Node 20 loses the `import()` callback of a script compiled from cached data
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), and these packages load test files and configuration with
 * `import()`, some of it through `eval`. So the text `import(` of a cached file, in code or in a
 * string it hands to eval or new Function, calls `globalThis.__crmConformanceImport(`, an
 * `import()` made here: the same loader, the same hooks (Playwright's TypeScript transform among
 * them). Every `import()` those packages make names an absolute URL, a `node:` module or a
 * package, which resolve the same from here. A file that mentions `import(` in any other string
 * (Babel's error messages) is left to Node, so that no text changes. The reading is per line, not
 * a parse (rewritable() below): a quote before `import(` on its line means a string, `//` or `/*`
 * a comment; for the installed versions it leaves exactly Babel's bundle and the trace viewer's
 * browser assets to Node. The suite's own runs (npm test, with the OAuth specs in Chromium) run
 * under the cache.
 *
 * Loaded into the workers with NODE_OPTIONS=--require (playwright.config.ts; CRM_COMPILE_CACHE=0 turns
 * it off). A cache that cannot be read or written costs only its speed (a file that cannot be
 * compiled here goes to Node's own compile; data V8 rejects is made again). The cache lives in node_modules/.cache/crm-conformance/v8, keyed by file, size,
 * modification time, V8's version and this file's version of the rewrite.
 */
'use strict';
const Module = require('node:module');
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { writeWhole } = require('./write-whole.cjs');
const jsMirror = require('./js-mirror.cjs');

const VERSION = 1;
// CRM_COMPILE_CACHE_DIR (internal): another place, for the self-test.
const dir = process.env.CRM_COMPILE_CACHE_DIR || path.join(__dirname, '..', 'node_modules', '.cache', 'crm-conformance', 'v8');
/** Kept entries unused this long are removed when a process keeps new ones (an upgrade's leftovers). */
const STALE_MS = 30 * 24 * 3600_000;
/** The packages cached: those a worker of the suite loads (each file checked by rewritable() first). */
const PACKAGES = new RegExp(`[\\\\/]node_modules[\\\\/](?:playwright|playwright-core|undici)[\\\\/]`);
/** `import(` where it is a call (not `.import(` or `reimport(`). */
const IMPORT_CALL = /(?<![\w$.])import\(/g;
/** Before an `import(` on its line: a comment, or a string handed straight to eval or new Function. */
const COMMENT = /\/\/|^\s*\*|\/\*/;
const EVALUATED = /\b(?:eval|Function)\(\s*['"`][^'"`]*$/;

/**
 * Whether every `import(` of the file is one the rewrite keeps working: a call in the code, a
 * comment, or a string evaluated as code. Any other (a quote before it on its line: a message
 * mentioning `import()`, say) leaves the file to Node, whose compile needs no rewrite.
 */
function rewritable(content) {
  for (const m of content.matchAll(IMPORT_CALL)) {
    const before = content.slice(content.lastIndexOf('\n', m.index) + 1, m.index);
    if (COMMENT.test(before) || EVALUATED.test(before)) continue;
    if (/['"`]/.test(before)) return false;
  }
  return true;
}

function keyOf(filename) {
  const st = fs.statSync(filename);
  const id = `${VERSION}\0${process.versions.v8}\0${filename}\0${st.size}\0${st.mtimeMs}`;
  return path.join(dir, crypto.createHash('sha1').update(id).digest('hex'));
}

/** The require function Node gives a module (lib/internal/modules/helpers.js makeRequireFunction). */
function requireFor(mod) {
  const require = (id) => mod.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/** What this process compiled from the cache and without it (read by the self-test). */
const stats = { fromCache: 0, compiled: 0 };

function install() {
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache(dir);
    return;
  }
  const nodeCompile = Module.prototype._compile;
  /** Scripts compiled without usable cached data: their code is kept when the process ends. */
  const toKeep = [];
  // A worker of a run whose runner keeps the suite compiled to JavaScript (scripts/js-mirror.cjs)
  // loads that instead of the TypeScript files Playwright names.
  let mirror;
  try { mirror = process.env[jsMirror.ENV] ? JSON.parse(process.env[jsMirror.ENV]) : undefined; } catch { /* none */ }
  globalThis.__crmConformanceImport = mirror
    ? (specifier, options) => import(jsMirror.mirrorUrl(specifier, mirror), options)
    : (specifier, options) => import(specifier, options);

  Module.prototype._compile = function compile(content, filename) {
    if (!PACKAGES.test(filename) || !rewritable(content)) return nodeCompile.call(this, content, filename);
    let key, cachedData, script;
    try {
      key = keyOf(filename);
      try { cachedData = fs.readFileSync(key); } catch { /* not kept yet */ }
      const source = (content.startsWith('#!') ? `//${content.slice(2)}` : content).replace(IMPORT_CALL, 'globalThis.__crmConformanceImport(');
      script = new vm.Script(Module.wrap(source), { filename, cachedData });
    } catch {
      return nodeCompile.call(this, content, filename);
    }
    const fresh = !cachedData || script.cachedDataRejected;
    if (fresh) toKeep.push([key, script]);
    stats[fresh ? 'compiled' : 'fromCache'] += 1;
    const fn = script.runInThisContext({ displayErrors: true });
    return fn.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename));
  };

  process.once('exit', () => {
    if (toKeep.length === 0) return;
    try { fs.mkdirSync(dir, { recursive: true }); } catch { return; }
    try {
      for (const name of fs.readdirSync(dir)) {
        const file = path.join(dir, name);
        if (Date.now() - fs.statSync(file).atimeMs > STALE_MS) fs.rmSync(file, { force: true });
      }
    } catch { /* another process's */ }
    for (const [key, script] of toKeep) {
      // Whole or not at all: workers ending together write the same files.
      try { writeWhole(key, (tmp) => fs.writeFileSync(tmp, script.createCachedData())); } catch { /* kept next time */ }
    }
  });
}

// Once per process, however often it is required (NODE_OPTIONS and the configuration both may).
if (!globalThis.__crmConformanceCompileCache) {
  globalThis.__crmConformanceCompileCache = stats;
  install();
}
