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

/**
 * The classes of the spec's surface that the standard runs the selection was made from exercised
 * (`standardClasses` of the selection file): in a quick run's coverage map, such a class left
 * unexercised is a gap of the depth, not of the suite (reporting/coverage/map.ts).
 */
export function quickStandardClasses(file = join(ROOT, QUICK_SELECTION_FILE)): Set<string> {
  if (!existsSync(file)) return new Set();
  return new Set((JSON.parse(readFileSync(file, 'utf8')) as { standardClasses?: string[] }).standardClasses ?? []);
}
