/** Helpers shared by the reference server's area modules. */
import { HttpError, fail } from '../http.js';
import type { App } from '../app.js';
import { FIXTURES } from '../profile.js';

export { fail };

/** The user the credentials belong to: the first user of reference/profile.json. */
export const CURRENT_USER_ID = FIXTURES.users[0].id;

export function notFound(what: string): never {
  throw new HttpError(404, { success: false, status: 404, message: `${what} not found` });
}

/** A missing record of the record areas: status of the open choice `records.missing-status`, body `errors.body`. */
export function missing(app: App, what: string): never {
  throw refusal(app, Number(app.choice('records.missing-status')), `${what} not found`, { code: 'not_found' });
}

/** A numeric path id, or 404/400. */
export function idParam(value: string | undefined, what: string): number {
  if (!value || !/^\d+$/.test(value)) fail(400, `${what} must be a number`);
  return Number(value);
}

export function asObject(body: unknown, what = 'body'): Record<string, unknown> {
  if (body === undefined) return {};
  if (!body || typeof body !== 'object' || Array.isArray(body)) fail(400, `${what} must be a JSON object`);
  return body as Record<string, unknown>;
}

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const arr = <T = unknown>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/**
 * An error whose body the spec does not show, in the shape of the open choice `errors.body`
 * (`code` and `field` appear only in the errors-list and nested shapes). Throw it: `throw refusal(app, 404, '…')`.
 */
export function refusal(
  app: App,
  status: number,
  message: string,
  detail: { code?: string; field?: string } = {},
  headers: Record<string, string> = {},
): HttpError {
  const shape = app.choice('errors.body');
  const body =
    shape === 'errors-list'
      ? { errors: [{ ...(detail.code ? { code: detail.code } : {}), field: detail.field ?? null, detail: message }] }
      : shape === 'error-string'
        ? { error: message }
        : shape === 'nested'
          ? { error: { code: detail.code ?? (status === 404 || status === 410 ? 'not_found' : 'invalid_request'), message: `Request failed: ${message}` } }
          : { success: false, status, message };
  return new HttpError(status, body, headers);
}

/**
 * The open choice `errors.ill-typed-input`: under `lenient`, a member of the wrong type that has a
 * valid reading (a number given as text, a fractional timestamp) is taken so, and a page number
 * below 1 or an unknown sort field as the default; under `refused` (the default) it is refused.
 */
export const lenient = (app: App): boolean => app.choice('errors.ill-typed-input') === 'lenient';

/** An ill-formed request: status `errors.validation-status`, body `errors.body`. */
export function invalid(app: App, message: string, field?: string): never {
  throw refusal(app, Number(app.choice('errors.validation-status')), message, { field });
}
