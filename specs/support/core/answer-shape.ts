/**
 * What an answer held, member by member, without a value: kept in place of its body when the
 * recorder slims an exchange (core/recorder.ts), so that the coverage map (reporting/coverage/)
 * counts what every answer of a long test showed, not only its last ones. For a list answer, its
 * length and the union over its items. Written as one short line (thousands of them in a
 * property test's evidence): `#20 id:v name:v details:nv tags:el` (see {@link AnswerShape}).
 */

/**
 * `items`: the length of a list answer. `members`: for each member of the answer (of its items),
 * the kinds of value it held, sorted: `a` absent (from some items), `e` an empty list, `l` a
 * non-empty list, `n` null, `v` any other value.
 */
export interface AnswerShape {
  items?: number;
  members: Record<string, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const kindOf = (v: unknown) => (v === null ? 'n' : Array.isArray(v) ? (v.length ? 'l' : 'e') : 'v');
/** Members named as a contract names them (a word): any other key is no member of a contract. */
const MEMBER = /^[\w.-]+$/;

/** The shape of a parsed answer, as its line; undefined for one that is neither an object nor a list (a text, a clipped body). */
export function answerShape(body: unknown): string | undefined {
  const list = Array.isArray(body);
  if (!list && !isObject(body)) return undefined;
  const objects = (list ? body : [body]).filter(isObject);
  const kinds = new Map<string, Set<string>>();
  const present = new Map<string, number>();
  for (const o of objects) {
    for (const [k, v] of Object.entries(o)) {
      if (!MEMBER.test(k)) continue;
      let s = kinds.get(k);
      if (!s) kinds.set(k, (s = new Set()));
      s.add(kindOf(v));
      present.set(k, (present.get(k) ?? 0) + 1);
    }
  }
  const parts = list ? [`#${(body as unknown[]).length}`] : [];
  for (const [k, s] of kinds) {
    if (present.get(k)! < objects.length) s.add('a');
    parts.push(`${k}:${[...s].sort().join('')}`);
  }
  return parts.join(' ');
}

/** The shape a line says. */
export function readAnswerShape(line: string): AnswerShape {
  const shape: AnswerShape = { members: {} };
  for (const part of line.split(' ')) {
    if (part.startsWith('#')) shape.items = Number(part.slice(1));
    else {
      const at = part.lastIndexOf(':');
      if (at > 0) shape.members[part.slice(0, at)] = part.slice(at + 1);
    }
  }
  return shape;
}
