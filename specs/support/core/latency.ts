/**
 * How long to wait for a webhook notification. The spec leaves delivery time open ("not shown"),
 * so a wait lasts the longest wait, CRM_NOTIFICATION_TIMEOUT_MS (default 20 s), until this run has
 * *seen* a notification of that kind (a subscription's `type/event`, e.g. `lead/update`) fail to
 * come within it: only then is the target known not to deliver such notifications, and only then
 * are waits for them shortened (for every kind, when no notification at all has arrived in the
 * run: a target that delivers nothing), so that its other missing ones cost seconds rather than 20 s a
 * test (a run 2-4 times as long as a conformant one). A target
 * that delivers everything, however slowly now and then, never has a wait shortened: a delivery
 * that takes 8 s in the middle of a run, after hundreds of 10 ms deliveries, still passes.
 *
 * The shortened wait is learned: every notification that arrives while its test waits records
 * how long the test waited (one that was there before the wait began says nothing about delivery
 * time, and is not counted). After a miss, a wait lasts {@link LEARNED_FACTOR} times the slowest
 * arrival so far, at least {@link LEARNED_FLOOR_MS} ({@link SILENT_FLOOR_MS} while nothing at all has
 * arrived), never more than the longest wait. So the one
 * verdict a shortened wait could get wrong is on a target that already left a notification of
 * the same kind unsent (or, having delivered nothing yet, one of any kind), failing a notification rule: its failure message names the miss and the
 * way out, CRM_NOTIFICATION_TIMEOUT_MS, which, when set, is the wait for every notification, and
 * nothing is learned. A miss of a target that delivers nothing (`silent`) is one problem, whatever
 * the kind: its failure says so on its first line, so that the later ones of a rule are held as
 * repeats of the first (core/repeats.ts) rather than each replacing a worker.
 *
 * What a run learns is shared by its processes (a worker replaced after a failure included):
 * one line per arrival or miss, appended to the run's file (appends do not overwrite each other).
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from './config.js';
import { runFile, writeRunFile } from './run-files.js';

export const LEARNED_FACTOR = 20;
export const LEARNED_FLOOR_MS = 5_000;
/**
 * The wait once the run has seen a wait last the longest wait in vain and no notification of any
 * kind has arrived: a target that delivers nothing. Kept above zero so that a target whose
 * deliveries start late can still show one (any arrival gives every kind the longest wait again).
 */
export const SILENT_FLOOR_MS = 1_000;

/** One line of the run file: a notification arrived after `arrivedMs` of waiting, or one of a kind awaited the longest wait in vain. */
type Event = { arrivedMs: number } | { missed: string; kind: string };

/** What the run learned: the slowest arrival, and per kind of notification the first miss. */
interface Learned {
  slowestMs: number;
  arrivals: number;
  missed: Map<string, string>;
}

/** What was read last, and when: the run file is read again once {@link MEMO_MS} have passed, or after this process learned something. */
const memo = { at: 0, value: { slowestMs: 0, arrivals: 0, missed: new Map() } as Learned };
const MEMO_MS = 250;

/**
 * Forgets what was read of the run file, so that the next wait reads it again: for the self-tests,
 * which play several runs and processes in one (another process's lines are otherwise seen only
 * once the memo is {@link MEMO_MS} old).
 */
export function resetLatencyMemo(): void {
  memo.at = 0;
}

function learned(): Learned {
  if (Date.now() - memo.at < MEMO_MS) return memo.value;
  const l: Learned = { slowestMs: 0, arrivals: 0, missed: new Map() };
  let text = '';
  try {
    text = readFileSync(runFile('latency'), 'utf8');
  } catch {
    /* nothing learned yet */
  }
  for (const line of text.split('\n')) {
    let e: Event;
    try {
      e = JSON.parse(line) as Event;
    } catch {
      continue;
    }
    if ('arrivedMs' in e) {
      l.arrivals++;
      l.slowestMs = Math.max(l.slowestMs, e.arrivedMs);
    } else if (!l.missed.has(e.kind)) l.missed.set(e.kind, e.missed);
  }
  memo.at = Date.now();
  memo.value = l;
  return l;
}

function learn(e: Event): void {
  memo.at = 0;
  try {
    writeRunFile('latency', JSON.stringify(e) + '\n', 'append');
  } catch {
    /* best effort: the longest wait applies */
  }
}

/**
 * The wait for one notification of a kind (a subscription's `type/event`) now, and why (for the
 * failure message). `longest`: it is the longest wait, so a notification that does not come
 * within it is a miss ({@link notificationMissed}). `optional`: nothing is judged on the
 * notification's absence (a test that only inspects it if it comes), so the learned wait applies
 * without a miss, and its absence teaches nothing.
 */
export function notificationDeadline(kind: string, options: { optional?: boolean } = {}): { ms: number; why: string; longest: boolean; silent: boolean } {
  const { notificationTimeoutMs: max, notificationTimeoutFixed: fixed } = loadConfig();
  if (fixed) return { ms: max, why: 'CRM_NOTIFICATION_TIMEOUT_MS, set for every wait', longest: false, silent: false };
  const l = learned();
  // A miss of this kind; or, while no notification of any kind has ever arrived, a miss of any
  // kind: a target that has delivered nothing at all after a whole longest wait is not one whose
  // deliveries are merely late now and then (each kind would otherwise cost the longest wait).
  const own = l.missed.get(kind);
  const any = !own && !l.arrivals ? l.missed.entries().next().value : undefined;
  const missed = own ?? (any ? `${any[1]} (${any[0]}; no notification of any kind has arrived in this run)` : undefined);
  if (!(missed || options.optional)) {
    const yet = l.arrivals
      ? `waits for ${kind} notifications are shortened only once one has lasted it in vain`
      : 'no notification of this run has arrived yet, and none has been awaited in vain';
    return { ms: max, why: `the longest wait (CRM_NOTIFICATION_TIMEOUT_MS): ${yet}`, longest: !options.optional, silent: false };
  }
  // A target that delivers nothing: a wait of the run lasted the longest wait in vain, and nothing has arrived.
  const silent = !l.arrivals && l.missed.size > 0;
  const floor = silent ? SILENT_FLOOR_MS : LEARNED_FLOOR_MS;
  const ms = Math.min(max, Math.max(floor, LEARNED_FACTOR * l.slowestMs));
  const since = missed
    ? `shortened since a ${own ? kind : 'notification'} notification ${missed} did not come within the longest wait`
    : 'an optional notification';
  return {
    ms,
    silent,
    longest: ms === max && !options.optional,
    why: `${since}: ${LEARNED_FACTOR} × the slowest of the ${l.arrivals} notification(s) of this run so far (${l.arrivals ? `${l.slowestMs} ms` : 'none'}), at least ${floor} ms${silent ? ' (nothing delivered in this run)' : ''}, at most CRM_NOTIFICATION_TIMEOUT_MS (${max} ms); if this target can deliver more slowly, set CRM_NOTIFICATION_TIMEOUT_MS`,
  };
}

/** A notification arrived `waitedMs` after its test began waiting for it. */
export function notificationArrived(waitedMs: number): void {
  if (!loadConfig().notificationTimeoutFixed) learn({ arrivedMs: Math.round(waitedMs) });
}

/** A notification (`what`) of a kind did not come within the longest wait: from now on, waits for that kind are shortened. */
export function notificationMissed(kind: string, what: string): void {
  if (!loadConfig().notificationTimeoutFixed && !learned().missed.has(kind)) learn({ missed: what, kind });
}
