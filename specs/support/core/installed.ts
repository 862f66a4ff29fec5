/**
 * Where the suite's files are as its user has them: a checkout of the repository, or an installed
 * package. From a package, `crm-conformance run` runs a copy of it outside node_modules
 * (cli/materialize.ts), marked by COPY_MARK, which holds the installed package's directory: what
 * the user is pointed to (a page of docs/, a rule page) is in that directory, not in the copy,
 * which is replaced when the package is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/** The file cli/materialize.ts writes into a complete copy of an installed package: the package's directory. */
export const COPY_MARK = '.crm-conformance-complete';

export interface SuiteHome {
  /** `package`: an installed package (or its runnable copy); `repository`: a checkout. */
  place: 'repository' | 'package';
  /** The directory of the suite's files as the user has them. */
  dir: string;
}

/** Where the suite at `root` (the directory its modules run from) is, as its user has it. */
export function suiteHome(root: string): SuiteHome {
  const mark = join(root, COPY_MARK);
  if (existsSync(mark)) return { place: 'package', dir: readFileSync(mark, 'utf8').trim() || root };
  return { place: root.split(sep).includes('node_modules') ? 'package' : 'repository', dir: root };
}

/**
 * A file of the suite (`docs/configuration.md`) named as its reader can open it: relative to the
 * working directory when it lies inside it (`node_modules/crm-conformance/docs/…` in a server's
 * project, `docs/…` in a checkout), else absolute.
 */
export function suiteFile(path: string, root: string, cwd = process.cwd()): string {
  const file = join(suiteHome(root).dir, path);
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : file;
}
