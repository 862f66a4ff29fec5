/**
 * `npm run contracts:export`: the JSON Schemas and the OpenAPI document, written into a
 * temporary directory by the real command line.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import * as contracts from '../contracts/index.js';
import { ENDPOINTS } from '../contracts/endpoints.js';
import { DEFAULT_OUT_DIR } from '../contracts/export.js';
import { readJson } from './helpers.js';

const ROOT = resolve(__dirname, '..');
const DRAFT = 'https://json-schema.org/draft/2020-12/schema';
const TS_MAX = 9_999_999_999;

type Json = Record<string, any>;

const SCHEMAS: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(contracts as Record<string, unknown>).filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType),
);
/** Contracts that accept any JSON value on purpose (spec § Errors: upsert 422 body "not shown"). */
const UNRESTRICTED = new Set(['UpsertConflict']);

let dir = '';
let files: string[] = [];
const schemaFiles: Record<string, Json> = {};
let openapi: Json = {};

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'crm-contracts-export-'));
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'contracts/export.ts', dir], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(res.status, 0, `contracts/export.ts failed:\n${res.stdout}\n${res.stderr}`);
  files = readdirSync(dir).sort();
  for (const f of files) {
    const json = readJson<Json>(join(dir, f));
    if (f === 'openapi.json') openapi = json;
    else schemaFiles[f.replace(/\.json$/, '')] = json;
  }
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Resolves a local JSON pointer reference (`#/a/b`) in `doc`. */
function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Visits every object node of a JSON value with its path. */
function walk(value: unknown, visit: (node: Json, path: string) => void, path = '#'): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, visit, `${path}/${i}`));
  else if (value && typeof value === 'object') {
    visit(value as Json, path);
    for (const [k, v] of Object.entries(value)) walk(v, visit, `${path}/${k}`);
  }
}

function unresolvedRefs(doc: unknown): string[] {
  const bad: string[] = [];
  walk(doc, (node, path) => {
    if (typeof node.$ref === 'string' && resolvePointer(doc, node.$ref) === undefined) bad.push(`${path}: ${node.$ref}`);
  });
  return bad;
}

/** The non-null branch of a nullable schema, following `$ref`s into `doc`. */
function integerBranch(schema: Json, doc: unknown): Json | undefined {
  if (typeof schema.$ref === 'string') return integerBranch(resolvePointer(doc, schema.$ref) as Json, doc);
  if (Array.isArray(schema.anyOf)) {
    for (const s of schema.anyOf as Json[]) {
      const found = integerBranch(s, doc);
      if (found) return found;
    }
    return undefined;
  }
  return schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer')) ? schema : undefined;
}

/** Members the spec gives as timestamps ("Unix time in seconds"); `close_date` is a string. */
const isTimestampMember = (name: string) => name !== 'close_date' && /^(date_\w+|\w+_date|created_at)$/.test(name);

function timestampProblems(doc: unknown, where: string): { checked: number; problems: string[] } {
  const problems: string[] = [];
  let checked = 0;
  walk(doc, (node, path) => {
    if (!node.properties || typeof node.properties !== 'object' || path.includes('/components/securitySchemes')) return;
    for (const [name, schema] of Object.entries(node.properties as Record<string, Json>)) {
      if (!isTimestampMember(name)) continue;
      checked++;
      const int = integerBranch(schema, doc);
      if (!int) problems.push(`${where} ${path}/properties/${name}: not an integer`);
      else if (int.maximum !== TS_MAX) problems.push(`${where} ${path}/properties/${name}: maximum ${int.maximum}, expected ${TS_MAX}`);
    }
  });
  return { checked, problems };
}

describe('JSON Schemas (reports/schemas/<ExportName>.json)', () => {
  test('one file per exported Zod schema, plus openapi.json', () => {
    assert.deepEqual(files, [...Object.keys(SCHEMAS), 'openapi'].map((n) => `${n}.json`).sort());
  });

  test('the default output directory is reports/schemas', () => {
    assert.equal(resolve(DEFAULT_OUT_DIR), resolve(ROOT, 'reports/schemas'));
  });

  test('each is a draft 2020-12 schema titled with its export name', () => {
    for (const [name, json] of Object.entries(schemaFiles)) {
      assert.equal(json.$schema, DRAFT, `${name}.json $schema`);
      assert.equal(json.title, name, `${name}.json title`);
    }
  });

  test('no schema is empty (zod-to-json-schema emitted {} for zod 4)', () => {
    for (const [name, json] of Object.entries(schemaFiles)) {
      if (UNRESTRICTED.has(name)) continue;
      const keys = Object.keys(json).filter((k) => k !== '$schema' && k !== 'title' && k !== 'description');
      assert.ok(
        keys.some((k) => ['type', 'anyOf', 'oneOf', 'allOf', 'const', 'enum', '$ref'].includes(k)),
        `${name}.json has no constraint: ${JSON.stringify(json)}`,
      );
    }
  });

  test('each object schema has properties', () => {
    let objects = 0;
    for (const [name, json] of Object.entries(schemaFiles)) {
      if (SCHEMAS[name] instanceof z.ZodObject) {
        objects++;
        assert.equal(json.type, 'object', `${name}.json is an object schema`);
      }
      if (json.type !== 'object') continue;
      assert.ok(json.properties && Object.keys(json.properties).length > 0, `${name}.json has properties`);
      // Nested objects: named members, or a record's additionalProperties.
      walk(json, (node, path) => {
        if (node.type === 'object') assert.ok('properties' in node || 'additionalProperties' in node, `${name}.json ${path} is an object without members`);
      });
    }
    assert.ok(objects > 30, `${objects} object schemas`);
  });

  test('Person requires id (and the other members the spec lists)', () => {
    const person = schemaFiles.Person;
    for (const m of ['id', 'name', 'emails', 'tags', 'custom_fields', 'interaction_count', 'date_created', 'date_modified']) {
      assert.ok(person.required.includes(m), `Person requires ${m}`);
    }
    assert.equal(person.properties.emails.type, 'array', 'emails is a list, never null');
  });

  test('timestamps are integers with the maximum bound (seconds, not milliseconds)', () => {
    const ts = schemaFiles.timestamp;
    assert.equal(ts.type, 'integer');
    assert.equal(ts.maximum, TS_MAX);
    assert.equal(typeof ts.minimum, 'number');
    for (const m of ['date_created', 'date_modified']) {
      // Person's may be null (no sentence guarantees them); Project's are guaranteed (searches bound them).
      assert.equal(integerBranch(schemaFiles.Person.properties[m], schemaFiles.Person)?.maximum, TS_MAX, `Person.${m}`);
      assert.equal(schemaFiles.Project.properties[m].type, 'integer', `Project.${m}`);
      assert.equal(schemaFiles.Project.properties[m].maximum, TS_MAX, `Project.${m}`);
    }
    let checked = 0;
    const problems: string[] = [];
    for (const [name, json] of Object.entries(schemaFiles)) {
      const r = timestampProblems(json, `${name}.json`);
      checked += r.checked;
      problems.push(...r.problems);
    }
    assert.deepEqual(problems, []);
    assert.ok(checked > 50, `${checked} timestamp members checked`);
  });

  test('nullability is kept: null where the spec allows it, never for lists or guaranteed values', () => {
    const acceptsNull = (schema: Json, doc: unknown): boolean => {
      if (typeof schema.$ref === 'string') return acceptsNull(resolvePointer(doc, schema.$ref) as Json, doc);
      if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).some((x) => acceptsNull(x, doc));
      return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));
    };
    const member = (name: string, m: string) => acceptsNull(schemaFiles[name].properties[m], schemaFiles[name]);
    for (const [name, m] of [
      ['Activity', 'details'],
      ['Person', 'name'],
      ['Task', 'priority'],
      ['Opportunity', 'status'],
      ['FileMetadata', 'creator_id'],
    ]) {
      assert.ok(member(name, m), `${name}.${m} may be null`);
    }
    for (const [name, m] of [
      ['Person', 'id'],
      ['Person', 'emails'],
      ['Person', 'tags'],
      ['Pipeline', 'stages'],
      ['Project', 'name'],
      ['Task', 'status'],
      ['Lead', 'status'],
      ['WebhookSubscription', 'created_at'],
    ]) {
      assert.ok(!member(name, m), `${name}.${m} is never null`);
    }
  });

  test('request bodies and the profile are rendered as input (defaults make members optional)', () => {
    assert.equal(schemaFiles.TargetProfile.required, undefined, 'every member of the profile has a default');
    assert.deepEqual(schemaFiles.ProjectCreate.required, ['name'], 'ProjectCreate requires name only');
    assert.equal(schemaFiles.ProjectCreate.additionalProperties, undefined, 'unknown members of a request body are stripped, not refused');
  });

  test('enumerations are kept', () => {
    assert.deepEqual(schemaFiles.TaskStatus.enum, ['Open', 'Completed']);
    assert.deepEqual(schemaFiles.Pipeline.properties.type.enum, ['opportunity', 'project', 'item']);
    assert.deepEqual(schemaFiles.WebhookCreate.properties.event.enum, ['new', 'update', 'delete']);
    assert.equal(schemaFiles.TokenResponse.properties.token_type.const, 'Bearer');
    assert.equal(schemaFiles.WebhookInvalid.properties.status.const, 422);
    assert.equal(schemaFiles.BulkFailedEntry.properties.success.const, false);
  });

  test('every $ref of a standalone schema resolves in its file', () => {
    for (const [name, json] of Object.entries(schemaFiles)) assert.deepEqual(unresolvedRefs(json), [], `${name}.json`);
  });
});

describe('OpenAPI document (reports/schemas/openapi.json)', () => {
  test('is OpenAPI 3.1.0 with the JSON Schema 2020-12 dialect', () => {
    assert.equal(openapi.openapi, '3.1.0');
    assert.equal(openapi.jsonSchemaDialect, DRAFT);
    assert.equal(typeof openapi.info.title, 'string');
    assert.equal(typeof openapi.info.version, 'string');
  });

  test('every ENDPOINTS entry appears under paths with its method', () => {
    const missing = ENDPOINTS.filter((e) => !openapi.paths[e.path]?.[e.method.toLowerCase()]).map((e) => `${e.method} ${e.path}`);
    assert.deepEqual(missing, []);
    const operations = Object.values(openapi.paths as Record<string, Json>).flatMap((item) => ['get', 'put', 'post', 'delete'].filter((m) => m in item));
    assert.equal(operations.length, ENDPOINTS.length, 'no operation beyond the endpoint table');
  });

  test('every $ref resolves', () => {
    const refs: string[] = [];
    walk(openapi, (node) => typeof node.$ref === 'string' && refs.push(node.$ref));
    assert.ok(refs.length > 50, `${refs.length} references`);
    assert.deepEqual(unresolvedRefs(openapi), []);
  });

  test('components.schemas holds every contract, object schemas with properties', () => {
    const schemas = openapi.components.schemas as Record<string, Json>;
    assert.deepEqual(Object.keys(schemas).sort(), Object.keys(SCHEMAS).sort());
    for (const [name, s] of Object.entries(schemas)) {
      assert.equal(s.$schema, undefined, `${name}: no $schema inside components`);
      assert.equal(s.$id, undefined, `${name}: no $id inside components`);
      if (s.type === 'object') assert.ok(Object.keys(s.properties ?? {}).length > 0, `components.schemas.${name} has properties`);
    }
    assert.ok(schemas.Person.required.includes('id'), 'Person requires id');
    assert.equal(schemas.timestamp.type, 'integer');
    assert.equal(schemas.timestamp.maximum, TS_MAX);
    const r = timestampProblems(openapi, 'openapi.json');
    assert.deepEqual(r.problems, []);
    assert.ok(r.checked > 30, `${r.checked} timestamp members checked`);
  });

  test('servers: the API under {base_url}/developer_api/v1, OAuth under {auth_url}', () => {
    assert.equal(openapi.servers[0].url, '{base_url}/developer_api/v1');
    assert.ok(openapi.servers[0].variables.base_url.default);
    for (const e of ENDPOINTS) {
      const item = openapi.paths[e.path];
      if (e.host === 'auth') assert.equal(item.servers?.[0]?.url, '{auth_url}', `${e.path} is served from {auth_url}`);
      else assert.equal(item.servers, undefined, `${e.path} uses the API server`);
    }
  });

  test('security: the three header credentials together, or a bearer token; none on the OAuth endpoints', () => {
    const schemes = openapi.components.securitySchemes as Record<string, Json>;
    const headers = Object.values(schemes)
      .filter((s) => s.type === 'apiKey' && s.in === 'header')
      .map((s) => s.name)
      .sort();
    assert.deepEqual(headers, ['X-SVC-AccessToken', 'X-SVC-Application', 'X-SVC-UserEmail']);
    assert.ok(
      Object.values(schemes).some((s) => s.type === 'http' && s.scheme === 'bearer'),
      'a bearer scheme',
    );
    const requirements = openapi.security as Record<string, string[]>[];
    assert.equal(requirements.length, 2);
    const headerRequirement = requirements.find((r) => Object.keys(r).length === 3)!;
    assert.deepEqual(
      Object.keys(headerRequirement)
        .map((k) => schemes[k].name)
        .sort(),
      headers,
    );
    for (const r of requirements) for (const k of Object.keys(r)) assert.ok(k in schemes, `security names scheme ${k}`);
    for (const e of ENDPOINTS.filter((x) => x.host === 'auth')) {
      assert.deepEqual(openapi.paths[e.path][e.method.toLowerCase()].security, [], `${e.path} needs no API credentials`);
    }
  });

  test('path parameters: every {param} is declared, required, in: path', () => {
    for (const e of ENDPOINTS) {
      const op = openapi.paths[e.path][e.method.toLowerCase()];
      const declared = (op.parameters ?? []).filter((p: Json) => p.in === 'path');
      const names = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      assert.deepEqual(
        declared.map((p: Json) => p.name),
        names,
        `${e.method} ${e.path}`,
      );
      for (const p of declared) assert.equal(p.required, true, `${e.path} {${p.name}} is required`);
    }
    const files = openapi.paths['/{entity_type}/{entity_id}/files/{file_id}'].get.parameters as Json[];
    assert.deepEqual(files.find((p) => p.name === 'entity_type')!.schema.enum, ['leads', 'people', 'opportunities', 'companies', 'projects']);
    assert.equal(files.find((p) => p.name === 'file_id')!.schema.$ref, '#/components/schemas/numericId');
  });

  test('operation ids are unique', () => {
    const ids: string[] = [];
    for (const item of Object.values(openapi.paths as Record<string, Json>)) {
      for (const m of ['get', 'put', 'post', 'delete']) if (item[m]) ids.push(item[m].operationId);
    }
    assert.equal(new Set(ids).size, ids.length, ids.join(', '));
  });

  test('request bodies: JSON contracts, the OAuth token request form-encoded, authorize parameters in the query', () => {
    for (const e of ENDPOINTS.filter((x) => x.request && x.method !== 'GET')) {
      const content = openapi.paths[e.path][e.method.toLowerCase()].requestBody.content;
      const type = e.form ? 'application/x-www-form-urlencoded' : 'application/json';
      assert.equal(content[type]?.schema?.$ref, `#/components/schemas/${e.request}`, `${e.method} ${e.path} body`);
    }
    const authorize = openapi.paths['/oauth/authorize'].get;
    const query = (authorize.parameters as Json[]).filter((p) => p.in === 'query');
    assert.deepEqual(query.map((p) => p.name).sort(), ['client_id', 'redirect_uri', 'response_type', 'scope', 'state']);
    assert.equal(query.find((p) => p.name === 'state')!.required, false);
    assert.equal(query.find((p) => p.name === 'scope')!.schema.const, 'developer/v1/all');
  });

  test('responses: 200 with the response contract; the error bodies the spec shows', () => {
    for (const e of ENDPOINTS.filter((x) => x.response)) {
      const ok = openapi.paths[e.path][e.method.toLowerCase()].responses['200'];
      assert.equal(ok?.content?.['application/json']?.schema?.$ref, `#/components/schemas/${e.response}`, `${e.method} ${e.path} 200`);
    }
    const bulk = openapi.paths['/opportunities/bulk_create'].post.responses;
    assert.deepEqual(
      bulk['200'].content['application/json'].schema.items.anyOf.map((s: Json) => s.$ref),
      ['#/components/schemas/BulkOpportunity', '#/components/schemas/BulkFailedEntry'],
    );
    assert.equal(bulk['422'].content['application/json'].schema.$ref, '#/components/schemas/BulkTooLarge');
    assert.ok(bulk['429'], 'bulk rate limit');
    assert.equal(openapi.paths['/webhooks'].post.responses['422'].content['application/json'].schema.$ref, '#/components/schemas/WebhookInvalid');
    assert.equal(openapi.paths['/leads/upsert'].put.responses['422'].content['application/json'].schema.$ref, '#/components/schemas/UpsertConflict');
    for (const item of Object.values(openapi.paths as Record<string, Json>)) {
      for (const m of ['get', 'put', 'post', 'delete']) {
        if (!item[m]) continue;
        assert.ok(Object.keys(item[m].responses).length > 0, `${item[m].operationId} has responses`);
        for (const [status, r] of Object.entries(item[m].responses as Record<string, Json>)) {
          assert.equal(typeof r.description, 'string', `${item[m].operationId} ${status} has a description`);
        }
      }
    }
  });

  test('the OAuth redirect is described as a callback with code or error', () => {
    const cb = openapi.paths['/oauth/authorize'].get.callbacks.authorizationResult['{$request.query.redirect_uri}'].post;
    const schema = cb.requestBody.content['application/x-www-form-urlencoded'].schema;
    assert.deepEqual(
      schema.anyOf.map((s: Json) => s.$ref),
      ['#/components/schemas/CallbackSuccess', '#/components/schemas/CallbackError'],
    );
  });
});
