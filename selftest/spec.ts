/**
 * The specification, where it is at hand: beside this checkout, as in this repository's CI
 * (../shared/spec/crm-developer-api.md). The suite refers to it and never requires it: a lone
 * clone has none, and the self-tests that compare the catalog with its text skip, naming the
 * file they looked for (`{ skip: SPEC_MISSING }`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../specs/support/core/config.js';

export const SPEC_PATH = resolve(ROOT, '../shared/spec/crm-developer-api.md');

/** The spec's text, or undefined when there is none beside this checkout. */
export const SPEC_TEXT: string | undefined = existsSync(SPEC_PATH) ? readFileSync(SPEC_PATH, 'utf8') : undefined;

/** A node:test `skip` option: false with the spec at hand, else the reason, naming the file looked for. */
export const SPEC_MISSING: string | false = SPEC_TEXT === undefined && `no spec at ${SPEC_PATH} (the catalog's quotes and headings are checked where it is)`;

/** The spec's headings, in order. */
export function headingsOf(spec: string): string[] {
  return [...spec.matchAll(/^#+\s+(.+)$/gm)].map((m) => m[1].trim());
}
