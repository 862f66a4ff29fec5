/**
 * Small hostile or broken HTTP targets on 127.0.0.1: the targets of the hostile self-test
 * (selftest/hostile.test.ts) and of the bench's dead and `200 {}` rows (scripts/bench.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Hostile {
  url: string;
  close(): Promise<void>;
}

export type HostileKind =
  | 'silent' // accepts the connection, never answers
  | 'trickle' // the whole answer, status line included, one byte a second
  | 'slow-body' // status and headers at once, then the body one byte a second
  | 'huge' // a 10 MB body (Content-Length on /account, chunked elsewhere)
  | 'invalid-json' // 200, Content-Type application/json, a truncated JSON body
  | 'wrong-type' // 200, Content-Type text/html, an HTML page
  | 'reset' // resets the connection on every request
  | 'error500' // 500 to everything
  | 'unauthorized' // 401 to everything
  | 'not-found' // 404 to everything
  | 'ok-empty' // 200 {} to everything (Content-Type application/json)
  | 'dies'; // answers the first 2 requests like a server (an Account, 401 without a token), then never again

const ANSWER = JSON.stringify({
  id: 1,
  name: 'Hostile',
  primary_timezone: 'UTC',
  settings: { setting_team_permissions_enabled: false, setting_enable_leads: true },
});

/** `slow-body`: status and headers at once, then the body one byte a second. */
function slowBody(res: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  const body = Buffer.from(ANSWER);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  let i = 0;
  const t = setInterval(() => {
    if (i >= body.length || res.destroyed) {
      clearInterval(t);
      timers.delete(t);
      res.end();
      return;
    }
    res.write(body.subarray(i, ++i));
  }, 1000);
  timers.add(t);
}

/** `huge`: a 10 MB body (Content-Length on /account, chunked elsewhere). */
function huge(req: IncomingMessage, res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const total = 10 * 1024 * 1024;
  const head: Record<string, string | number> = { 'content-type': 'application/json' };
  if (req.url?.endsWith('/account')) head['content-length'] = total;
  res.writeHead(200, head);
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  res.on('error', () => undefined);
  pump();
}

function httpHandler(kind: HostileKind, timers: Set<NodeJS.Timeout>) {
  let served = 0;
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      switch (kind) {
        case 'dies': {
          if (++served > 2) return; // silent from now on
          const authorized = !!req.headers['x-svc-accesstoken'] || !!req.headers.authorization;
          res.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
          res.end(authorized ? ANSWER : JSON.stringify({ message: 'unauthorized' }));
          return;
        }
        case 'slow-body':
          return slowBody(res, timers);
        case 'huge':
          return huge(req, res);
        case 'invalid-json':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(ANSWER.slice(0, 40));
          return;
        case 'wrong-type':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end('<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>');
          return;
        case 'reset':
          req.socket.resetAndDestroy();
          return;
        case 'error500':
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'internal error' }));
          return;
        case 'unauthorized':
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'unauthorized' }));
          return;
        case 'ok-empty':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{}');
          return;
        case 'not-found':
          res.writeHead(404, { 'content-type': 'text/html' });
          res.end('<h1>Not Found</h1>');
          return;
        default:
          res.writeHead(500);
          res.end();
      }
    });
  };
}

export async function startHostile(kind: HostileKind): Promise<Hostile> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let server: ReturnType<typeof createServer> | ReturnType<typeof createNetServer>;
  if (kind === 'silent' || kind === 'trickle') {
    server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      if (kind === 'silent') return; // read nothing, write nothing
      const answer = Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${ANSWER.length}\r\n\r\n${ANSWER}`);
      let i = 0;
      const t = setInterval(() => {
        if (i >= answer.length || socket.destroyed) {
          clearInterval(t);
          timers.delete(t);
          return;
        }
        socket.write(answer.subarray(i, ++i));
      }, 1000);
      timers.add(t);
    });
  } else {
    const http = createServer(httpHandler(kind, timers));
    http.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    http.on('clientError', (_err, socket) => socket.destroy());
    server = http;
  }
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        for (const t of timers) clearInterval(t);
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}
