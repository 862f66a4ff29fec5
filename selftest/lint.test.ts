/**
 * The lint (`npm run lint`: ESLint with the layering of CONTRIBUTING.md, the line length and a few
 * correctness rules, eslint.config.mjs; then `prettier --check .`). Run here so that `npm test` and
 * CI run it. A finding fails this test with the linter's output: the file, line and rule, or the
 * files Prettier would change (`npm run format` rewrites them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runProcess } from './helpers.js';

test('the project lints (npm run lint: eslint and prettier --check)', async () => {
  // Under npm, npm_execpath is npm's own script: run it with this Node rather than look up `npm` on the PATH.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, 'run', 'lint']] : ['npm', ['run', 'lint']];
  const { code, out } = await runProcess(command, args);
  assert.equal(code, 0, `npm run lint found problems:\n${out.slice(-8000)}`);
});
