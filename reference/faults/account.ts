/** Faults of GET /account (reference/routes/account.ts): post-processors of its answer. */
import type { Fault, Presented } from './types.js';

const ok = (res: Presented) => res.status >= 200 && res.status < 300;
type Account = { primary_timezone: string; settings: Record<string, unknown> };

export const ACCOUNT_FAULTS: Fault[] = [
  {
    name: 'account-settings-string',
    rules: ['ACCOUNT-2'],
    description: 'settings booleans are returned as "true"/"false" strings',
    routes: [
      {
        route: 'GET /account',
        respond: (res) => {
          if (!ok(res)) return res;
          const b = res.body as Account;
          return {
            ...res,
            body: { ...b, settings: Object.fromEntries(Object.entries(b.settings).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v])) },
          };
        },
      },
    ],
  },
  {
    name: 'account-timezone-offset',
    rules: ['ACCOUNT-3'],
    description: 'primary_timezone is an offset like "+01:00" instead of a zone name',
    routes: [{ route: 'GET /account', respond: (res) => (ok(res) ? { ...res, body: { ...(res.body as Account), primary_timezone: '+01:00' } } : res) }],
  },
  {
    name: 'json-content-type-missing',
    rules: ['WIRE-1'],
    description: 'JSON answers are sent as text/plain',
    routes: [
      {
        route: 'GET /account',
        respond: (res) => (ok(res) ? { status: res.status, raw: JSON.stringify(res.body), headers: { ...res.headers, 'content-type': 'text/plain' } } : res),
      },
    ],
  },
];
