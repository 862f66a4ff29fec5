/**
 * scripts/compile-cache.cjs: a package file compiled from the cache behaves as Node's own compile
 * of it, `import()` included (direct, through eval, through new Function: what Playwright's
 * bundles do); files outside the cached packages, and files that mention `import(` in a string
 * that is not code, are left to Node; CRM_COMPILE_CACHE=0 keeps the workers off it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { COMPILE_CACHE, loadConfig, useCompileCache } from '../specs/support/core/config.js';
import { scratchDir } from './helpers.js';

/** Runs `main` in a fresh Node, with the hook (the cache in `cache`) or without; its printed JSON and the hook's counts. */
function run(cache: string | undefined, main: string): { out: unknown; stats?: { fromCache: number; compiled: number } } {
  const script = `Promise.resolve(require(${JSON.stringify(main)})()).then((out) => console.log(JSON.stringify({ out, stats: globalThis.__crmConformanceCompileCache })))`;
  const hook = cache ? ['--require', COMPILE_CACHE] : [];
  const r = spawnSync(process.execPath, [...hook, '-e', script], { encoding: 'utf8', env: { ...process.env, CRM_COMPILE_CACHE_DIR: cache ?? '', NODE_OPTIONS: '' } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '', 'nothing on stderr (no warning)');
  return JSON.parse(r.stdout);
}

test('A cached package file loads and imports as it does uncached, and its second load comes from the cache', { skip: 'enableCompileCache' in Module && 'Node has its own compile cache here (module.enableCompileCache), which the hook turns on' }, () => {
  const dir = scratchDir('compile-cache-');
  const cache = join(dir, 'cache');
  const lib = join(dir, 'node_modules', 'playwright', 'lib');
  mkdirSync(lib, { recursive: true });
  const pkg = join(lib, 'bundle.js');
  writeFileSync(pkg, [
    '#!/usr/bin/env node',
    '"use strict";',
    'const { helper } = require("./helper.js");',
    'module.exports = async () => ({',
    '  direct: typeof (await import("node:os")).cpus,',
    '  viaEval: typeof (await eval(`import(${JSON.stringify("node:path")})`)).join,',
    '  viaFunction: typeof (await new Function(\'return import("node:url")\')()).pathToFileURL,',
    '  helper: helper(), file: __filename, dir: __dirname, resolved: require.resolve("./helper.js"), paths: require.resolve.paths("x").length > 0,',
    '  main: require.main === process.mainModule, cached: Object.keys(require.cache).length > 0, self: module.exports === exports || typeof module.exports,',
    '});',
  ].join('\n'));
  writeFileSync(join(lib, 'helper.js'), 'exports.helper = () => "helped";');
  const outside = join(dir, 'own.js');
  writeFileSync(outside, 'module.exports = () => "own";');
  // A string that mentions import( without being code: the file is left to Node, its text intact.
  const message = join(lib, 'message.js');
  writeFileSync(message, 'module.exports = () => "`import()` takes one or two arguments; x.import(y) is a method";');

  // What Node's own compile gives (no hook) is what the cached file must give, cold and warm.
  const expected = run(undefined, pkg).out;
  assert.equal((expected as { viaEval: string }).viaEval, 'function');
  assert.equal((expected as { file: string }).file, pkg);
  const cold = run(cache, pkg);
  assert.deepEqual(cold.out, expected);
  assert.deepEqual(cold.stats, { fromCache: 0, compiled: 2 });
  assert.equal(readdirSync(cache).length, 2, 'both package files kept');
  const warm = run(cache, pkg);
  assert.deepEqual(warm.out, expected);
  assert.deepEqual(warm.stats, { fromCache: 2, compiled: 0 });
  assert.deepEqual(run(cache, outside), { out: 'own', stats: { fromCache: 0, compiled: 0 } });
  assert.deepEqual(run(cache, message), { out: '`import()` takes one or two arguments; x.import(y) is a method', stats: { fromCache: 0, compiled: 0 } });
});

test('The workers load the cache through NODE_OPTIONS, unless CRM_COMPILE_CACHE=0', async () => {
  const base = { CRM_BASE_URL: 'http://127.0.0.1:9', CRM_ACCESS_TOKEN: 't', CRM_USER_EMAIL: 'a@b.example' };
  const on: NodeJS.ProcessEnv = { ...base, NODE_OPTIONS: '--max-old-space-size=4096' };
  await useCompileCache(loadConfig(on), on);
  assert.equal(on.NODE_OPTIONS, `--max-old-space-size=4096 --require=${JSON.stringify(COMPILE_CACHE)}`);
  await useCompileCache(loadConfig(on), on);
  assert.equal(on.NODE_OPTIONS, `--max-old-space-size=4096 --require=${JSON.stringify(COMPILE_CACHE)}`, 'added once');
  const off: NodeJS.ProcessEnv = { ...base, CRM_COMPILE_CACHE: '0' };
  await useCompileCache(loadConfig(off), off);
  assert.equal(off.NODE_OPTIONS, undefined);
  // Inherited from a run that had it on (a run started by a worker or a tool of the suite): taken
  // out, with the JavaScript mirror of the suite (scripts/js-mirror.cjs) its workers loaded.
  const inherited: NodeJS.ProcessEnv = {
    ...base, CRM_COMPILE_CACHE: '0', NODE_OPTIONS: `--max-old-space-size=4096 --require=${JSON.stringify(COMPILE_CACHE)}`,
    CRM_JS_MIRROR: JSON.stringify({ root: '/x', dir: '/y' }), PW_DISABLE_TS_ESM: '1',
  };
  await useCompileCache(loadConfig(inherited), inherited);
  assert.equal(inherited.NODE_OPTIONS, '--max-old-space-size=4096');
  assert.equal(inherited.CRM_JS_MIRROR, undefined);
  assert.equal(inherited.PW_DISABLE_TS_ESM, undefined);
  // The user's own PW_DISABLE_TS_ESM (no mirror of ours) is theirs.
  const own: NodeJS.ProcessEnv = { ...base, CRM_COMPILE_CACHE: '0', PW_DISABLE_TS_ESM: '1' };
  await useCompileCache(loadConfig(own), own);
  assert.equal(own.PW_DISABLE_TS_ESM, '1');
});
