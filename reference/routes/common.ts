/** Helpers shared by the reference server's area modules. */
import { HttpError, fail } from '../http.js';
import type { App } from '../app.js';
import { FIXTURES } from '../profile.js';

export { fail };

/** The user the credentials belong to: the first user of reference/profile.json. */
export const CURRENT_USER_ID = FIXTURES.users[0].id;

export function notFound(what: string): never {
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: the body of a 404: the general error body is not shown (spec § Errors; any 4xx is a refusal)
  throw new HttpError(404, { success: false, status: 404, message: `${what} not found` });
}

/** A missing record of the record areas: status of the open choice `records.missing-status`, body `errors.body`. */
export function missing(app: App, what: string): never {
  // Stryker disable next-line ObjectLiteral,StringLiteral: the code reaches only the errors-list and nested shapes of errors.body (other alternatives)
  throw refusal(app, Number(app.choice('records.missing-status')), `${what} not found`, { code: 'not_found' });
}

/** A numeric path id, or 404/400. */
export function idParam(value: string | undefined, what: string): number {
  // Made false or loosened, a path id that is not digits is looked up as Number(id) and answered as a record not there: any 4xx either way (WIRE-6: the
  // status is not shown); an id such as "1e3" naming record 1000 is not shown either.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,Regex,CallExpression: a path id that is not digits, refused either way (above)
  if (!value || !/^\d+$/.test(value)) fail(400, `${what} must be a number`);
  return Number(value);
}

export function asObject(body: unknown, what = 'body'): Record<string, unknown> {
  // Stryker disable next-line ConditionalExpression: a search or subscription sent without a body, refused as ill-formed or read as no members (WIRE-5)
  if (body === undefined) return {};
  // `typeof body !== 'object'` made false: a number, text or boolean body is read as no members (a search: the default search; a subscription: refused
  // for its missing members), ill-typed input taken leniently (WIRE-5). Hides the whole test made false (killed: a JSON null search or subscription
  // body crashes, SEARCH-16 and HOOK-4 send one), as the test's other mutants are.
  // Stryker disable next-line ConditionalExpression: a body of a scalar type, read as no members (above)
  if (!body || typeof body !== 'object' || Array.isArray(body)) fail(400, `${what} must be a JSON object`);
  return body as Record<string, unknown>;
}

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
  // Stryker disable next-line StringLiteral: equivalent under the default: app.choice('') is undefined, which takes the default shape (message)
  const shape = app.choice('errors.body');
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: the default shape's members: the general error body is not shown (spec § Errors)
  const messageShape = { success: false, status, message };
  const body =
    shape === 'errors-list'
      ? { errors: [{ ...(detail.code ? { code: detail.code } : {}), field: detail.field ?? null, detail: message }] }
      : shape === 'error-string'
        ? { error: message }
        : shape === 'nested'
          ? { error: { code: detail.code ?? (status === 404 || status === 410 ? 'not_found' : 'invalid_request'), message: `Request failed: ${message}` } }
          : messageShape;
  return new HttpError(status, body, headers);
}

/**
 * The open choice `errors.ill-typed-input`: under `lenient`, a member of the wrong type that has a
 * valid reading (a number given as text, a fractional timestamp) is taken so, and a page number
 * below 1 or an unknown sort field as the default; under `refused` (the default) it is refused.
 */
// Stryker disable next-line ArrowFunction: equivalent under the default: undefined is falsy, as refused (the default of errors.ill-typed-input) is
export const lenient = (app: App): boolean => app.choice('errors.ill-typed-input') === 'lenient';

/** An ill-formed request: status `errors.validation-status`, body `errors.body`. */
export function invalid(app: App, message: string, field?: string): never {
  // Stryker disable next-line ObjectLiteral: the field reaches only the errors-list shape of errors.body (another alternative)
  throw refusal(app, Number(app.choice('errors.validation-status')), message, { field });
}
