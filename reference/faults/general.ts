/**
 * Faults of the server as a whole (reference/server.ts): credentials. Hook points of the
 * server and the clock are declared here.
 */
import type { Fault } from './types.js';

declare module './types.js' {
  interface HookPoints {
    /** Are the request's credentials accepted (server.ts)? */
    'auth.credentials': { value: boolean; ctx: undefined };
    /** Does X-SVC-UserEmail name the owner of the access token (server.ts)? */
    'auth.user-email': { value: boolean; ctx: undefined };
    /** The server's clock: Unix seconds (app.now()). */
    'clock.now': { value: number; ctx: undefined };
  }
}

export const GENERAL_FAULTS: Fault[] = [
  {
    name: 'credentials-not-checked',
    rules: ['AUTH-3', 'AUTH-4', 'AUTH-6', 'AUTH-7'],
    description: 'API requests are served whatever their credentials',
    at: { 'auth.credentials': () => true },
  },
  {
    name: 'unserved-method-crashes',
    rules: ['WIRE-7'],
    description: 'GET /leads/upsert reaches an upsert handler, which reads the body a GET lacks and crashes (500)',
    routes: [
      {
        route: 'GET /leads/upsert',
        add: (ctx) => {
          const { properties } = ctx.body as { properties: Record<string, unknown> };
          return { properties: Object.keys(properties) };
        },
      },
    ],
  },
  {
    name: 'user-email-not-checked',
    rules: ['AUTH-5'],
    description: 'X-SVC-UserEmail is not compared with the owner of the access token',
    at: { 'auth.user-email': () => true },
  },
];
