/**
 * What the modules of the configuration share (core/config.ts re-exports ConfigError): the error
 * of a bad value and the reading of a JSON file a setting names. Apart from config.ts, so that the
 * modules it reads with (core/expectations.ts) use them without an import cycle.
 */
import { existsSync, readFileSync } from 'node:fs';

/** Raised for a bad configuration value; the message names the variable and what is wrong. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(`crm-conformance configuration error: ${message}`);
    this.name = 'ConfigError';
  }
}

/**
 * The JSON of `file`, named by the setting `name`; a missing file or a file that is not JSON is a
 * {@link ConfigError} naming the setting (`hint`: how to make the file, appended to "not found").
 */
export function readSettingJson(name: string, file: string, hint = ''): unknown {
  if (!existsSync(file)) throw new ConfigError(`${name}: file not found: ${file}${hint ? ` (${hint})` : ''}`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${name}: ${file} is not valid JSON (${(e as Error).message})`);
  }
}
