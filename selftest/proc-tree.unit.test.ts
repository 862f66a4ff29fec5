/**
 * The CPU of a run's processes from /proc (scripts/proc-tree.ts), as `npm run bench` and
 * `npm run bench:profile` read it: a process's grandchild that burns CPU and ends before its
 * parent is still counted, with its own CPU; the parts of a run are named from their command
 * lines, Chromium's helpers included (one-string command lines, /proc/self/exe).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpuByRole, roleOf, watchTree } from '../scripts/proc-tree.js';

test(
  'a grandchild that burns CPU and ends first is counted with its own CPU',
  { skip: process.platform !== 'linux' && 'reads /proc (Linux only)' },
  async () => {
    // The child starts a grandchild that spins for 400 ms of CPU, waits for it, then sleeps 300 ms.
    const burn = 'const end = process.cpuUsage().user + 400000; while (process.cpuUsage().user < end);';
    const child = spawn(process.execPath, [
      '-e',
      `const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(burn)}]); c.on('exit', () => setTimeout(() => {}, 300));`,
    ]);
    const tree = watchTree(child.pid!, 50)!;
    await new Promise((r) => child.on('exit', r));
    const procs = tree.stop();
    const root = procs.find((p) => p.pid === child.pid);
    assert.equal(root?.role, 'runner');
    const grandchild = procs.find((p) => p.ppid === child.pid);
    assert.ok(grandchild, `the grandchild was seen: ${JSON.stringify(procs)}`);
    assert.equal(grandchild.role, 'other');
    assert.ok(grandchild.cpuMs >= 250, `its own CPU was read before it ended: ${grandchild.cpuMs} ms`);
    assert.ok(root!.cpuMs < grandchild.cpuMs, "the child's own CPU does not include the grandchild's");
    assert.equal(cpuByRole(procs).other.ms, grandchild.cpuMs);
  },
);

test(
  'a process first seen between its fork and its exec is named by what it runs after',
  { skip: process.platform !== 'linux' && 'reads /proc (Linux only)' },
  async () => {
    // The shell's subshell has the shell's command line for 300 ms, then becomes a Node process
    // that spins for 300 ms of CPU (as a worker forked by the runner does, or a Chromium helper).
    const burn = 'const end = process.cpuUsage().user + 300000; while (process.cpuUsage().user < end);';
    const shell = spawn('/bin/sh', ['-c', `( sleep 0.3; exec ${JSON.stringify(process.execPath)} -e ${JSON.stringify(burn)} ); sleep 0.2`]);
    const tree = watchTree(shell.pid!, 50)!;
    await new Promise((r) => shell.on('exit', r));
    const sub = tree.stop().find((p) => p.ppid === shell.pid);
    assert.ok(sub, 'the subshell was seen');
    assert.equal(sub.role, 'other', `named by what it ran: ${sub.cmd}`);
    assert.match(sub.cmd, /-e/);
    assert.ok(sub.cpuMs >= 200, `its CPU is its own: ${sub.cpuMs} ms`);
  },
);

test('the parts of a run are named from their command lines', () => {
  assert.deepEqual(roleOf(7, 7, ['node', 'cli.js', 'test']), { role: 'runner', kind: 'runner' });
  assert.equal(roleOf(8, 7, ['/usr/bin/node', '/w/node_modules/playwright/lib/worker/workerProcessEntry.js']).role, 'worker');
  assert.equal(roleOf(9, 7, ['node', 'scripts/start-reference.mjs']).role, 'reference');
  assert.equal(roleOf(10, 7, ['/bin/sh', '-c', 'node scripts/start-reference.mjs']).role, 'shell');
  assert.equal(roleOf(11, 7, ['/bin/sh', '-e', '/usr/bin/chromium-headless-shell', '--headless']).role, 'shell');
  assert.deepEqual(roleOf(12, 7, ['/usr/lib/chromium/chromium-headless-shell', '--headless']), { role: 'chromium', kind: 'browser' });
  assert.deepEqual(roleOf(13, 7, ['/usr/lib/chromium/chromium-headless-shell --type=renderer --headless=old --no-sandbox']), {
    role: 'chromium',
    kind: 'renderer',
  });
  assert.deepEqual(roleOf(14, 7, ['/proc/self/exe', '--type=utility', '--utility-sub-type=network.mojom.NetworkService'], 'chromium'), {
    role: 'chromium',
    kind: 'utility',
  });
  assert.equal(roleOf(15, 7, ['/proc/self/exe', '--type=utility']).role, 'other', 'not a Chromium helper without a Chromium parent');
});
