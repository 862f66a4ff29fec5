/**
 * Replay lines of properties (specs/support/property.ts prints them) and the commands the suite's
 * messages name, each as its reader can run it where it is printed; the form of a model's command
 * sequences whose counterexamples replay from their seed and path alone.
 */
import { relative, sep } from 'node:path';
import fc from 'fast-check';
import { ROOT } from './config.js';
import { suiteHome, type SuiteHome } from './installed.js';

/**
 * Every command a message of the suite names, in the two places it may be printed: a checkout of
 * the repository (its npm scripts, `npx playwright test`) and an installed package, whose user has
 * the `crm-conformance` command and none of the repository's scripts. A message names a command
 * through {@link command}: selftest/commands.unit.test.ts finds each repository form in the
 * checkout (and no literal `npm run` in a message of the package), selftest/package.test.ts runs
 * each package form from an installed tarball.
 */
export const COMMANDS = {
  /** The suite; Playwright's arguments follow (a file:line, --shard=i/n, --list). */
  run: { repository: 'npx playwright test', package: 'npx crm-conformance run' },
  /** One report from the report directories of a sharded run. */
  merge: { repository: 'npm run merge --', package: 'npx crm-conformance merge' },
  /** The Allure report of a report directory as one HTML file. */
  report: { repository: 'npm run report --', package: 'npx crm-conformance report' },
  doctor: { repository: 'npx crm-conformance doctor', package: 'npx crm-conformance doctor' },
  profileInit: { repository: 'npx crm-conformance profile init', package: 'npx crm-conformance profile init' },
  installChromium: { repository: 'npx playwright install --only-shell chromium', package: 'npx playwright install --only-shell chromium' },
} as const satisfies Record<string, Record<SuiteHome['place'], string>>;
export type CommandName = keyof typeof COMMANDS;

/**
 * The command `name` with its arguments, as the reader of the message can run it: from the suite
 * at `root` (a checkout, or an installed package: cli/materialize.ts marks its runnable copy). An
 * npm script's arguments follow `--`, which is left out when there are none.
 */
export function command(name: CommandName, args = '', root: string = ROOT): string {
  const base = COMMANDS[name][suiteHome(root).place];
  return args ? `${base} ${args}` : base.replace(/ --$/, '');
}

/** The command that runs one test (or the suite) where the line is printed: {@link command} `run`. */
export function runCommand(root: string = ROOT): string {
  return command('run', '', root);
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
