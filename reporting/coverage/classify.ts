/**
 * Which value classes of the surface (reporting/coverage/surface.ts) a request body, a path
 * parameter or an answer hits: a walk of the value along the contract's tree, counting into one
 * array of counts (`counts[class index]`). Linear in the size of the value; nothing is kept of it.
 * A value the recorder redacted (`«redacted»`) counts as a value and nothing more.
 */
import type { AnswerShape } from '../../specs/support/core/answer-shape.js';
import { REDACTED } from '../../specs/support/core/redact.js';
import type { Node } from './nodes.js';

export type Counts = number[];

const hit = (counts: Counts, n: Node, token: string) => {
  const i = n.cls[token];
  if (i !== undefined) counts[i]++;
};

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const EXPECTED: Record<string, string[]> = {
  object: ['object'],
  record: ['object'],
  array: ['array'],
  string: ['string'],
  url: ['string'],
  boolean: ['boolean'],
  integer: ['number'],
  number: ['number'],
  identifier: ['number', 'string'],
};

/** Is `v` of the node's JSON type (an enum: of its members' types)? */
function typed(n: Node, v: unknown): boolean {
  if (n.kind === 'unknown') return true;
  if (n.kind === 'union') return Array.isArray(v) || jsonType(v) === 'object';
  if (n.kind === 'enum') return n.values!.some((x) => typeof x === typeof v);
  if (n.kind === 'integer') return Number.isInteger(v);
  return EXPECTED[n.kind]!.includes(jsonType(v));
}

function stringClasses(counts: Counts, n: Node, v: string): void {
  if (v === REDACTED) return hit(counts, n, n.kind === 'url' ? 'url' : 'value');
  if (v === '') return hit(counts, n, 'empty-string');
  if (n.kind === 'url') return hit(counts, n, /^[a-z][a-z0-9+.-]*:\/\/[^\s/]+/i.test(v) ? 'url' : 'not-a-url');
  hit(counts, n, 'value');
  if (/\s/.test(v)) hit(counts, n, 'spaces');
  if (/[^\x00-\x7f]/.test(v)) hit(counts, n, 'non-ascii');
}

function numberClasses(counts: Counts, n: Node, v: number): void {
  if (n.min === undefined && n.max === undefined && n.kind === 'integer') return hit(counts, n, v < 0 ? '<0' : v === 0 ? '=0' : v === 1 ? '=1' : '>1');
  if (n.min !== undefined && v <= n.min) return hit(counts, n, v === n.min ? '=min' : '<min');
  if (n.max !== undefined && v >= n.max) return hit(counts, n, v === n.max ? '=max' : '>max');
  hit(counts, n, 'value');
}

function listClasses(counts: Counts, n: Node, v: unknown[]): void {
  hit(counts, n, v.length === 0 ? 'empty-list' : v.length === 1 ? 'one-item' : 'several-items');
  if (n.maxItems !== undefined && v.length >= n.maxItems) hit(counts, n, v.length === n.maxItems ? `=${n.maxItems}-items` : `>${n.maxItems}-items`);
  if (n.item) for (const x of v) request(counts, n.item, x);
}

/** The first record a search page starts at (0-based): page_number from 1, page_size 20 by default (§ Limits). */
function pageStart(v: Record<string, unknown>): number {
  const page = typeof v.page_number === 'number' ? v.page_number : 1;
  const size = typeof v.page_size === 'number' ? v.page_size : 20;
  return (page - 1) * size;
}

function objectClasses(counts: Counts, n: Node, v: Record<string, unknown>): void {
  if (n.kind === 'record') {
    const entries = Object.values(v);
    hit(counts, n, entries.length ? 'with-members' : 'empty-object');
    if (n.value) for (const x of entries) request(counts, n.value, x);
    return;
  }
  if (Object.keys(v).length === 0) hit(counts, n, 'empty-object');
  if (n.searchCap !== undefined && pageStart(v) >= n.searchCap) hit(counts, n, `past-${n.searchCap}`);
  for (const [k, m] of n.members ?? []) {
    const x = v[k];
    if (x === undefined) hit(counts, m, m.optional ? 'omitted' : 'missing');
    else request(counts, m, x);
  }
}

/** The classes a request value hits at node `n` (present: `undefined` is counted by its parent). */
export function request(counts: Counts, n: Node, v: unknown): void {
  if (v === null && n.nullable) return hit(counts, n, '=null');
  if (!typed(n, v)) return hit(counts, n, 'wrong-type');
  if (n.specValues?.some((s) => String(s) === String(v))) hit(counts, n, `=${v}`);
  switch (n.kind) {
    case 'enum':
      return hit(counts, n, n.values!.includes(v as string) ? `=${v}` : 'other-value');
    case 'boolean':
      return hit(counts, n, `=${v}`);
    case 'string':
    case 'url':
      return stringClasses(counts, n, v as string);
    case 'integer':
    case 'number':
      return numberClasses(counts, n, v as number);
    case 'array':
      return listClasses(counts, n, v as unknown[]);
    case 'object':
    case 'record':
      return objectClasses(counts, n, v as Record<string, unknown>);
    case 'union': {
      const list = Array.isArray(v);
      hit(counts, n, list ? 'list-form' : 'object-form');
      const alt = n.alts!.find((a) => (a.kind === 'array') === list);
      if (alt) request(counts, alt, v);
      return;
    }
    default:
      return hit(counts, n, 'value');
  }
}

/** A path parameter as sent (URL-encoded). */
export function param(counts: Counts, n: Node, raw: string): void {
  let v = raw;
  try {
    v = decodeURIComponent(raw);
  } catch {
    /* as sent */
  }
  if (n.kind === 'enum') hit(counts, n, n.values!.includes(v) ? `=${v}` : 'other-value');
  else hit(counts, n, /^\d+$/.test(v) ? 'numeric' : 'non-numeric');
}

/** The classes the members of one answer object hit (one level deep). */
export function answerMembers(counts: Counts, members: Map<string, Node>, v: Record<string, unknown>): void {
  for (const [k, m] of members) {
    if (!(k in v)) {
      hit(counts, m, 'absent');
      continue;
    }
    const x = v[k];
    if (x === null) hit(counts, m, 'null');
    else if (m.kind === 'array') {
      if (Array.isArray(x)) hit(counts, m, x.length ? 'non-empty' : 'empty-list');
    } else hit(counts, m, 'value');
  }
}

const SHAPE_TOKENS: Record<string, [list: string, other: string]> = {
  a: ['absent', 'absent'],
  n: ['null', 'null'],
  e: ['empty-list', 'value'],
  l: ['non-empty', 'value'],
  v: ['', 'value'],
};

/**
 * The classes the members of an answer hit, from its shape (what the recorder kept of a slimmed
 * answer, specs/support/core/answer-shape.ts): per member the kinds of value it held.
 */
export function answerShapeMembers(counts: Counts, members: Map<string, Node>, shape: AnswerShape): void {
  if (shape.items === 0) return;
  for (const [k, m] of members) {
    const kinds = shape.members[k];
    if (kinds === undefined) {
      hit(counts, m, 'absent');
      continue;
    }
    for (const c of kinds) {
      const t = SHAPE_TOKENS[c];
      if (t) hit(counts, m, t[m.kind === 'array' ? 0 : 1]);
    }
  }
}
