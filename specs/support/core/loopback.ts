/**
 * Requests to the run's own helpers on loopback (the bulk coordinator,
 * specs/support/core/rate-limit.ts): their JSON answer. With node:http, which every worker has
 * loaded anyway, rather than `fetch`: the first `fetch` of a process loads Node's bundled undici
 * and its HTTP parser, and these are the first requests of the bulk lane's burst and of every
 * worker's first bulk call, on the bulk lane's critical path.
 */
import { request } from 'node:http';

export interface LoopbackAnswer<T> {
  status: number;
  body: T;
}

/**
 * `method` (default POST) `url` with `headers`; resolves with the status and the body parsed as
 * JSON (undefined when empty or not JSON). Rejects on a network error (its `code`, ECONNREFUSED
 * say, kept) or after `timeoutMs` when given.
 */
export function loopbackJson<T = unknown>(
  url: string,
  options: { method?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<LoopbackAnswer<T>> {
  return new Promise((resolve, reject) => {
    // A connection of its own (agent: false): Node 20's global agent keeps connections alive, and a
    // server that closes an idle one just as it is reused answers ECONNRESET (seen when the webhook
    // hub's control requests were tried through here).
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body: body as T });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.timeoutMs !== undefined)
      req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`no answer from ${url} within ${options.timeoutMs} ms`)));
    req.end();
  });
}
