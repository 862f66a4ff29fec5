/**
 * The parts of undici the suite uses (Agent, Pool, request), loaded without the rest of the
 * package: its entry point also loads fetch, WebSocket, the caches, the mocks and more, about
 * 80 ms of CPU in every process that imports it (each Playwright worker, the runner listing the
 * specs, each worker of the fault matrix: some 150 in `npm test`). The dispatchers get their
 * request methods exactly as the entry point gives them (`Object.assign(Dispatcher.prototype,
 * api)`), and `request(url, options)` forwards as its `request` does. Should a version of undici
 * move these files, the whole package is loaded instead.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

type Lean = Pick<typeof Undici, 'Agent' | 'Pool' | 'request'>;

function load(): Lean {
  const require = createRequire(import.meta.url);
  try {
    const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));
    const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
    const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
    const request = ((url: string | URL, options: Undici.Dispatcher.RequestOptions & { dispatcher: Undici.Dispatcher }) => {
      const u = new URL(url);
      const { dispatcher, ...rest } = options;
      return dispatcher.request({ ...rest, origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname, method: rest.method || (rest.body ? 'PUT' : 'GET') });
    }) as unknown as typeof Undici.request;
    if (typeof Agent !== 'function' || typeof Pool !== 'function' || typeof (Dispatcher.prototype as { request?: unknown }).request !== 'function') throw new Error('unexpected undici layout');
    return { Agent, Pool, request };
  } catch {
    return require('undici') as Lean;
  }
}

export const { Agent, Pool, request } = load();
export type { Dispatcher } from 'undici';
export type Agent = Undici.Agent;
export type Pool = Undici.Pool;
