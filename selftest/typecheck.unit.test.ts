/**
 * The type check (`tsc -p .`, also `npm run typecheck`): every spec, support module, contract,
 * reporter, script and self-test type-checks. It runs beside the other self-test files rather
 * than before them: about 8 s of CPU on one core, while the other core would wait (npm test on 2
 * cores). A type error fails this test and names the file, line and message; the other files run on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ROOT, runProcess } from './helpers.js';

test('the project type-checks (tsc -p .)', async () => {
  const { code, out } = await runProcess(process.execPath, [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.']);
  assert.equal(code, 0, `tsc -p . found type errors:\n${out.slice(-6000)}`);
});
