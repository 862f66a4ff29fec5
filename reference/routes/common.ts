/** Helpers shared by the reference server's area modules. */
import { HttpError, fail } from '../http.js';
import type { App } from '../app.js';

export { fail };

/** The user the credentials belong to (seeded user 11). */
export const CURRENT_USER_ID = 11;

export function notFound(what: string): never {
  throw new HttpError(404, { success: false, status: 404, message: `${what} not found` });
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

/** Errors whose status and body the spec does not show: the variant answers differently. */
export function invalid(app: App, message: string, field?: string): never {
  if (app.variant) throw new HttpError(400, { errors: [{ field: field ?? null, detail: message }] });
  return fail(422, message);
}
