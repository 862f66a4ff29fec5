/**
 * JSON Schemas (draft 2020-12) of the two catalogs and of the coverage map's gap reasons, generated
 * from their Zod schemas (rules/schema.ts, rules/coverage-reasons.ts) with `z.toJSONSchema()`, for
 * readers in any language: `rules/rules.schema.json`, `rules/choices.schema.json` and
 * `rules/coverage-reasons.schema.json`, committed and shipped in the package
 * (`crm-conformance/rules/rules.schema.json`, beside `crm-conformance/rules/rules.json`).
 * `npm run rules:schemas` writes them; selftest/catalog-schemas.unit.test.ts checks that they are
 * not stale and that the catalogs validate against them. What JSON Schema cannot say (ids unique,
 * a rule that follows an RFC gives its reading, alternative names unique, a gap explained once) only the Zod schemas check.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { OpenChoiceRecord, RuleRecord } from './schema.js';
import { CoverageReasonRecord } from './coverage-reasons.js';

/** Each catalog's file name, its schema's, and the schema itself. */
const CATALOGS = [
  {
    file: 'rules.json',
    schemaFile: 'rules.schema.json',
    schema: z.array(RuleRecord).meta({
      title: 'crm-conformance rules catalog',
      description:
        'Every normative statement of the CRM Developer API specification, with a stable id (rules/rules.json). Ids are unique; a rule with an rfc has a reading.',
    }),
  },
  {
    file: 'choices.json',
    schemaFile: 'choices.schema.json',
    schema: z.array(OpenChoiceRecord).meta({
      title: 'crm-conformance open choices catalog',
      description:
        "What the CRM Developer API specification leaves open, with the alternatives a conformant server may take (rules/choices.json). Ids and the names of a choice's alternatives are unique; the first alternative is the reference server's default.",
    }),
  },
  {
    file: 'coverage-reasons.json',
    schemaFile: 'coverage-reasons.schema.json',
    schema: z.array(CoverageReasonRecord).meta({
      title: 'crm-conformance coverage gap reasons',
      description:
        'Why a gap of the coverage map (spec-coverage.json: a class of the spec never exercised by a run) is no blind spot of the suite (rules/coverage-reasons.json). Each gap id is named by one record only and is a class id of the map.',
    }),
  },
] as const;

/** The JSON Schema of each catalog by its schema's file name (as the files hold them: the input a catalog file is). */
export function catalogJsonSchemas(): Record<string, { catalog: string; schema: Record<string, unknown> }> {
  return Object.fromEntries(CATALOGS.map((c) => [c.schemaFile, { catalog: c.file, schema: z.toJSONSchema(c.schema, { io: 'input' }) }]));
}

/** A schema as its file holds it. */
export const schemaText = (schema: unknown): string => `${JSON.stringify(schema, null, 2)}\n`;

if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  for (const [file, { schema }] of Object.entries(catalogJsonSchemas())) writeFileSync(resolve(__dirname, file), schemaText(schema));
  console.log(`wrote ${CATALOGS.map((c) => `rules/${c.schemaFile}`).join(' and ')}`);
}
