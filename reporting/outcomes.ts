/**
 * The test outcomes a run wrote (conformance-outcomes.json), read back by the tooling: scripts/
 * (calibrate, repeat) and selftest/ (through selftest/helpers.ts).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../specs/support/core/config.js';
import { readJson } from '../specs/support/core/suite-run.js';
import type { OutcomeFile } from './conformance-reporter.js';
import type { TestOutcome } from './verdict.js';

/**
 * The test outcomes a run wrote into its report directory, or undefined when it wrote none. The
 * file's name is OUTCOMES_FILE of reporting/conformance-reporter.ts, written out here: importing
 * it would load the reporter into every self-test.
 */
export function readOutcomes(reportDir: string): TestOutcome[] | undefined {
  const file = resolve(ROOT, reportDir, 'conformance-outcomes.json');
  return existsSync(file) ? readJson<OutcomeFile>(file).outcomes : undefined;
}
