/**
 * The run's shared webhook receiver on a fixed local port (`target.receivers.webhookPort`:
 * CRM_RECEIVER_PORT, else the port of CRM_PUBLIC_URL, else 8123 under CRM_PUBLIC_URL), the one the
 * tunnel or proxy forwards to, or on loopback the one CRM_RECEIVER_PORT names. It is a small detached process, started by the first worker that needs it (this
 * file run with {@link HUB_FLAG}), so that it outlives any worker Playwright restarts; it ends
 * when the test runner ends, or after ten idle minutes. Workers read what arrived through its
 * loopback-only, keyed control endpoints ({@link HubClient}).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { resolve as resolvePath } from 'node:path';
import { ROOT } from '../core/config.js';
import { CONTROL, listen, Recording, type ReceivedRequest } from './webhook-recording.js';

const HUB_FLAG = '--crm-webhook-hub';

/**
 * The shared receiver on the fixed port: a small detached process (started by the first
 * worker that needs it) so that it outlives any worker Playwright restarts. It ends when the
 * test runner ends, or after ten idle minutes.
 */
async function runHub(port: number, key: string, runnerPid: number): Promise<void> {
  const recording = new Recording(key);
  let last = Date.now();
  const server = createServer((req, res) => {
    last = Date.now();
    recording.handle(req, res);
  });
  try {
    await listen(server, port);
  } catch {
    process.exit(0); // another worker's hub got the port first
  }
  setInterval(() => {
    let runnerAlive = true;
    try {
      process.kill(runnerPid, 0);
    } catch {
      runnerAlive = false;
    }
    if (!runnerAlive || Date.now() - last > 600_000) {
      recording.releaseAll();
      server.closeAllConnections();
      process.exit(0);
    }
  }, 1_000);
}

if (process.argv.includes(HUB_FLAG) && process.argv[1] && resolvePath(process.argv[1]) === __filename) {
  const [port, key, runner] = process.argv.slice(process.argv.indexOf(HUB_FLAG) + 1);
  void runHub(Number(port), key, Number(runner));
}

/** The control client of the hub: what arrived under a path, and releasing held requests. */
export class HubClient {
  constructor(
    readonly port: number,
    private readonly key: string,
  ) {}

  /** Reaches the run's hub, starting it when nobody serves the port yet. */
  async join(): Promise<void> {
    const deadline = Date.now() + 15_000;
    let started = false;
    let lastError = '';
    while (Date.now() < deadline) {
      try {
        await this.control('requests', '/_none');
        return;
      } catch (err) {
        lastError = (err as Error).message;
        const refused = /ECONNREFUSED/.test(String((err as { cause?: { code?: string } }).cause?.code ?? lastError));
        if (refused && !started) {
          started = true;
          const child = spawn(process.execPath, ['--import', 'tsx', __filename, HUB_FLAG, String(this.port), this.key, String(process.ppid)], {
            detached: true,
            stdio: 'ignore',
            cwd: ROOT,
            env: process.env,
          });
          child.unref();
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(
      `webhook receiver: no receiver of this run answers on 127.0.0.1:${this.port} (${lastError}); is the port used by another program? Set CRM_RECEIVER_PORT to a free local port (with CRM_PUBLIC_URL, the one it forwards to)`,
    );
  }

  async control(op: 'requests' | 'release', prefix: string): Promise<ReceivedRequest[]> {
    const res = await fetch(`http://127.0.0.1:${this.port}${CONTROL}/${op}?prefix=${encodeURIComponent(prefix)}`, {
      method: op === 'requests' ? 'GET' : 'POST',
      headers: { 'x-receiver-key': this.key },
      signal: AbortSignal.timeout(5_000),
    });
    if (res.status !== 200) throw new Error(`webhook receiver control ${op}: HTTP ${res.status}`);
    return op === 'requests' ? ((await res.json()) as ReceivedRequest[]) : [];
  }
}
