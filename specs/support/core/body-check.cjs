/**
 * What a replay script checks of the answers it got again (core/replay-script.ts writes this file's
 * text into the script, and runs it itself on the failed run's answers first): the expectation of
 * the check that failed on the body of an answer (core/recorder.ts, `Expectation`).
 *   id:     the answer is the record with this id (an upsert answering the Lead it matched);
 *   ids:    the records of the answers (a search's pages) are exactly these, each once;
 *   schema: the answer matches this JSON Schema (the contract, from Zod): types, enumerations,
 *           bounds, required members, in nested members, lists and maps. Extra members are
 *           allowed (the contracts are loose), formats are left to their patterns.
 * `problemsOf` gives what is wrong, none when the answers meet the expectation. Plain CommonJS
 * with no single quote in its code: a script carries the code (its comments left out) in single quotes
 * (.prettierrc.json keeps its double quotes).
 */

/** Where a value stands, as a JSON path: $.items[0].id */
function pathText(path) {
  return "$" + path.map((k) => (typeof k === "number" ? "[" + k + "]" : "." + k)).join("");
}

function typeOf(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function hasType(v, type) {
  const t = typeOf(v);
  return t === type || (type === "number" && t === "integer");
}

function resolve(root, schema) {
  let s = schema;
  for (let hops = 0; s && typeof s.$ref === "string" && hops < 32; hops++) {
    const ref = s.$ref;
    if (ref === "#") s = root;
    else if (ref.startsWith("#/"))
      s = ref
        .slice(2)
        .split("/")
        .reduce((o, k) => (o == null ? o : o[k.replace(/~1/g, "/").replace(/~0/g, "~")]), root);
    else return {};
  }
  return s || {};
}

function matches(root, schema, v) {
  return validate(root, schema, v, [], []).length === 0;
}

function validate(root, schemaIn, v, path, out) {
  const s = resolve(root, schemaIn);
  if (s === true || !s || typeof s !== "object") return out;
  if (s === false) {
    out.push(pathText(path) + ": no value is allowed here");
    return out;
  }
  const at = pathText(path);
  if (v === undefined) {
    out.push(at + ": missing");
    return out;
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => hasType(v, t))) {
      out.push(at + ": expected " + types.join(" or ") + ", got " + typeOf(v) + " " + JSON.stringify(v).slice(0, 80));
      return out;
    }
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v)))
    out.push(at + ": expected one of " + JSON.stringify(s.enum).slice(0, 200) + ", got " + JSON.stringify(v).slice(0, 80));
  if ("const" in s && JSON.stringify(s.const) !== JSON.stringify(v))
    out.push(at + ": expected " + JSON.stringify(s.const) + ", got " + JSON.stringify(v).slice(0, 80));
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(s[key]) && !s[key].some((sub) => matches(root, sub, v))) {
      const alone = s[key].filter((sub) => !(resolve(root, sub).type === "null" && v !== null));
      if (alone.length === 1) validate(root, alone[0], v, path, out);
      else out.push(at + ": matches none of the " + s[key].length + " forms allowed, got " + JSON.stringify(v).slice(0, 80));
    }
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) validate(root, sub, v, path, out);
  if (typeof v === "number") {
    if (typeof s.minimum === "number" && v < s.minimum) out.push(at + ": expected at least " + s.minimum + ", got " + v);
    if (typeof s.maximum === "number" && v > s.maximum) out.push(at + ": expected at most " + s.maximum + ", got " + v);
    if (typeof s.exclusiveMinimum === "number" && v <= s.exclusiveMinimum) out.push(at + ": expected more than " + s.exclusiveMinimum + ", got " + v);
    if (typeof s.exclusiveMaximum === "number" && v >= s.exclusiveMaximum) out.push(at + ": expected less than " + s.exclusiveMaximum + ", got " + v);
  }
  if (typeof v === "string") {
    const n = [...v].length;
    if (typeof s.minLength === "number" && n < s.minLength) out.push(at + ": expected at least " + s.minLength + " characters, got " + n);
    if (typeof s.maxLength === "number" && n > s.maxLength) out.push(at + ": expected at most " + s.maxLength + " characters, got " + n);
    if (typeof s.pattern === "string") {
      let re;
      try {
        re = new RegExp(s.pattern, "u");
      } catch {
        re = new RegExp(s.pattern);
      }
      if (!re.test(v)) out.push(at + ": expected a string matching /" + s.pattern + "/, got " + JSON.stringify(v).slice(0, 80));
    }
  }
  if (Array.isArray(v)) {
    if (typeof s.minItems === "number" && v.length < s.minItems) out.push(at + ": expected at least " + s.minItems + " entries, got " + v.length);
    if (typeof s.maxItems === "number" && v.length > s.maxItems) out.push(at + ": expected at most " + s.maxItems + " entries, got " + v.length);
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    v.forEach((item, i) => {
      const sub = i < prefix.length ? prefix[i] : s.items;
      if (sub !== undefined) validate(root, sub, item, path.concat(i), out);
    });
  }
  if (v && typeof v === "object" && !Array.isArray(v)) {
    for (const key of Array.isArray(s.required) ? s.required : []) if (!(key in v)) out.push(pathText(path.concat(key)) + ": missing");
    for (const [key, sub] of Object.entries(s.properties || {})) if (key in v) validate(root, sub, v[key], path.concat(key), out);
    // A map (a record): every other member matches its schema. `false` is left alone: Zod strips extra members, it does not refuse them.
    const rest = s.additionalProperties;
    if (rest && typeof rest === "object")
      for (const [key, w] of Object.entries(v)) if (!(key in (s.properties || {}))) validate(root, rest, w, path.concat(key), out);
  }
  return out;
}

/** The records of the answers (each a list, or an object with one list member), as their ids. */
function recordIds(answers, out) {
  const ids = [];
  answers.forEach((a, i) => {
    const list = Array.isArray(a) ? a : a && typeof a === "object" ? Object.values(a).find(Array.isArray) : undefined;
    if (!list) out.push("answer " + (i + 1) + " is no list of records: " + JSON.stringify(a).slice(0, 120));
    else for (const r of list) ids.push(r && typeof r === "object" ? String(r.id) : String(r));
  });
  return ids;
}

/** What is wrong with `answers` (the parsed bodies, undefined where none came) against `expect`. */
function problemsOf(answers, expect) {
  const out = [];
  if (expect.kind === "id") {
    const a = answers[answers.length - 1];
    const got = a && typeof a === "object" ? a.id : undefined;
    if (String(got) !== String(expect.equals))
      out.push("expected the record " + expect.equals + ", got " + (got === undefined ? "an answer without an id: " + JSON.stringify(a).slice(0, 120) : got));
  } else if (expect.kind === "ids") {
    const got = recordIds(answers, out);
    const twice = got.filter((id, i) => got.indexOf(id) !== i);
    if (twice.length) out.push("records found twice: " + [...new Set(twice)].join(", "));
    const want = expect.equals.map(String);
    const missing = want.filter((id) => !got.includes(id));
    const extra = [...new Set(got.filter((id) => !want.includes(id)))];
    if (missing.length) out.push("records not found: " + missing.join(", "));
    if (extra.length) out.push("records found that should not be: " + extra.join(", "));
  } else if (expect.kind === "schema") {
    const a = answers[answers.length - 1];
    validate(expect.schema, expect.schema, a, [], out);
  } else out.push("unknown expectation " + JSON.stringify(expect.kind));
  return out;
}

module.exports = { problemsOf };
