/**
 * A contract's members as the coverage map counts them: the JSON Schema of a contract
 * (contracts/openapi.ts, `standaloneJsonSchema`: zod's own `z.toJSONSchema()`) read into a tree of
 * nodes, each with the value classes a request can send it or an answer can show of it. The
 * classes are derived from the schema alone (its types, enums and literals, bounds, nullability,
 * required members), so a member added to a contract is counted at once.
 *
 * Request classes (what a client sends a member):
 * - every member: `omitted` (optional) or `missing` (required); `wrong-type` (a value of another
 *   JSON type; `null` too, unless the contract allows it: then `=null`);
 * - a string: `value`, `empty-string`, `spaces`, `non-ascii`; a URL: `url`, `not-a-url`, `empty-string`;
 * - an enum or literal: `=<member>` each, and `other-value`; a boolean `=true`, `=false`;
 * - a number with bounds in the contract: `value`, `=min`, `<min`, `=max`, `>max`; an integer the
 *   contract leaves unbounded (the paging members): `<0`, `=0`, `=1`, `>1`; any other number `value`;
 * - a list: `empty-list`, `one-item`, `several-items` (and its items' classes, under `[]`); where
 *   the spec limits its entries (bulk create: 10), `=10-items` and `>10-items`;
 * - an object whose members are all optional: `empty-object`; a free-form object (a record):
 *   `empty-object`, `with-members`; a union of a list and an object form (`tags`): `list-form`,
 *   `object-form`;
 * - values the spec names beyond the contract (`-2` of `assignee_ids`, the match criteria `name`,
 *   `email`): `=<value>` (`specValues`); a search page that starts past the 100,000 records a
 *   search reaches: `past-100000`.
 *
 * Answer classes (what an answer shows of a member of its contract, and of its list items; one
 * level deep): `value`, `null` (where the contract allows it), `empty-list` and `non-empty` for a
 * list, `absent` for a member the contract lets an answer leave out.
 */
export type Json = Record<string, unknown>;
export type Kind = 'object' | 'record' | 'array' | 'string' | 'url' | 'enum' | 'boolean' | 'integer' | 'number' | 'identifier' | 'unknown' | 'union';
export type Scalar = string | number | boolean;

export interface Node {
  kind: Kind;
  /** The member's path in the body: `details.company.name`, `opportunities[].tags`, `(body)` for the body itself. */
  path: string;
  optional: boolean;
  nullable: boolean;
  /**
   * `alt`: an alternative of a union (`tags` as a list or as an object), no presence or type
   * classes of its own; `item`: an item of a list or a value of a record, no presence classes.
   */
  role?: 'alt' | 'item';
  members?: Map<string, Node>;
  item?: Node;
  value?: Node;
  alts?: Node[];
  values?: Scalar[];
  min?: number;
  max?: number;
  /** Values the spec names for this member beyond its contract. */
  specValues?: Scalar[];
  /** The most entries the spec lets this list carry. */
  maxItems?: number;
  /** The records a search of this body reaches. */
  searchCap?: number;
  /** Class token → index in the surface's classes. */
  cls: Record<string, number>;
}

/** zod's default bounds of an integer: no bound of the contract's own. */
const SAFE = Number.MAX_SAFE_INTEGER;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

interface Shape {
  kind: Kind;
  nullable: boolean;
  schema: Json;
  values?: Scalar[];
  alts?: Json[];
}

/** The kind of a schema, its nullability and, for an enum, its members. */
export function shapeOf(schema: Json, nullable = false): Shape {
  const type = schema.type;
  if (Array.isArray(type) && type.includes('null')) {
    const rest = type.filter((t) => t !== 'null');
    return shapeOf({ ...schema, type: rest.length === 1 ? rest[0] : rest }, true);
  }
  if (Array.isArray(schema.anyOf)) {
    const options = (schema.anyOf as Json[]).filter((o) => o.type !== 'null');
    const nul = nullable || options.length < (schema.anyOf as Json[]).length;
    if (options.length === 1) return shapeOf({ ...options[0], description: schema.description }, nul);
    if (options.every((o) => o.const !== undefined)) return { kind: 'enum', nullable: nul, schema, values: options.map((o) => o.const as Scalar) };
    const types = options.map((o) => o.type);
    if (types.length === 2 && types.includes('integer') && types.includes('string')) return { kind: 'identifier', nullable: nul, schema };
    if (types.includes('array') && types.includes('object')) return { kind: 'union', nullable: nul, schema, alts: options };
    return { kind: 'unknown', nullable: nul, schema };
  }
  if (Array.isArray(schema.enum)) return { kind: 'enum', nullable, schema, values: schema.enum as Scalar[] };
  if (schema.const !== undefined) return { kind: 'enum', nullable, schema, values: [schema.const as Scalar] };
  switch (type) {
    case 'object':
      return { kind: isObj(schema.properties) ? 'object' : 'record', nullable, schema };
    case 'array':
      return { kind: 'array', nullable, schema };
    case 'string':
      return { kind: schema.format === 'uri' ? 'url' : 'string', nullable, schema };
    case 'integer':
    case 'number':
    case 'boolean':
      return { kind: type, nullable, schema };
    default:
      return { kind: 'unknown', nullable, schema };
  }
}

/** The request classes of a node of this shape (see the module's comment). */
function requestTokens(n: Node): string[] {
  const out: string[] = [];
  if (!n.role && n.path !== '(body)') out.push(n.optional ? 'omitted' : 'missing');
  if (n.nullable) out.push('=null');
  switch (n.kind) {
    case 'string':
      out.push('value', 'empty-string', 'spaces', 'non-ascii');
      break;
    case 'url':
      out.push('url', 'not-a-url', 'empty-string');
      break;
    case 'enum':
      out.push(...n.values!.map((v) => `=${v}`), 'other-value');
      break;
    case 'boolean':
      out.push('=true', '=false');
      break;
    case 'integer':
    case 'number':
      if (n.min !== undefined || n.max !== undefined)
        out.push('value', ...(n.min !== undefined ? ['=min', '<min'] : []), ...(n.max !== undefined ? ['=max', '>max'] : []));
      else out.push(...(n.kind === 'integer' ? ['<0', '=0', '=1', '>1'] : ['value']));
      break;
    case 'array':
      out.push('empty-list', 'one-item', 'several-items', ...(n.maxItems ? [`=${n.maxItems}-items`, `>${n.maxItems}-items`] : []));
      break;
    case 'object':
      if ([...n.members!.values()].every((m) => m.optional)) out.push('empty-object');
      if (n.searchCap) out.push(`past-${n.searchCap}`);
      break;
    case 'record':
      out.push('empty-object', 'with-members');
      break;
    case 'union':
      out.push('list-form', 'object-form');
      break;
    default:
      out.push('value');
  }
  for (const v of n.specValues ?? []) if (!out.includes(`=${v}`)) out.push(`=${v}`);
  if (n.kind !== 'unknown' && n.role !== 'alt') out.push('wrong-type');
  return out;
}

/** The answer classes of a member (one level deep). */
export function responseTokens(n: Node): string[] {
  return [...(n.kind === 'array' ? ['empty-list', 'non-empty'] : ['value']), ...(n.nullable ? ['null'] : []), ...(n.optional ? ['absent'] : [])];
}

const join = (path: string, part: string) => (path === '(body)' ? part : part === '[]' ? `${path}[]` : `${path}.${part}`);

export interface Registry {
  /** Registers a class of a node; returns its index. */
  add(member: string, token: string): number;
  /** Values the spec names for a member path beyond its contract. */
  specValues?(path: string): Scalar[] | undefined;
  /** The most entries the spec lets a list member carry (`=<n>-items`, `><n>-items`). */
  listLimit?(path: string): number | undefined;
  /** The records a search reaches (`past-<n>`: a page that starts past them). */
  searchCap?(path: string): number | undefined;
}

/** The request tree of a schema: every member at any depth, with its classes registered. */
export function requestNode(schema: Json, path: string, optional: boolean, reg: Registry, role?: Node['role']): Node {
  const s = shapeOf(schema);
  const n: Node = { kind: s.kind, path, optional, nullable: s.nullable, role, values: s.values, cls: {} };
  const min = s.schema.minimum as number | undefined;
  const max = s.schema.maximum as number | undefined;
  if (min !== undefined && min > -SAFE) n.min = min;
  if (max !== undefined && max < SAFE) n.max = max;
  n.specValues = reg.specValues?.(path);
  n.maxItems = reg.listLimit?.(path);
  n.searchCap = reg.searchCap?.(path);
  if (s.kind === 'object') {
    const required = new Set((s.schema.required as string[] | undefined) ?? []);
    n.members = new Map(Object.entries(s.schema.properties as Record<string, Json>).map(([k, v]) => [k, requestNode(v, join(path, k), !required.has(k), reg)]));
  }
  for (const t of requestTokens(n)) n.cls[t] = reg.add(path, t);
  if (s.kind === 'array' && isObj(s.schema.items)) n.item = requestNode(s.schema.items, join(path, '[]'), false, reg, 'item');
  if (s.kind === 'record' && isObj(s.schema.additionalProperties) && Object.keys(s.schema.additionalProperties).length)
    n.value = requestNode(s.schema.additionalProperties, join(path, '*'), true, reg, 'item');
  if (s.kind === 'union') n.alts = s.alts!.map((a) => requestNode(a, path, false, reg, 'alt'));
  return n;
}

/** The members of an answer contract (of its list items, for a list), each with its answer classes registered under `label`. */
export function responseMembers(schema: Json, label: (member: string) => string, reg: Registry): { list: boolean; members: Map<string, Node> } {
  const list = schema.type === 'array' && isObj(schema.items);
  const root = shapeOf(list ? (schema.items as Json) : schema);
  const members = new Map<string, Node>();
  if (root.kind !== 'object') return { list, members };
  const required = new Set((root.schema.required as string[] | undefined) ?? []);
  for (const [k, v] of Object.entries(root.schema.properties as Record<string, Json>)) {
    const s = shapeOf(v);
    const n: Node = { kind: s.kind, path: k, optional: !required.has(k), nullable: s.nullable, cls: {} };
    for (const t of responseTokens(n)) n.cls[t] = reg.add(label(k), t);
    members.set(k, n);
  }
  return { list, members };
}
