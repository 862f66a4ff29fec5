/**
 * Playwright compiles TypeScript itself (the specs, the configuration, the reporters), but not
 * files inside node_modules. From an installed package, `crm-conformance run` therefore runs a
 * copy of the suite's files outside node_modules (in the temporary directory, one per package
 * content, made once and reused), whose `node_modules` links to the packages the installed copy
 * resolves (its own nested ones first, then those of each enclosing node_modules). Playwright then
 * treats the suite exactly as in this repository: its own transform, real line numbers in
 * reports and code frames.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';

const MARK = '.crm-conformance-complete';

/** Every file under `dir` (relative paths, sorted). */
function filesUnder(root: string, dir = root, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(root, p, out);
    else if (e.isFile()) out.push(relative(root, p));
  }
  return out.sort();
}

/** node_modules directories the installed package resolves from, nearest first. */
function resolutionDirs(root: string): string[] {
  const dirs: string[] = [];
  for (let d = root; ; d = dirname(d)) {
    const nm = basename(d) === 'node_modules' ? undefined : join(d, 'node_modules');
    if (nm && existsSync(nm) && statSync(nm).isDirectory()) dirs.push(nm);
    if (dirname(d) === d) return dirs;
  }
}

function linkPackages(target: string, sources: string[]): void {
  mkdirSync(target, { recursive: true });
  for (const src of sources) {
    for (const name of readdirSync(src)) {
      if (name.startsWith('.')) continue;
      const from = join(src, name);
      if (name.startsWith('@')) {
        mkdirSync(join(target, name), { recursive: true });
        for (const sub of readdirSync(from)) if (!existsSync(join(target, name, sub))) symlinkSync(join(from, sub), join(target, name, sub), 'junction');
      } else if (!existsSync(join(target, name))) symlinkSync(from, join(target, name), 'junction');
    }
  }
}

/** Removes the copies made from this installation (`root`) before, e.g. of an older content of the package. */
export function pruneCopiesOf(root: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!/^crm-conformance-.+-[0-9a-f]{16}$/.test(name)) continue;
    const mark = join(tmpdir(), name, MARK);
    try {
      if (readFileSync(mark, 'utf8').trim() === root) rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      /* not a complete copy, or another user's */
    }
  }
}

/** The directory Playwright should run the suite from: `root` itself unless it is inside node_modules. */
export function runnableSuite(root: string): string {
  if (!root.split(sep).includes('node_modules')) return root;
  const files = filesUnder(root);
  const hash = createHash('sha256').update(root);
  for (const f of files) hash.update(f).update(readFileSync(join(root, f)));
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '0';
  const dir = join(tmpdir(), `crm-conformance-${version}-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(join(dir, MARK))) return dir;
  pruneCopiesOf(root);
  const staging = mkdtempSync(`${dir}-staging-`);
  try {
    for (const f of files) {
      mkdirSync(dirname(join(staging, f)), { recursive: true });
      cpSync(join(root, f), join(staging, f));
    }
    linkPackages(join(staging, 'node_modules'), resolutionDirs(root));
    writeFileSync(join(staging, MARK), `${root}\n`);
    try {
      renameSync(staging, dir);
    } catch {
      if (!existsSync(join(dir, MARK))) throw new Error(`cannot prepare the suite in ${dir}`);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}
