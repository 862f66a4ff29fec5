/**
 * The repository's files as git knows them, the package's as `npm pack` would write them, and the
 * parts of a module a self-test reads for what it names (its comments, or its code without them):
 * for the self-tests of the docs' links and paths (doc-links.unit.test.ts) and of the commands the
 * code prints (commands.unit.test.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../specs/support/core/config.js';

export const git = (args: string[], input?: string) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });

/** The repository's files: git's, tracked and new ones not ignored (paths from the root, with `/`). */
export function repositoryFiles(root = ROOT): string[] {
  const res = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(res.status, 0, `git ls-files in ${root}: ${res.stderr}`);
  return res.stdout.split('\0').filter((f) => f && existsSync(join(root, f)));
}

/** The files `npm pack` puts in the package, scripts not run (so without dist/, which prepack builds). */
export function packedFiles(): string[] {
  const res = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(res.status, 0, res.stderr);
  return (JSON.parse(res.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
}

/** A module's comments (`// …` at the start of a line or after a blank, `/* … *\/`), the code blanked; `code: true`, the other way round. Lines are kept. */
export function commentsOf(source: string, o: { code?: boolean } = {}): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  let out = '';
  let at = 0;
  for (const m of source.matchAll(/\/\*[^]*?\*\/|(?<=^|\s)\/\/.*$/gm)) {
    const between = source.slice(at, m.index);
    out += o.code ? between + blank(m[0]) : blank(between) + m[0];
    at = m.index + m[0].length;
  }
  const rest = source.slice(at);
  return out + (o.code ? rest : blank(rest));
}
