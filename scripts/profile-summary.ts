/**
 * What a V8 CPU profile (`node --cpu-prof`, a `.cpuprofile`) of one process of a run says: the
 * process's part (runner, worker, reference server), its length, the time sampled busy, and
 * where that time went, two ways:
 * - by package: each sample's own frame (self time) — Playwright, Node.js, zod, undici,
 *   fast-check, the suite's code, the reference server, native code and syscalls, the garbage
 *   collector;
 * - by mechanism: each sample counted for every mechanism one of its frames belongs to
 *   (inclusive, so they overlap) — loading code, stack traces (Playwright's step locations,
 *   source-mapped), messages between the runner and its workers, reporters (the suite's and
 *   Playwright's: Playwright bundles its sources into a few files, `lib/runner/index.js` among
 *   them, and a frame there is placed by the `// packages/playwright/src/…` comment that opens
 *   its part of the bundle), HTTP client and server, garbage collection.
 * V8 samples on a timer while the thread runs JavaScript or sits in native code: on a busy
 * machine a sample may fall while the thread waits for a CPU (in a syscall, say), so the busy
 * time can exceed the process's CPU; read the shares, and /proc (scripts/proc-tree.ts) for CPU.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export type Part = 'runner' | 'runner loader thread' | 'worker' | 'reference' | 'other';

export interface ProfileSummary {
  file: string;
  /** From the file name V8 gives a profile: CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile. */
  pid?: number;
  thread?: number;
  part: Part;
  wallMs: number;
  busyMs: number;
  packages: Record<string, number>;
  mechanisms: Record<string, number>;
}

type Frame = CpuProfile['nodes'][number]['callFrame'];

/** The package or part of the project a frame's code belongs to. */
export function packageOf(frame: Frame): string {
  const { functionName: fn, url } = frame;
  if (fn === '(garbage collector)') return 'garbage collector';
  if (fn === '(program)') return 'V8 (program)';
  if (!url) return 'native code and syscalls';
  if (url.startsWith('node:')) return 'Node.js';
  if (url.startsWith('wasm:')) return 'WebAssembly';
  // The reference's bundle (scripts/start-reference.mjs).
  const own = url.replace(/^file:\/\//, '');
  if (/node_modules\/\.cache\/crm-conformance\/[^/]+\.mjs$/.test(own)) return 'reference server';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(own)?.[1];
  if (pkg) return /^(@playwright\/test|playwright|playwright-core)$/.test(pkg) ? 'Playwright' : pkg;
  const area = /(?:^|\/)(specs|contracts|generators|rules|reporting|reference|scripts|selftest)\//.exec(own)?.[1];
  if (area === 'reporting') return 'suite: reporters';
  if (area === 'reference') return 'reference server';
  if (area) return `suite: ${area}`;
  return 'other';
}

/** A bundle's text by its URL (a file of the installed Playwright), or undefined when it cannot be read. */
export type ReadSource = (url: string) => string | undefined;
const readInstalled: ReadSource = (url) => {
  try {
    return readFileSync(fileURLToPath(url), 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Where in Playwright's sources a frame of one of its bundles is: the `// packages/…/src/…` comment
 * that opens the part of the bundle its function starts in (esbuild writes one before each source
 * file). Undefined for any other frame.
 */
function bundleSections(read: ReadSource): (f: Frame) => string | undefined {
  const byUrl = new Map<string, { line: number; source: string }[]>();
  return (f) => {
    if (!/node_modules\/playwright\/lib\/[^/]+\/index\.js$/.test(f.url)) return undefined;
    let sections = byUrl.get(f.url);
    if (!sections) {
      sections = [];
      (read(f.url) ?? '').split('\n').forEach((text, line) => {
        const m = /^\/\/ (packages\/\S+)$/.exec(text);
        if (m) sections!.push({ line, source: m[1] });
      });
      byUrl.set(f.url, sections);
    }
    let found: string | undefined;
    for (const s of sections) {
      if (s.line > f.lineNumber) break;
      found = s.source;
    }
    return found;
  };
}

/** The mechanisms a frame belongs to (a sample counts once for each mechanism on its stack). */
const mechanismsFor = (sectionOf: (f: Frame) => string | undefined): [string, (f: Frame) => boolean][] => [
  ['loading code', (f) => f.url.startsWith('node:internal/modules/') || f.functionName === 'compileForInternalLoader'],
  ['stack traces (step locations)', (f) => f.functionName === 'captureRawStack' || (f.functionName === 'prepareStackTrace' && /playwright-core/.test(f.url))],
  ['runner-worker messages', (f) => f.url.startsWith('node:internal/child_process')],
  [
    'reporters',
    (f) =>
      /reporting\/[^/]*reporter\.[jt]s$/.test(f.url) ||
      /playwright\/lib\/reporters\//.test(f.url) ||
      (sectionOf(f)?.startsWith('packages/playwright/src/reporters/') ?? false),
  ],
  ['HTTP client', (f) => /node_modules\/undici\/|node:internal\/deps\/undici/.test(f.url)],
  ['HTTP server', (f) => /^node:_http_(server|incoming|outgoing)$/.test(f.url)],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
];

/** Which part of a run a profile is from, by the code it ran. */
function partOf(p: CpuProfile, thread: number | undefined): Part {
  const urls = new Set(p.nodes.map((n) => n.callFrame.url));
  const any = (re: RegExp) => [...urls].some((u) => re.test(u));
  if (any(/workerProcessEntry/)) return 'worker';
  if (any(/node_modules\/\.cache\/crm-conformance\/[^/]+\.mjs$|\/reference\/main\.ts$/)) return 'reference';
  if (any(/playwright\/lib\/(runner|program)|@playwright\/test\/cli\.js/)) return 'runner';
  if (thread !== undefined && thread > 0) return 'runner loader thread';
  return 'other';
}

/** `readSource`: the text of a Playwright bundle by URL (the installed file by default). */
export function summarizeProfile(p: CpuProfile, file = 'profile.cpuprofile', readSource: ReadSource = readInstalled): ProfileSummary {
  const MECHANISMS = mechanismsFor(bundleSections(readSource));
  const m = /\.(\d+)\.(\d+)\.\d+\.cpuprofile$/.exec(basename(file));
  const pid = m ? Number(m[1]) : undefined;
  const thread = m ? Number(m[2]) : undefined;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Per node: its package (self) and the mechanisms on its stack, computed once.
  const memo = new Map<number, Set<string>>();
  const mechanismsOf = (id: number): Set<string> => {
    const known = memo.get(id);
    if (known) return known;
    const up = parent.get(id);
    const set = new Set(up === undefined ? [] : mechanismsOf(up));
    const frame = byId.get(id)!.callFrame;
    for (const [name, test] of MECHANISMS) if (test(frame)) set.add(name);
    memo.set(id, set);
    return set;
  };
  const packages: Record<string, number> = {};
  const mechanisms: Record<string, number> = {};
  let busy = 0;
  p.samples.forEach((id, i) => {
    const node = byId.get(id);
    const dt = p.timeDeltas[i] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') return;
    busy += dt;
    const pkg = packageOf(node.callFrame);
    packages[pkg] = (packages[pkg] ?? 0) + dt;
    for (const name of mechanismsOf(id)) mechanisms[name] = (mechanisms[name] ?? 0) + dt;
  });
  const ms = (us: number) => Math.round(us / 1000);
  const inMs = (r: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(r)
        .map(([k, v]) => [k, ms(v)])
        .sort((a, b) => (b[1] as number) - (a[1] as number)),
    );
  return {
    file: basename(file),
    pid,
    thread,
    part: partOf(p, thread),
    wallMs: ms(p.endTime - p.startTime),
    busyMs: ms(busy),
    packages: inMs(packages),
    mechanisms: inMs(mechanisms),
  };
}
