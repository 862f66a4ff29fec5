/**
 * JSON Schema and OpenAPI 3.1 renderings of the contracts, built with zod's native
 * `z.toJSONSchema()` (never the deprecated zod-to-json-schema package). Pure functions: the
 * files are written by `contracts/export.ts` (`npm run contracts:export`).
 */
import { z } from 'zod';
import * as contracts from './index.js';
import * as requestContracts from './requests.js';
import * as profileContracts from './profile.js';
import { ENDPOINTS, type Endpoint, type ShownAnswer, type ShownCallback } from './endpoints.js';

export type JsonSchema = Record<string, unknown>;
/** Which side of a schema is rendered: what a client sends (`input`) or what a server answers (`output`). */
export type Io = 'input' | 'output';

export interface NamedSchema {
  name: string;
  schema: z.ZodType;
  /**
   * `input` for request bodies and the target profile (written by people: defaults make members
   * optional, plain objects accept and strip unknown members); `output` for everything else.
   */
  io: Io;
}

const INPUT_NAMES = new Set([...Object.keys(requestContracts), ...Object.keys(profileContracts)]);

/** Every Zod schema exported from contracts/index.ts, in export order (alphabetical). */
export function contractSchemas(): NamedSchema[] {
  return Object.entries(contracts as Record<string, unknown>)
    .filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType)
    .map(([name, schema]) => ({ name, schema, io: INPUT_NAMES.has(name) ? 'input' : 'output' }));
}

/** Options that cope with parts JSON Schema cannot express (refinements, `z.unknown()`, …). */
const baseOptions = { target: 'draft-2020-12', unrepresentable: 'any' } as const;

/** A self-contained JSON Schema (draft 2020-12) of one contract: every subschema inlined. */
export function standaloneJsonSchema(entry: NamedSchema): JsonSchema {
  const json = z.toJSONSchema(entry.schema, { ...baseOptions, io: entry.io }) as JsonSchema;
  const { $schema, ...rest } = json;
  return { $schema, title: entry.name, ...rest };
}

export const COMPONENTS_PREFIX = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${COMPONENTS_PREFIX}${name}` });

/** Collects the `$ref` values found anywhere in a JSON value. */
export function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  }
  return found;
}

/**
 * `components.schemas`: one entry per exported contract, referring to one another with `$ref`
 * (`identifier`, `timestamp`, `address`, … are referenced, not repeated). Each component is
 * rendered on its own side (`io`); a component referenced across sides must render the same on
 * both, which is checked.
 */
export function componentSchemas(entries: NamedSchema[] = contractSchemas()): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const primary = new Map<z.ZodType, string>();
  for (const e of entries) {
    if (primary.has(e.schema)) continue; // an alias of an earlier export (websiteEntry = socialEntry)
    primary.set(e.schema, e.name);
    registry.add(e.schema, { id: e.name });
  }
  const render = (io: Io) => {
    const { schemas } = z.toJSONSchema(registry, { ...baseOptions, io, uri: (id) => `${COMPONENTS_PREFIX}${id}` }) as { schemas: Record<string, JsonSchema> };
    const out: Record<string, JsonSchema> = {};
    for (const [id, json] of Object.entries(schemas)) {
      const { $schema: _schema, $id: _id, ...rest } = json;
      out[id] = rest;
    }
    return out;
  };
  const bySide = { input: render('input'), output: render('output') };
  const components: Record<string, JsonSchema> = {};
  const sideOf = new Map<string, Io>();
  for (const e of entries) {
    const first = primary.get(e.schema)!;
    if (first !== e.name) {
      components[e.name] = { ...ref(first), description: `the same shape as ${first}` };
      continue;
    }
    components[e.name] = bySide[e.io][e.name];
    sideOf.set(e.name, e.io);
  }
  // A component rendered on one side and referenced from the other must not depend on the side.
  for (const [name, io] of sideOf) {
    for (const target of refsIn(bySide[io][name])) {
      const t = target.slice(COMPONENTS_PREFIX.length);
      const tSide = sideOf.get(t);
      if (tSide && tSide !== io && JSON.stringify(bySide[io][t]) !== JSON.stringify(components[t])) {
        throw new Error(`component ${t} (${tSide}) renders differently as ${io}, but ${name} (${io}) refers to it`);
      }
    }
  }
  return components;
}

// ------------------------------------------------------------------------------ OpenAPI

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  jsonSchemaDialect: string;
  servers: Record<string, unknown>[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, Record<string, unknown>> };
}

/** § Files: "`entity_type` is one of leads, people, opportunities, companies, projects". */
export const FILE_ENTITY_TYPES = ['leads', 'people', 'opportunities', 'companies', 'projects'] as const;

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const NOT_SHOWN = {
  description: 'Any other outcome. Status codes and error bodies for missing records, credentials and permissions: not shown by the specification.',
};

const HEADER_SECURITY = { svcAccessToken: [], svcApplication: [], svcUserEmail: [] };

const securitySchemes = {
  svcAccessToken: { type: 'apiKey', in: 'header', name: 'X-SVC-AccessToken', description: 'Header credentials (spec § Header credentials): the access token.' },
  svcApplication: { type: 'apiKey', in: 'header', name: 'X-SVC-Application', description: 'Header credentials: always `developer_api`.' },
  svcUserEmail: { type: 'apiKey', in: 'header', name: 'X-SVC-UserEmail', description: 'Header credentials: the e-mail of the user that owns the token.' },
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      '`Authorization: Bearer <ACCESS_TOKEN>` with a token from the OAuth 2.0 authorization code grant (spec § OAuth 2.0 authorization code grant); tokens do not expire.',
  },
};

function pathParameter(name: string, e: Endpoint): Record<string, unknown> {
  const files = e.path.includes('/files/');
  const base = { name, in: 'path', required: true };
  if (name === 'entity_type') {
    return { ...base, description: 'Entity type of the record (spec § Files).', schema: { type: 'string', enum: [...FILE_ENTITY_TYPES] } };
  }
  if (files && (name === 'entity_id' || name === 'file_id')) {
    return { ...base, description: '`entity_id` and `file_id` are numbers (spec § Files).', schema: ref('numericId') };
  }
  if (name === 'entity') {
    return {
      ...base,
      description: 'Entity of the record; `people` is shown, other accepted values: not shown (spec § Relationships).',
      schema: { type: 'string' },
      example: 'people',
    };
  }
  return { ...base, description: `Identifier of the ${name.replace(/_id$/, '').replace(/_/g, ' ')}.`, schema: ref('identifier') };
}

function jsonResponse(description: string, schema: unknown) {
  return { description, content: { [JSON_TYPE]: { schema } } };
}

/** A body of any of these contracts (one: the contract itself). */
const anyOf = (contracts: string[]) => (contracts.length === 1 ? ref(contracts[0]) : { anyOf: contracts.map(ref) });

/** The answers the endpoint's entry shows beyond its success contract (spec § Errors, § Limits), as OpenAPI responses. */
function extraResponses(e: Endpoint): Record<string, unknown> {
  const response = (a: ShownAnswer) => {
    if (a.html) return { description: a.description, content: { 'text/html': { schema: { type: 'string' } } } };
    if (!a.contracts) return { description: a.description };
    return jsonResponse(a.description, a.list ? { type: 'array', items: anyOf(a.contracts) } : anyOf(a.contracts));
  };
  return Object.fromEntries(Object.entries(e.answers ?? {}).map(([status, a]) => [status, response(a)]));
}

/** The requests the endpoint's entry says the server sends because of it, as OpenAPI callbacks. */
function callbacks(e: Endpoint): Record<string, unknown> | undefined {
  if (!e.callbacks?.length) return undefined;
  const any = { default: { description: 'The answer of the receiver: not shown.' } };
  const requestBody = (c: ShownCallback) =>
    c.contracts
      ? { required: true, content: { [c.form ? FORM_TYPE : JSON_TYPE]: { schema: anyOf(c.contracts) } } }
      : { content: { [JSON_TYPE]: { schema: {} } } };
  return Object.fromEntries(e.callbacks.map((c) => [c.name, { [c.to]: { post: { summary: c.summary, requestBody: requestBody(c), responses: any } } }]));
}

function operationId(e: Endpoint): string {
  const words = e.path
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/[{}]/g, ''));
  return [e.method.toLowerCase(), ...words].join('_').replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * An OpenAPI 3.1 document of every endpoint of `ENDPOINTS`: API paths under
 * `{base_url}/developer_api/v1`, the OAuth endpoints under `{auth_url}`.
 */
export function buildOpenApi(endpoints: Endpoint[] = ENDPOINTS, schemas: Record<string, JsonSchema> = componentSchemas()): OpenApiDocument {
  const need = (name: string | undefined, e: Endpoint) => {
    if (name && !(name in schemas)) throw new Error(`${e.method} ${e.path}: contract ${name} is not exported from contracts/index.ts`);
    return name;
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    const request = need(e.request, e);
    const response = need(e.response, e);
    for (const name of [...Object.values(e.answers ?? {}), ...(e.callbacks ?? [])].flatMap((x) => x.contracts ?? [])) need(name, e);
    const item = (paths[e.path] ??= {});
    if (e.host === 'auth') {
      item.servers = [
        {
          url: '{auth_url}',
          description: 'The authorization host',
          variables: { auth_url: { default: 'https://auth.example.com', description: '{auth_url} of the specification' } },
        },
      ];
    }
    const parameters: Record<string, unknown>[] = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => pathParameter(m[1], e));
    let requestBody: Record<string, unknown> | undefined;
    if (request && e.method === 'GET') {
      // GET parameters travel in the query string.
      const body = schemas[request] as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(body.properties ?? {})) {
        parameters.push({ name, in: 'query', required: (body.required ?? []).includes(name), schema });
      }
    } else if (request) {
      requestBody = { required: true, content: { [e.form ? FORM_TYPE : JSON_TYPE]: { schema: ref(request) } } };
    }
    const responses: Record<string, unknown> = {};
    if (response) responses[200] = jsonResponse(response, ref(response));
    Object.assign(responses, extraResponses(e));
    if (!('default' in responses)) responses.default = NOT_SHOWN;
    const cb = callbacks(e);
    item[e.method.toLowerCase()] = {
      operationId: operationId(e),
      summary: `${e.section}: ${e.method} ${e.path}`,
      tags: [e.area],
      'x-spec-section': e.section,
      ...(e.host === 'auth' ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      ...(cb ? { callbacks: cb } : {}),
    };
  }
  const areas = [...new Set(endpoints.map((e) => e.area))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'CRM Developer API',
      version: 'v1',
      description:
        'Generated by crm-conformance (`npm run contracts:export`) from its Zod contracts and endpoint table. The specification `crm-developer-api.md` is the authority; what it leaves open is left open here.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [
      {
        url: '{base_url}/developer_api/v1',
        description: 'The API',
        variables: { base_url: { default: 'https://api.example.com', description: '{base_url} of the specification' } },
      },
    ],
    security: [HEADER_SECURITY, { bearerAuth: [] }],
    tags: areas.map((name) => ({
      name,
      description: [...new Set(endpoints.filter((e) => e.area === name).map((e) => e.section))].map((s) => `spec § ${s}`).join('; '),
    })),
    paths,
    components: { schemas, securitySchemes },
  };
}
