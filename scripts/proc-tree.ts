/**
 * The CPU of a process and of everything it starts, read from /proc (Linux): the runner, its
 * workers, the reference server and every Chromium process (browser, zygotes, GPU, network,
 * renderers). Each process's *own* user + system time, as last seen before it ended, so nothing
 * is counted twice: a parent's account of its waited-for children (what `/usr/bin/time` and the
 * bench's "ended children" read) misses the Chromium helpers that their browser never waits for.
 *
 * Polled every `everyMs` (100 ms: one scan of /proc takes about 1 ms here, some 1 % of a CPU):
 * a process loses at most its last interval, and one that lives less than an interval may be
 * missed altogether (a shell that only starts another program). Off Linux: nothing (undefined).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks of /proc/<pid>/stat: USER_HZ, 100 on every Linux this suite runs on. */
const TICK_MS = 10;

export type Role = 'runner' | 'worker' | 'reference' | 'chromium' | 'shell' | 'other';

export interface ProcCpu {
  pid: number;
  ppid: number;
  role: Role;
  /** Chromium's process type (browser, zygote, gpu-process, utility, renderer); otherwise the role. */
  kind: string;
  /** The command line, shortened. */
  cmd: string;
  /** Own user + system CPU, as last seen. */
  cpuMs: number;
}

interface Stat {
  ppid: number;
  cpuMs: number;
}

/** The fields of /proc/<pid>/stat after the command name (state first), or undefined when it is gone or off Linux. */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return undefined;
  }
}

/** A process's parent and own CPU (utime + stime). */
function statOf(pid: number | 'self'): Stat | undefined {
  const f = statFields(pid);
  return f && { ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS };
}

/** CPU (ms) of this process's children that have ended and been waited for (cutime + cstime), or undefined off Linux. */
export function endedChildrenCpuMs(): number | undefined {
  const f = statFields('self');
  return f && (Number(f[13]) + Number(f[14])) * TICK_MS;
}

/** A process's command line, or [] when it is gone. */
export function argvOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * What a process of a run is, from its command line (`root`: the process the run started with;
 * `parent`: its parent's role). Chromium's helpers rewrite their command line as one string
 * (`--type=renderer …`) and some start as /proc/self/exe: a child of a Chromium process is one too.
 */
export function roleOf(pid: number, root: number, argv: string[], parent?: Role): { role: Role; kind: string } {
  if (pid === root) return { role: 'runner', kind: 'runner' };
  const words = argv.length === 1 ? argv[0].split(' ') : argv;
  const [exe = '', ...rest] = words;
  const line = words.join(' ');
  const shell = /(^|\/)(ba|da)?sh$/.test(exe);
  if (!shell && (/chrom/i.test(exe) || parent === 'chromium')) {
    const type = rest.find((a) => a.startsWith('--type='))?.slice('--type='.length);
    return { role: 'chromium', kind: type ?? 'browser' };
  }
  if (shell) return { role: 'shell', kind: 'shell' };
  // A worker forked by Playwright (its entry script names it).
  if (line.includes('workerProcessEntry')) return { role: 'worker', kind: 'worker' };
  if (line.includes('start-reference.mjs') || /reference\/(main|matrix)\.ts/.test(line)) return { role: 'reference', kind: 'reference' };
  return { role: 'other', kind: 'other' };
}

/**
 * Watches `root` and its descendants (a process stays counted once seen, even when its parent
 * ends first) until `stop()`, which reads once more and returns every process seen.
 */
export function watchTree(root: number, everyMs = 100): { stop(): ProcCpu[] } | undefined {
  if (!statOf('self')) return undefined;
  const seen = new Map<number, ProcCpu>();
  const poll = () => {
    let pids: number[];
    try {
      pids = readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .map(Number);
    } catch {
      return;
    }
    const stats = new Map<number, Stat>();
    for (const pid of pids) {
      const s = statOf(pid);
      if (s) stats.set(pid, s);
    }
    // Parents may come after their children in the listing: add until nothing new joins.
    for (let added = true; added;) {
      added = false;
      for (const [pid, s] of stats) {
        if (seen.has(pid) || (pid !== root && !seen.has(s.ppid))) continue;
        const argv = argvOf(pid);
        seen.set(pid, { pid, ppid: s.ppid, ...roleOf(pid, root, argv, seen.get(s.ppid)?.role), cmd: argv.join(' ').slice(0, 160), cpuMs: s.cpuMs });
        added = true;
      }
    }
    for (const [pid, p] of seen) {
      const s = stats.get(pid);
      if (!s) continue;
      p.cpuMs = s.cpuMs;
      // A process first seen between its fork and its exec had its parent's command line: a
      // Chromium helper forked by its zygote, a worker forked by the runner. It takes its own a
      // moment later.
      const parent = seen.get(p.ppid);
      if ((p.role === 'chromium' && p.kind === 'browser' && parent?.role === 'chromium') || (parent && p.cmd === parent.cmd)) {
        const argv = argvOf(pid);
        if (argv.length) Object.assign(p, roleOf(pid, root, argv, parent?.role), { cmd: argv.join(' ').slice(0, 160) });
      }
    }
  };
  poll();
  const timer = setInterval(poll, everyMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      poll();
      return [...seen.values()];
    },
  };
}

/** The CPU of the processes of a run by role (and Chromium's by process type): ms and process count. */
export function cpuByRole(procs: ProcCpu[]): Record<string, { ms: number; processes: number }> {
  const out: Record<string, { ms: number; processes: number }> = {};
  for (const p of procs) {
    for (const key of p.role === 'chromium' ? ['chromium', `chromium ${p.kind}`] : [p.role]) {
      const e = (out[key] ??= { ms: 0, processes: 0 });
      e.ms += p.cpuMs;
      e.processes++;
    }
  }
  return out;
}
