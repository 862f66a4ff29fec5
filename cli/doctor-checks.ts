/**
 * What every group of the doctor's checks (cli/doctor-*.ts) shares: the lines it adds
 * ({@link Checks}), the context it is given ({@link Probe}), and small helpers to send a request
 * and describe its answer.
 */
import type { z } from 'zod';
import { TransportError, redactText, type ApiClient, type ApiResponse, type TargetConfig } from './suite.js';

export type Status = 'ok' | 'warn' | 'fail' | 'skip';
export interface Line {
  check: string;
  status: Status;
  detail: string;
  fix?: string;
}

/** Secrets never reach a line (answers are quoted in them); before the configuration loads there are none to know. */
function safe(text: string): string {
  try {
    return redactText(text);
  } catch {
    return text;
  }
}

/** The doctor's lines, in order; a fix is kept only on a WARN or FAIL line. */
export class Checks {
  readonly lines: Line[] = [];
  add(check: string, status: Status, detail: string, fix?: string): void {
    this.lines.push({ check, status, detail: safe(detail), ...(fix && status !== 'ok' && status !== 'skip' ? { fix: safe(fix) } : {}) });
  }
}

/** What a group of checks against the target is given: the lines, the configuration, the client that the target accepts. */
export interface Probe {
  checks: Checks;
  cfg: TargetConfig;
  client: ApiClient;
}

/** An answer, or why there was none (a transport failure). */
export type Answer = ApiResponse | { error: string };

export const ok2xx = (res: ApiResponse) => res.status >= 200 && res.status < 300;
export const brief = (res: ApiResponse) => `${res.status}${res.text ? ` ${res.text.replace(/\s+/g, ' ').slice(0, 120)}` : ''}`;
export const issues = (err: z.ZodError) =>
  err.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');

/** Sends, turning a transport failure into an answer-less result. */
export async function attempt(fn: () => Promise<ApiResponse>): Promise<Answer> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof TransportError) return { error: err.message.split('\n')[0] };
    throw err;
  }
}
export const isError = (r: Answer): r is { error: string } => 'error' in r;
/** A 2xx answer. */
export const accepted = (r: Answer): r is ApiResponse => !isError(r) && ok2xx(r);
/** The answer's status and start, or the transport failure. */
export const told = (r: Answer): string => (isError(r) ? r.error : brief(r));
