/**
 * `npm run contracts:export [-- <dir>]`: writes `<dir>/<ExportName>.json` (a self-contained JSON
 * Schema, draft 2020-12, of every Zod schema exported from contracts/index.ts) and
 * `<dir>/openapi.json` (OpenAPI 3.1 of every endpoint in contracts/endpoints.ts).
 * `<dir>` defaults to reports/schemas.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { buildOpenApi, componentSchemas, contractSchemas, standaloneJsonSchema } from './openapi.js';

export const DEFAULT_OUT_DIR = resolve(__dirname, '../reports/schemas');

export interface ExportResult {
  outDir: string;
  /** Names of the contracts written as `<name>.json`. */
  schemas: string[];
  openapi: string;
}

export function exportSchemas(outDir: string = DEFAULT_OUT_DIR): ExportResult {
  mkdirSync(outDir, { recursive: true });
  const write = (file: string, json: unknown) => writeFileSync(resolve(outDir, file), `${JSON.stringify(json, null, 2)}\n`);
  const entries = contractSchemas();
  for (const entry of entries) write(`${entry.name}.json`, standaloneJsonSchema(entry));
  const openapi = resolve(outDir, 'openapi.json');
  write('openapi.json', buildOpenApi(undefined, componentSchemas(entries)));
  return { outDir, schemas: entries.map((e) => e.name), openapi };
}

if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  const arg = process.argv[2];
  const res = exportSchemas(arg ? resolve(arg) : DEFAULT_OUT_DIR);
  console.log(`wrote ${res.schemas.length} JSON Schemas and openapi.json to ${relative(process.cwd(), res.outDir) || '.'}`);
}
