/**
 * Writes a file whole or not at all: `write(tmp)` fills a temporary file beside it, which is then
 * renamed over it, so that a reader in parallel (another run, another worker, Allure) sees the old
 * file or the new one, never a part. On failure the temporary file is removed and the error thrown.
 * Plain CommonJS with no imports of the project's own: used by the scripts run by plain Node
 * (scripts/start-reference.mjs) and by the reporters (reporting/allure-reporter.ts), so it lives in
 * the core layer both import.
 */
'use strict';
const { randomBytes } = require('node:crypto');
const { basename, dirname, join } = require('node:path');
const { renameSync, rmSync } = require('node:fs');

/** @param {string} file @param {(tmp: string) => void} write */
function writeWhole(file, write) {
  // A dot first: Allure and other readers of the directory skip it.
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    write(tmp);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

module.exports = { writeWhole };
