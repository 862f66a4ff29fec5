/**
 * Starts the embedded reference server for the suite (playwright.config.ts `webServer`) in about
 * half the time `node --import tsx reference/main.ts` takes: reference/ is bundled with esbuild
 * (tsx's own compiler) into one file that plain Node runs, instead of tsx compiling and resolving
 * dozens of modules one by one. Same code, same environment; when esbuild is not available it
 * falls back to tsx. Plain JavaScript so that no loader is needed.
 *
 * The bundle is kept (node_modules/.cache/crm-conformance/<entry>.mjs) with the list of the files
 * it was built from and a hash of their contents: a start whose files hash the same runs it as it
 * is, without esbuild (some 80 ms of every run's start-up, on the runner's path before the tests
 * load); any change to any of them builds it again.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import writeWholeModule from '../specs/support/core/write-whole.cjs';

const { writeWhole } = writeWholeModule;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The entry: reference/main.ts (one server), or the one given (reference/matrix.ts: many instances).
const entry = join(root, process.argv[2] ?? 'reference/main.ts');
// Inside the project, so that imports of packages (kept external) resolve from node_modules.
const cache = join(root, 'node_modules/.cache/crm-conformance');
const bundleFile = join(cache, `${basename(entry, '.ts')}.mjs`);
const manifestFile = join(cache, `${basename(entry, '.ts')}.json`);

/** The hash of the files' contents (paths relative to the project), or undefined when one is gone. */
function hashOf(inputs) {
  const h = createHash('sha256');
  try {
    for (const file of inputs)
      h.update(file)
        .update('\0')
        .update(readFileSync(join(root, file)))
        .update('\0');
  } catch {
    return undefined;
  }
  return h.digest('hex');
}

/** The kept bundle, when it was built from this entry and its files are unchanged. */
function kept() {
  try {
    const m = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (m.entry !== entry || !Array.isArray(m.inputs) || hashOf(m.inputs) !== m.hash) return undefined;
    statSync(bundleFile);
    return bundleFile;
  } catch {
    return undefined;
  }
}

/** esbuild: the one beside the suite, else the one tsx brings (a public package either way). */
function loadEsbuild() {
  const require = createRequire(import.meta.url);
  try {
    return require('esbuild');
  } catch {
    /* not beside the suite */
  }
  return createRequire(require.resolve('tsx/package.json'))('esbuild');
}

async function bundle() {
  const { build } = loadEsbuild();
  mkdirSync(cache, { recursive: true });
  // Left by starts killed while writing (and the per-start directories of earlier versions).
  for (const old of readdirSync(cache)) {
    const path = join(cache, old);
    if (!/\.tmp$|^reference-/.test(old)) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > 10 * 60_000) rmSync(path, { recursive: true, force: true });
    } catch {
      /* another run's */
    }
  }
  const started = Date.now();
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    outfile: bundleFile,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    absWorkingDir: root,
    logLevel: 'error',
    sourcemap: 'inline',
    metafile: true,
  });
  // Whole or not at all: a parallel start reads either the old bundle or the new.
  writeWhole(bundleFile, (tmp) => writeFileSync(tmp, result.outputFiles[0].contents));
  const inputs = Object.keys(result.metafile.inputs).sort();
  // A file changed while it was being bundled: this bundle is used once, not kept.
  const changed = inputs.some((f) => {
    try {
      return statSync(join(root, f)).mtimeMs >= started;
    } catch {
      return true;
    }
  });
  const hash = changed ? undefined : hashOf(inputs);
  writeWhole(manifestFile, (tmp) => writeFileSync(tmp, JSON.stringify({ entry, inputs, hash: hash ?? null })));
  return bundleFile;
}

let built = kept();
if (!built) {
  try {
    built = await bundle();
  } catch (err) {
    console.error(`[reference] esbuild bundle failed (${err?.message?.split('\n')[0]}); starting with tsx`);
  }
}
if (built) {
  process.setSourceMapsEnabled(true); // stack traces of the reference server point into reference/*.ts
  await import(pathToFileURL(built).href);
} else {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { stdio: 'inherit', cwd: root });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 1));
}
