/**
 * The list fields of the response contracts (spec § What the service does: "Fields that are
 * absent or empty are returned as `null` (lists as `[]`)", rule WIRE-3), found by walking the
 * Zod schemas; the list fields a given answer has empty; and what an answer does against that
 * convention (a list that is null or left out, a member left out instead of null).
 *
 * A list field is a member declared as an array (through `nullable`/`optional` wrappers), at any
 * depth: `Project.tags`, `ConvertResponse.person.emails`, `Pipeline.stages`; the member of a
 * record of lists is written `*` (`BulkFailedEntry.message.*`), an element of a list `[]`; a
 * contract that is itself a list (`ProjectList`) has the path `''`. An array that is one
 * alternative of a union with non-list alternatives (a custom field `value`: text, number, …, or
 * a list of option ids) is not a list field: the spec lets it be null.
 *
 * Response contracts are the object and array schemas exported by `resources.ts` and `errors.ts`.
 */
import { z } from 'zod';
import * as errors from './errors.js';
import * as resources from './resources.js';

export interface ListField {
  contract: string;
  /** Dotted path inside the contract ('' for a contract that is itself a list). */
  path: string;
  /** `Contract.path` (or `Contract` for the contract itself). */
  key: string;
}

export const listKey = (contract: string, path: string): string => (!path ? contract : path.startsWith('[') ? `${contract}${path}` : `${contract}.${path}`);

type Def = {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
};
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const join = (path: string, part: string) => (path ? (part === '[]' ? `${path}[]` : `${path}.${part}`) : part);

const WRAPPERS = new Set(['nullable', 'optional', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

/** The schema under its wrappers (nullable, optional, default, pipe input…). */
function unwrap(s: z.ZodType): z.ZodType {
  let cur = s;
  for (let i = 0; i < 20; i++) {
    const d = defOf(cur);
    if (WRAPPERS.has(d.type) && d.innerType) cur = d.innerType;
    else if (d.type === 'pipe' && d.in) cur = d.in;
    else break;
  }
  return cur;
}

function walk(s: z.ZodType, path: string, out: string[]): void {
  const d = defOf(unwrap(s));
  switch (d.type) {
    case 'array':
      out.push(path);
      walk(d.element!, join(path, '[]'), out);
      return;
    case 'object':
      for (const [k, v] of Object.entries(d.shape ?? {})) walk(v, join(path, k), out);
      return;
    case 'record':
      walk(d.valueType!, join(path, '*'), out);
      return;
    case 'union':
      // Only object alternatives are walked: a list among non-list alternatives is not a list field.
      for (const o of d.options ?? []) if (defOf(unwrap(o)).type === 'object') walk(o, path, out);
      return;
    default:
      return;
  }
}

/** The list paths of one schema (without duplicates, in declaration order). */
export function listPaths(schema: z.ZodType): string[] {
  const out: string[] = [];
  walk(schema, '', out);
  return [...new Set(out)];
}

/** The response contracts by export name: object and array schemas of resources.ts and errors.ts. */
export const RESPONSE_CONTRACTS: Readonly<Record<string, z.ZodType>> = Object.fromEntries(
  (Object.entries({ ...resources, ...errors }) as [string, unknown][]).filter(
    (e): e is [string, z.ZodType] => e[1] instanceof z.ZodType && ['object', 'array'].includes(defOf(unwrap(e[1])).type),
  ),
);

/** Every list field of every response contract. */
export function contractListFields(contracts: Readonly<Record<string, z.ZodType>> = RESPONSE_CONTRACTS): ListField[] {
  return Object.entries(contracts).flatMap(([contract, schema]) => listPaths(schema).map((path) => ({ contract, path, key: listKey(contract, path) })));
}

function observe(s: z.ZodType, v: unknown, path: string, out: Set<string>): void {
  const d = defOf(unwrap(s));
  switch (d.type) {
    case 'array':
      if (!Array.isArray(v)) return;
      if (v.length === 0) out.add(path);
      for (const el of v) observe(d.element!, el, join(path, '[]'), out);
      return;
    case 'object':
      if (!v || typeof v !== 'object' || Array.isArray(v)) return;
      for (const [k, sub] of Object.entries(d.shape ?? {})) observe(sub, (v as Record<string, unknown>)[k], join(path, k), out);
      return;
    case 'record':
      if (!v || typeof v !== 'object' || Array.isArray(v)) return;
      for (const el of Object.values(v)) observe(d.valueType!, el, join(path, '*'), out);
      return;
    case 'union':
      for (const o of d.options ?? []) if (defOf(unwrap(o)).type === 'object') observe(o, v, path, out);
      return;
    default:
      return;
  }
}

/** The list paths of `schema` that `value` has empty (`[]`), sorted. */
export function emptyListPaths(schema: z.ZodType, value: unknown): string[] {
  const out = new Set<string>();
  observe(schema, value, '', out);
  return [...out].sort();
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** May the member be left out (an `optional` among its wrappers)? */
function optional(s: z.ZodType): boolean {
  let cur = s;
  for (let i = 0; i < 20; i++) {
    const d = defOf(cur);
    if (d.type === 'optional') return true;
    if (WRAPPERS.has(d.type) && d.innerType) cur = d.innerType;
    else return false;
  }
  return false;
}

function wire(s: z.ZodType, v: unknown, at: string, out: string[]): void {
  const d = defOf(unwrap(s));
  if (d.type === 'array') {
    if (!Array.isArray(v)) out.push(`${at}: ${v === undefined ? 'left out' : JSON.stringify(v)}, where a list is [] and never null`);
    else v.forEach((x, i) => wire(d.element!, x, `${at}[${i}]`, out));
  } else if (d.type === 'object' && isObject(v)) {
    for (const [k, sub] of Object.entries(d.shape ?? {})) {
      if (!(k in v)) {
        if (!optional(sub)) out.push(`${at}.${k}: left out, where an absent field is returned as null`);
      } else wire(sub, v[k], `${at}.${k}`, out);
    }
  } else if (d.type === 'record' && isObject(v)) {
    for (const [k, x] of Object.entries(v)) wire(d.valueType!, x, `${at}.${k}`, out);
  }
}

/**
 * What `value` does against the wire convention (WIRE-3) by the contract `schema`: a list member
 * that is not a list (null, left out) and a member left out instead of null. Only that: the types
 * of the values are the business of the contract check itself.
 */
export function wireProblems(schema: z.ZodType, value: unknown): string[] {
  const out: string[] = [];
  wire(schema, value, '$', out);
  return out;
}
