/**
 * Every setting of the suite: its environment variable, what it means, its schema and default.
 * One list, read by the configuration (core/config.ts, which refuses any other CRM_* variable),
 * by `npm run docs` (docs/configuration.md is generated from it) and by the doctor.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';

export type SettingGroup = 'target' | 'credentials' | 'oauth' | 'receivers' | 'run' | 'random' | 'limits' | 'reports' | 'internal';

export const GROUPS: Record<SettingGroup, string> = {
  target: 'The target',
  credentials: 'Credentials (sent in headers, never in a URL)',
  oauth: 'OAuth handshake (a real browser)',
  receivers: 'Receivers the target calls back (OAuth callback, webhooks)',
  run: 'The run',
  random: 'Random inputs (fast-check)',
  limits: 'Time and size limits',
  reports: 'Reports',
  internal: 'Set by the suite itself (never by hand)',
};

export interface Setting {
  name: string;
  group: SettingGroup;
  /** What it does, one or two sentences (Markdown). */
  description: string;
  /** The default, in words (Markdown), when there is one. */
  default?: string;
  /** Its value is a secret: never shown, in an error or a report. */
  secret?: boolean;
  schema: z.ZodType;
}

/** A URL holding no user or password: the spec's credentials go in headers, and a URL is printed and kept in every report. */
const noUserinfo = (u: string) => {
  try {
    const url = new URL(u);
    return !url.username && !url.password;
  } catch {
    return true;
  }
};
const USERINFO =
  "must not hold a user or password (user:pass@host): the API's credentials go in headers (CRM_ACCESS_TOKEN and CRM_USER_EMAIL, or CRM_BEARER_TOKEN), and a URL is printed in every report";
export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL' })
  .refine(noUserinfo, USERINFO)
  .transform((u) => u.replace(/\/+$/, ''));
const flag = z.enum(['0', '1', 'true', 'false', ''], { error: 'must be 1 or 0 (true or false)' }).transform((v) => v === '1' || v === 'true');
const positiveInt = z.string().regex(/^\d+$/, 'must be a whole number').transform(Number);
const port = positiveInt.refine((n) => n >= 1 && n <= 65535, 'must be a port number (1-65535)');
const millis = positiveInt.refine((n) => n >= 100, 'must be at least 100 (milliseconds)');
const text = z.string().min(1, 'must not be empty');

export const SETTINGS: readonly Setting[] = [
  // The target
  {
    name: 'CRM_BASE_URL',
    group: 'target',
    schema: httpUrl,
    default: 'the embedded reference server',
    description:
      "The server's base URL (`{base_url}`); the suite adds `/developer_api/v1`. A URL that already ends in `/developer_api/v1` is taken as its base.",
  },
  {
    name: 'CRM_AUTH_URL',
    group: 'target',
    schema: httpUrl,
    default: '`CRM_BASE_URL`',
    description: "The OAuth server's base URL (`{auth_url}`), when it is not the API's.",
  },
  {
    name: 'CRM_PROFILE',
    group: 'target',
    schema: text,
    default: '`./crm-profile.json` when it exists',
    description: 'The target profile (JSON): fixtures, capabilities, OAuth screens. `npx crm-conformance profile init` drafts one.',
  },
  {
    name: 'CRM_ALLOW_WRITES',
    group: 'target',
    schema: flag,
    default: 'on for loopback targets only',
    description: 'Allows the suite to create records on a non-loopback target (each tagged with the run id and listed in `created-records.json`).',
  },
  {
    name: 'CRM_EXPECTATIONS',
    group: 'target',
    schema: z.string().min(1, 'must name a JSON file'),
    description: 'A known-failure baseline: a JSON list of `{ "rule" | "title", "reason", "expires"?, "issue"? }`; those failures do not fail the run.',
  },
  { name: 'CRM_EXPECTATIONS_STRICT', group: 'target', schema: flag, default: 'off', description: 'A stale baseline entry (its failure gone) fails the run.' },
  {
    name: 'CRM_SPEC_URL',
    group: 'target',
    schema: z.url({ protocol: /^(https?|file)$/, error: 'must be an http(s):// or file:// URL' }),
    default: "the suite's rule pages (docs/conformance/)",
    description:
      "Where the specification is published (its file's address): reports link each rule to its section there. Unset, they link each rule to its row on the rule pages the suite carries, which quote the spec.",
  },
  // Credentials
  {
    name: 'CRM_ACCESS_TOKEN',
    group: 'credentials',
    schema: text,
    secret: true,
    description: 'The header credential `X-SVC-AccessToken` (with `CRM_USER_EMAIL`).',
  },
  { name: 'CRM_USER_EMAIL', group: 'credentials', schema: z.email('must be an e-mail address'), description: 'The header credential `X-SVC-UserEmail`.' },
  {
    name: 'CRM_BEARER_TOKEN',
    group: 'credentials',
    schema: text,
    secret: true,
    default: 'the token the OAuth handshake obtains',
    description: 'A Bearer token for `Authorization: Bearer …` (AUTH-2).',
  },
  // OAuth
  { name: 'CRM_CLIENT_ID', group: 'oauth', schema: text, description: "The registered OAuth client's id." },
  { name: 'CRM_CLIENT_SECRET', group: 'oauth', schema: text, secret: true, description: "The registered OAuth client's secret." },
  { name: 'CRM_LOGIN_EMAIL', group: 'oauth', schema: text, description: 'The user the browser logs in as on the authorization screen.' },
  { name: 'CRM_LOGIN_PASSWORD', group: 'oauth', schema: text, secret: true, description: "That user's password." },
  {
    name: 'CRM_CHROMIUM_PATH',
    group: 'oauth',
    schema: z
      .string()
      .min(1, 'must name the Chromium executable')
      .refine((p) => existsSync(p), 'file not found'),
    default: "searched (Debian's, Playwright's, Chrome)",
    description: 'The Chromium executable for the OAuth screens.',
  },
  // Receivers
  {
    name: 'CRM_PUBLIC_URL',
    group: 'receivers',
    schema: httpUrl,
    default: 'loopback (the target runs on this machine)',
    description: "Where the target reaches this machine's receivers (a tunnel or public address).",
  },
  {
    name: 'CRM_RECEIVER_PORT',
    group: 'receivers',
    schema: port,
    default: 'with `CRM_PUBLIC_URL`: its port, else 8123; on loopback: a free port for each worker',
    description:
      "The local port of the webhook receiver: the one `CRM_PUBLIC_URL` forwards to, or on loopback one port the run's workers share (subscriptions then name `http://127.0.0.1:<port>/…`).",
  },
  {
    name: 'CRM_CALLBACK_PORT',
    group: 'receivers',
    schema: port,
    default: 'with `CRM_PUBLIC_URL`: its port; on loopback: a free port',
    description:
      "The local port of the OAuth callback receiver: the one `CRM_PUBLIC_URL` forwards to, or on loopback the port of the redirect URI the run sends (`http://127.0.0.1:<port>/oauth/callback`: for a server that accepts only the exact URI registered; `crm-conformance doctor` prints it). It must differ from the webhook receiver's.",
  },
  {
    name: 'CRM_CALLBACK_HTTPS',
    group: 'receivers',
    schema: flag,
    default: 'off',
    description: 'The OAuth callback receiver speaks HTTPS with a self-signed certificate.',
  },
  // The run
  {
    name: 'CRM_WORKERS',
    group: 'run',
    schema: positiveInt.refine((n) => n >= 1 && n <= 64, 'must be a number of workers from 1 to 64'),
    default: '2',
    description:
      'Workers of the API lane (the bulk, OAuth and property lanes have one each, and a quick run on loopback no property lane; against a far target the API lane also takes the worker of a lane that is done, and the property lane up to three, at most CRM_WORKERS + 1).',
  },
  {
    name: 'CRM_DEPTH',
    group: 'run',
    schema: z.enum(['quick', 'standard', 'deep'], { error: 'must be quick, standard or deep' }),
    default: '`standard`',
    description:
      '`quick`: every rule the standard run judges, with fewer random inputs and one test per rule where several cover it (at most 1,000 requests; a gate on every pull request); `standard`: the full run; `deep`: ten times the random inputs, and the heavy specs where the profile allows them (nightly). `crm-conformance run --depth <d>` sets it.',
  },
  { name: 'CRM_HEAVY', group: 'run', schema: flag, default: "the profile's `capabilities.heavy`", description: 'Runs the heavy specs (`*.heavy.spec.ts`).' },
  {
    name: 'CRM_STRICT',
    group: 'run',
    schema: flag,
    default: 'off',
    description: 'SHOULD failures fail the run instead of warning: the verdict is NOT CONFORMANT, in the console, the reports and the exit status alike.',
  },
  {
    name: 'CRM_CERTIFY',
    group: 'run',
    schema: flag,
    default: 'off',
    description:
      'Certification: a run in which any MUST rule was not judged (skipped for the target, blocked by a failed step, or untested) is INCONCLUSIVE and fails, as a certification run must judge every rule; without it the headline names what was not judged. Rules no test can observe are left out.',
  },
  {
    name: 'CRM_REPEATS',
    group: 'run',
    schema: z.enum(['hold', 'fail'], { error: 'must be hold (a repeat of a failure is held, reported to Playwright as skipped) or fail' }),
    default: '`hold`',
    description: '`hold`: a test failing only with problems an earlier test failed on is held; `fail`: it fails like any other.',
  },
  {
    name: 'CRM_RUN_ID',
    group: 'run',
    schema: z.string().regex(/^[a-z0-9]{4,16}$/, 'must be 4-16 lower-case letters and digits'),
    default: 'random',
    description: "The run's id: every record it creates carries the tag `crm-conformance-<run id>`.",
  },
  // Random inputs
  {
    name: 'CRM_FC_SEED',
    group: 'random',
    schema: z
      .string()
      .regex(/^-?\d+$/, 'must be an integer seed')
      .transform(Number),
    default: 'random (printed)',
    description: "fast-check's seed, to replay a counterexample.",
  },
  {
    name: 'CRM_FC_RUNS',
    group: 'random',
    schema: positiveInt.refine((n) => n >= 1, 'must be at least 1'),
    default: '300',
    description: 'Runs of each search property (the upsert model runs half as many command sequences).',
  },
  {
    name: 'CRM_FC_PATH',
    group: 'random',
    schema: z.string().regex(/^\d+(:\d+)*$/, 'must be a fast-check path such as 12:0:3 (from counterexample.txt)'),
    description: "A counterexample's path, to replay it (with `CRM_FC_SEED`).",
  },
  // Limits
  { name: 'CRM_REQUEST_TIMEOUT_MS', group: 'limits', schema: millis, default: '15000', description: 'The deadline of one request.' },
  {
    name: 'CRM_NOTIFICATION_TIMEOUT_MS',
    group: 'limits',
    schema: millis,
    default: '20000',
    description: 'The longest wait for one webhook notification (shorter once a wait of the run has lasted it in vain).',
  },
  {
    name: 'CRM_MAX_RESPONSE_BYTES',
    group: 'limits',
    schema: positiveInt.refine((n) => n >= 1024, 'must be at least 1024'),
    default: '5 MiB',
    description: 'The largest response body read.',
  },
  // Reports
  { name: 'CRM_REPORT_DIR', group: 'reports', schema: text, default: '`reports`', description: 'Where every report is written.' },
  {
    name: 'CRM_REPORTERS',
    group: 'reports',
    schema: z.enum(['all', 'minimal'], { error: 'must be all or minimal' }),
    default: '`all`',
    description: '`minimal` keeps only the conformance verdict (self-tests, calibration).',
  },
  // Calibration (the fault matrix: scripts/calibrate.ts)
  {
    name: 'CRM_CALIBRATION_WORKERS',
    group: 'run',
    schema: positiveInt,
    default: '6 (matrix), 1 (per fault)',
    description: 'Workers of a calibration run (`npm run calibrate`).',
  },
  {
    name: 'CRM_CALIBRATION_MAX_FAILURES',
    group: 'run',
    schema: positiveInt,
    default: '12',
    description: 'Calibration stops after this many faults not caught.',
  },
  // Internal
  { name: 'CRM_EMBEDDED', group: 'internal', schema: flag, description: 'The run targets its embedded reference server.' },
  {
    name: 'CRM_EMBEDDED_DECLARES',
    group: 'internal',
    schema: z.string(),
    description: "What the embedded server's open choices declare in its profile (JSON).",
  },
  {
    name: 'CRM_RUN_PROCESS',
    group: 'internal',
    schema: z.string(),
    description: "The process id of the run's starter (run files are shared by its processes only).",
  },
  { name: 'CRM_PREFLIGHT_FILE', group: 'internal', schema: z.string(), description: "The run's preflight result, for the workers." },
  { name: 'CRM_INSTANCES', group: 'internal', schema: z.string(), description: 'The instances of a run of many (the fault matrix).' },
  { name: 'CRM_DOCTOR_DONE', group: 'internal', schema: z.string(), description: '`crm-conformance run` has just run the doctor.' },
  {
    name: 'CRM_VERDICT_OUTCOMES',
    group: 'internal',
    schema: z.string(),
    description:
      "Where the workers write each test's outcome when the run has no conformance reporter (a `--reporter` flag replaced the configured ones): the global teardown judges the run from them (reporting/verdict-fallback.ts).",
  },
  {
    name: 'CRM_REFERENCE_CPU_PROF',
    group: 'internal',
    schema: z.string(),
    description: "The embedded server runs under V8's CPU profiler (`npm run bench:profile`).",
  },
];

export const SETTING_NAMES: ReadonlySet<string> = new Set(SETTINGS.map((s) => s.name));
const SECRET_NAMES = new Set(SETTINGS.filter((s) => s.secret).map((s) => s.name));

/** A setting's value as it may be shown in a message: secrets hidden, a URL's user and password dropped. */
export function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return '(unset)';
  if (SECRET_NAMES.has(name)) return '(hidden)';
  return JSON.stringify(value.replace(/^(\w+:\/\/)[^@/?#]*@/, '$1<user:password>@'));
}

/** The schema of the environment: every setting optional. */
export const EnvSchema = z.object(Object.fromEntries(SETTINGS.map((s) => [s.name, s.schema.optional()])));

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  return d[a.length][b.length];
}

/** The known setting closest to a misspelt name, when one is close enough to be meant. */
export function didYouMean(name: string): string | undefined {
  const squash = (s: string) => s.replace(/_/g, '');
  let best: { name: string; d: number } | undefined;
  for (const s of SETTINGS) {
    if (s.group === 'internal') continue;
    const d = Math.min(distance(name, s.name), distance(squash(name), squash(s.name)));
    if (!best || d < best.d) best = { name: s.name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(best.name.length / 4)) ? best.name : undefined;
}

/** The CRM_* variables of `env` that are no setting of the suite. */
export function unknownSettings(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((k) => k.startsWith('CRM_') && !SETTING_NAMES.has(k))
    .sort();
}
