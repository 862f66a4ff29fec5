/**
 * Starts the embedded reference server for the suite (playwright.config.ts `webServer`) in about
 * half the time `node --import tsx reference/main.ts` takes: reference/ is bundled with esbuild
 * (tsx's own compiler, ~0.1 s) into one temporary file that plain Node runs, instead of tsx
 * compiling and resolving dozens of modules one by one. Same code, same environment; when
 * esbuild is not available it falls back to tsx. Plain JavaScript so that no loader is needed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The entry: reference/main.ts (one server), or the one given (reference/matrix.ts: many instances).
const entry = join(root, process.argv[2] ?? 'reference/main.ts');

async function bundle() {
  const { build } = await import('esbuild');
  // Inside the project, so that imports of packages (kept external) resolve from node_modules.
  const cache = join(root, 'node_modules/.cache/crm-conformance');
  mkdirSync(cache, { recursive: true });
  // Bundles of servers killed before they started (normally each is removed once loaded).
  for (const old of readdirSync(cache)) {
    const path = join(cache, old);
    try { if (Date.now() - statSync(path).mtimeMs > 10 * 60_000) rmSync(path, { recursive: true, force: true }); } catch { /* another run's */ }
  }
  const dir = mkdtempSync(join(cache, 'reference-'));
  const outfile = join(dir, 'reference.mjs');
  await build({
    entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    packages: 'external', absWorkingDir: root, logLevel: 'error', sourcemap: 'inline',
  });
  return { outfile, dir };
}

let built;
try {
  built = await bundle();
} catch (err) {
  console.error(`[reference] esbuild bundle failed (${err?.message?.split('\n')[0]}); starting with tsx`);
}
if (built) {
  process.setSourceMapsEnabled(true); // stack traces of the reference server point into reference/*.ts
  try {
    await import(pathToFileURL(built.outfile).href);
  } finally {
    rmSync(built.dir, { recursive: true, force: true });
  }
} else {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { stdio: 'inherit', cwd: root });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 1));
}
