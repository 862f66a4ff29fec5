/**
 * Replay lines of properties (specs/support/property.ts prints them): the command that runs one
 * test where the line is printed, the line itself, and the form of a model's command sequences
 * whose counterexamples replay from their seed and path alone.
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fc from 'fast-check';
import { ROOT } from './config.js';

/**
 * The command that runs one test where the replay line is printed: `npx playwright test` in a
 * checkout of the suite; from an installed package, whose suite runs from a copy outside
 * node_modules (cli/materialize.ts marks it with `.crm-conformance-complete`), `npx crm-conformance
 * run`, which runs the packaged configuration from the user's working directory.
 */
export function runCommand(root: string = ROOT): string {
  const installed = existsSync(join(root, '.crm-conformance-complete')) || root.split(sep).includes('node_modules');
  return installed ? 'npx crm-conformance run' : 'npx playwright test';
}

/**
 * The line that replays a counterexample: the seed, the path, the CRM_FC_RUNS setting the
 * property's runs came from (a property that runs half of CRM_FC_RUNS gets the same half again),
 * and the test by its file and line.
 */
export function replayLine(o: { seed: number; path: string; runsSetting: number; file: string; line: number; root?: string }): string {
  const file = relative(o.root ?? ROOT, o.file)
    .split(sep)
    .join('/');
  return `CRM_FC_SEED=${o.seed} CRM_FC_PATH=${o.path} CRM_FC_RUNS=${o.runsSetting} ${runCommand(o.root)} ${file}:${o.line}`;
}

/**
 * A model's command sequences as a plain list (`fc.array` of `fc.oneof`) for `fc.asyncModelRun`,
 * instead of `fc.commands`: a list shrinks the same whatever ran, so a counterexample replays
 * from its seed and path alone. `fc.commands` shrinks by the commands that ran: replaying its
 * path also needs the `replayPath` of the counterexample, and without it fast-check stops with
 * "Unable to replay, got wrong path", on a faulty server and on a fixed one alike.
 */
export function commandList<M extends object, R>(
  commands: fc.Arbitrary<fc.AsyncCommand<M, R>>[],
  o: { maxCommands: number; size?: fc.SizeForArbitrary },
): fc.Arbitrary<fc.AsyncCommand<M, R>[]> {
  return fc.array(fc.oneof(...commands), { maxLength: o.maxCommands, size: o.size });
}
