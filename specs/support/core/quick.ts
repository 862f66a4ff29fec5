/**
 * CRM_DEPTH=quick: the tests it leaves out (specs/support/quick-selection.json, made by
 * scripts/quick-selection.ts from a standard run; each of their rules is judged by a test that
 * runs), as Playwright `grepInvert` patterns (specs/support/suite-config.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './config.js';

export const QUICK_SELECTION_FILE = 'specs/support/quick-selection.json';

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * One pattern per test left out: it matches Playwright's grep title of that test (project, file
 * from specs/, describe titles, the title, then its tags) and no other.
 */
export function quickLeaveOut(file = join(ROOT, QUICK_SELECTION_FILE)): RegExp[] {
  if (!existsSync(file)) return [];
  const { leaveOut } = JSON.parse(readFileSync(file, 'utf8')) as { leaveOut: { file: string; title: string }[] };
  return leaveOut.map((t) => new RegExp(`${escapeRegex(t.file.replace(/^specs\//, ''))} .*${escapeRegex(t.title)}(?: @\\S+)*$`));
}
