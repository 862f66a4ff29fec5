/**
 * scripts/js-mirror.cjs: the suite's TypeScript compiled to JavaScript for the workers. A mirrored
 * module runs as its source would (imports of the suite's own files, of JSON and CommonJS files,
 * import.meta), its stack traces name the TypeScript source and line, it is rebuilt only for what
 * changed (in the runner, and again in a worker for what changed after it), and a worker's import of
 * a `.ts` file of the suite loads its mirror while any other import is left as it is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildMirror, mirrorUrl, pruneMirrors, refreshMirror, sources } from '../scripts/js-mirror.cjs';
import { scratchDir } from './helpers.js';

/** A small suite: a module importing another .ts file, a JSON file and a CommonJS script. */
function suite(): string {
  const root = realpathSync(scratchDir('js-mirror-'));
  const put = (rel: string, text: string) => {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  put('package.json', '{ "type": "module" }');
  put('lib/times.ts', 'export const times = (x: number, by: number): number => x * by;\n');
  put('data.json', '{ "n": 3 }');
  put('scripts/w.cjs', 'exports.w = 4;');
  put('specs/a.spec.ts', [
    "import type { Server } from 'node:http';",
    "import { times } from '../lib/times.js';",
    "import data from '../data.json' with { type: 'json' };",
    "import { w } from '../scripts/w.cjs';",
    'interface Unused { server: Server }',
    'export const url: string = import.meta.url;',
    'export const dir = import.meta.dirname;',
    'export const sum = times(2, 10) + data.n + w;',
    'export class Holder { constructor(private readonly value: number) {} get(): number { return this.value; } }',
    '',
    'export function fail(): never {',
    "  throw new Error('failed here');",
    '}',
    '',
  ].join('\n'));
  put('node_modules/pkg/x.ts', 'export const x: number = 1;');
  put('.hidden/h.ts', 'export const h: number = 1;');
  put('dist/d.ts', 'export const d: number = 1;');
  return root;
}

/** Runs `code` (an ES module) in a fresh Node with source maps on: its stdout and stderr. */
function node(code: string): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', code], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return { stdout: r.stdout, stderr: r.stderr };
}

test('A mirrored module runs as its TypeScript source would, and its stack traces name the source', async () => {
  const root = suite();
  assert.deepEqual(sources(root), ['lib/times.ts', 'specs/a.spec.ts'], 'packages, dot-directories and builds are not mirrored');
  const mirror = await buildMirror(root);
  assert.equal(mirror.compiled, 2);
  const source = join(root, 'specs/a.spec.ts');
  const target = mirrorUrl(pathToFileURL(source).href, mirror) as string;
  assert.equal(target, pathToFileURL(join(mirror.dir, 'specs/a.spec.js')).href);

  const ran = node(`const m = await import(${JSON.stringify(target)}); console.log(JSON.stringify({ url: m.url, dir: m.dir, sum: m.sum, held: new m.Holder(7).get() })); m.fail();`);
  assert.ok(ran.stdout, ran.stderr);
  assert.deepEqual(JSON.parse(ran.stdout), { url: pathToFileURL(source).href, dir: join(root, 'specs'), sum: 27, held: 7 });
  assert.match(ran.stderr, /failed here/);
  assert.ok(ran.stderr.includes(`${source}:12:`), `the stack names the source and line:\n${ran.stderr}`);
  // The suite's own import stays in the mirror; the others name the original files.
  const code = readFileSync(new URL(target), 'utf8');
  assert.match(code, /from "\.\.\/lib\/times\.js"/);
  assert.ok(code.includes(JSON.stringify(pathToFileURL(join(root, 'data.json')).href)));
  assert.ok(code.includes(JSON.stringify(pathToFileURL(join(root, 'scripts/w.cjs')).href)));
});

test('The mirror is rebuilt for the files that changed, and whole when a file is added', async () => {
  const root = suite();
  assert.equal((await buildMirror(root)).compiled, 2);
  assert.equal((await buildMirror(root)).compiled, 0, 'nothing changed');
  writeFileSync(join(root, 'lib/times.ts'), 'export const times = (x: number, by: number): number => x * by * 1;\n');
  assert.equal((await buildMirror(root)).compiled, 1, 'one source changed');
  writeFileSync(join(root, 'lib/plus.ts'), 'export const plus = (x: number): number => x + 1;\n');
  assert.equal((await buildMirror(root)).compiled, 3, 'a file added: an import may resolve elsewhere now');
});

test('A worker compiles again what changed after the runner built the mirror, before it loads any of it', async () => {
  const root = suite();
  const mirror = await buildMirror(root);
  const compiled = join(mirror.dir, 'lib/times.js');
  assert.equal(refreshMirror(mirror).compiled, 0, 'nothing changed');
  // Edited between runs while the runner stays up (UI and watch modes read the configuration once).
  writeFileSync(join(root, 'lib/times.ts'), 'export const times = (x: number, by: number): number => x * by + 1;\n');
  mirrorUrl(pathToFileURL(join(root, 'specs/a.spec.ts')).href, mirror);
  assert.match(readFileSync(compiled, 'utf8'), /x \* by \+ 1/, 'the first import of the worker brought the edit in');
  assert.equal(refreshMirror(mirror).compiled, 0);
});

test('A worker loads the mirror of a .ts file of the suite, and any other module as named', async () => {
  const root = suite();
  const mirror = await buildMirror(root);
  const spec = join(root, 'specs/a.spec.ts');
  const expected = pathToFileURL(join(mirror.dir, 'specs/a.spec.js')).href;
  assert.equal(mirrorUrl(pathToFileURL(spec).href, mirror), expected, 'a file URL');
  assert.equal(mirrorUrl(spec, mirror), expected, 'a path');
  for (const other of [pathToFileURL(join(root, 'scripts/w.cjs')).href, join(root, 'node_modules/pkg/x.ts'), join(root, '.hidden/h.ts'), 'node:path', 'zod', '/elsewhere/x.ts']) {
    assert.equal(mirrorUrl(other, mirror), other, other);
  }
  assert.equal(mirrorUrl(spec, undefined), spec, 'no mirror: the file itself');
});

test('The runner removes the mirrors of checkouts that no longer exist, and only those', async () => {
  const root = suite();
  const mirror = await buildMirror(root);
  const parent = join(mirror.dir, '..');
  const put = (name: string, manifest?: unknown) => {
    mkdirSync(join(parent, name), { recursive: true });
    if (manifest !== undefined) writeFileSync(join(parent, name, 'manifest.json'), JSON.stringify(manifest));
    return join(parent, name);
  };
  const gone = put('gone', { root: join(root, 'removed-worktree'), files: {} });
  const alive = put('alive', { root: suite(), files: {} });
  const unknown = put('unknown', { files: {} });
  const empty = put('empty');
  assert.ok(JSON.parse(readFileSync(join(mirror.dir, 'manifest.json'), 'utf8')).root === realpathSync(root), 'a manifest names its checkout');
  assert.deepEqual(pruneMirrors(parent, mirror.dir), [gone]);
  for (const kept of [mirror.dir, alive, unknown, empty]) assert.ok(existsSync(kept), kept);
  // The runner prunes as it builds.
  put('gone-again', { root: join(root, 'removed-clone'), files: {} });
  await buildMirror(root);
  assert.equal(existsSync(join(parent, 'gone-again')), false);
});
