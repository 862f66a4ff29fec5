/**
 * StrykerJS ignore plugins (`ignorers` of stryker.config.mjs; the documented plugin kind `Ignore`
 * of `@stryker-mutator/api/plugin`): the mutants of the reference server that are no matter of the
 * spec, known before any run. StrykerJS asks `shouldIgnore(path)` of every node it visits (a Babel
 * NodePath) and reports every mutant inside a node given a reason as Ignored, with that reason.
 * `npm run mutants -- --summary` counts them by class (the reason up to its first colon).
 *
 * - `error-text`: the free text of an error answer, a string or template literal that is the
 *   message of a refusal or an error body: a message argument of the reference's error helpers
 *   ({@link MESSAGE_ARGS}), the value of a `message` member, the value of a `const message`. Not
 *   what the spec fixes of an error: `success`, `status`, the ids of an ambiguous upsert (in the
 *   `detail` text of one body shape), nor the bulk-too-large `{ error }`, which states the limit.
 * - `log-output`: a `console.*` call (the server's log, never part of an answer).
 * - `open-choice`: the switch of an open choice: an equality comparison whose operand is
 *   `app.choice('<id>')` (or a constant read from it, or it passed through `app.at`), and an
 *   `if`/`?:` test that is a constant holding such a comparison. Every mutant of those yields
 *   another catalogued alternative's behaviour (or the same): `true`/`false`, `===`/`!==`, an id
 *   or alternative name emptied (the comparison then fails, as under another alternative). A
 *   `switch` over a choice is left alone (reference/search.ts's have no `default`: an emptied case
 *   test there answers no alternative at all), as is any other use of a choice's value.
 *
 * - `hook-point`: what only a fault's hook point or seam reads: its name (the first argument of
 *   `app.at(…)` or `app.seam(…)`), the context it hands the hooks (the third argument of `app.at`,
 *   the second of `app.seam`, when it computes nothing: no call, assignment or `await` inside), and
 *   the arguments of the reference's helpers that reach only that context ({@link HOOK_ONLY_ARGS}).
 *   With no fault switched on (as in every mutation run), the value passes on and the step runs
 *   whatever they are, so changing them changes nothing.
 * - `area-label`: the `name` of an area module (`export const x: AreaModule = { name: '…' }`): a
 *   label scripts/mutants-plan.ts reads to find the module's file, never part of an answer.
 *
 * - `other-alternative`: code that only another alternative of an open choice runs (the branch of an
 *   `if`/`?:` whose test the default choices fix the other way, a `case` naming another alternative
 *   of a switch over a choice). A mutation run takes the default choices: such a mutant could never
 *   be killed, and says nothing of the suite. The choices self-test runs the suite against every
 *   alternative; the faults exercise the code of some.
 *
 * What else survives is decided one mutant at a time (docs/calibration.md, "Mutation testing").
 */
import { readFileSync } from 'node:fs';
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

export const ERROR_TEXT_REASON = 'the text of an error answer: the general error body is not shown (spec § Errors; open choice errors.body)';
export const LOG_REASON = 'log output: the server log (console.*) is no part of any answer';
export const HOOK_POINT_REASON =
  "a fault's hook point: with no fault on, app.at and app.seam pass the value on (and run the step) whatever the point's name and the context handed to its hooks";
export const AREA_LABEL_REASON = "an area module's label: read by the mutation plan, never part of an answer";
export const choiceReason = (id) =>
  `the alternative of an open choice (rules/choices.json ${id}): the suite passes every alternative, so no check may tell them apart`;

/**
 * The reference's helpers that build an error answer, by name, and which argument (0-based) is
 * only the text of its message (reference/http.ts, reference/routes/*.ts).
 */
export const MESSAGE_ARGS = {
  fail: 1, // http.ts fail(status, message); oauth.ts authorize's fail(error, description)
  refusal: 2, // common.ts refusal(app, status, message, detail, headers)
  invalid: [1, 2], // common.ts invalid(app, message, field): the field is named only in the error body, which is not shown
  idList: 1, // search.ts idList(app, name, v): the member's name, in the message and the error's field only
  stringList: 1, // search.ts stringList(app, name, v): the same
  checkWorkBody: 2, // projects.ts checkWorkBody(app, body, what, …): what the body is, in its messages only
  notFound: 0, // common.ts notFound(what): `${what} not found`
  missing: 1, // common.ts missing(app, what): `${what} not found`
  idParam: 1, // common.ts idParam(value, what): `${what} must be a number`
  asObject: 1, // common.ts asObject(body, what = 'body'): `${what} must be a JSON object`
  refuse: 2, // files.ts refuse(app, what, message)
  s3Error: 2, // files.ts s3Error(status, code, message): the step-2 error's <Message>
  numericParam: 2, // files.ts numericParam(app, raw, what): `${what} must be a number`
  invalidTarget: 1, // webhooks.ts invalidTarget(app, message): the free `message` of the 422 the spec shows
  errorPage: 1, // oauth.ts errorPage(status, message): the authorization host's error page
  tokenError: 2, // oauth.ts tokenError(app, error, description): `error_description`
};

/** Is argument `index` of the helper `name` only the text of its error ({@link MESSAGE_ARGS})? */
const messageArg = (name, index) => Object.hasOwn(MESSAGE_ARGS, name) && [MESSAGE_ARGS[name]].flat().includes(index);
const isText = (n) => n?.type === 'StringLiteral' || n?.type === 'TemplateLiteral';
const keyName = (n) => (n.computed ? undefined : n.key.type === 'Identifier' ? n.key.name : n.key.type === 'StringLiteral' ? n.key.value : undefined);
const calleeName = (n) => (n.type === 'Identifier' ? n.name : undefined);

/** Is `path` (a literal) the free text of an error answer? */
function isErrorText(path) {
  if (!isText(path.node)) return false;
  const parent = path.parentPath;
  if (!parent) return false;
  // A message argument of an error helper.
  if ((parent.isCallExpression() || parent.isOptionalCallExpression()) && path.listKey === 'arguments') {
    const name = calleeName(parent.node.callee);
    return name !== undefined && messageArg(name, path.key);
  }
  // The value of a `message` member (`{ success: false, status, message: '…' }`, refusal's nested shape).
  if (parent.isObjectProperty() && path.key === 'value') return keyName(parent.node) === 'message';
  // `const message = …` (the text several body shapes share).
  if (parent.isVariableDeclarator() && path.key === 'init') return parent.node.id.type === 'Identifier' && parent.node.id.name === 'message';
  // The default of a message parameter (`asObject(body, what = 'body')`).
  if (parent.isAssignmentPattern() && path.key === 'right') {
    const fn = parent.parentPath;
    const name = fn?.node.id?.name ?? (fn?.parentPath?.isVariableDeclarator() ? fn.parentPath.node.id.name : undefined);
    return fn?.isFunction() === true && parent.listKey === 'params' && name !== undefined && messageArg(name, parent.key);
  }
  return false;
}

/**
 * The reference's helpers, by name, whose argument (0-based) reaches only the context handed to a
 * fault's hooks (reference/routes/*.ts).
 */
export const HOOK_ONLY_ARGS = {
  paramPasses: 1, // oauth.ts paramPasses(h, param, ok, value): which parameter's check the faults may skip
  backToClient: 2, // oauth.ts backToClient(h, redirectUri, outcome, fields, ctx): what the return reports, to the hooks
};

/** `app.at` or `app.seam` (also `h.app.…`, `this.app.…`) when `call` is a call of one: its name, else undefined. */
function hookCall(call) {
  if (!call || !(call.isCallExpression() || call.isOptionalCallExpression())) return undefined;
  const c = call.node.callee;
  const isHook =
    (c.type === 'MemberExpression' || c.type === 'OptionalMemberExpression') &&
    !c.computed &&
    c.property.type === 'Identifier' &&
    (c.property.name === 'at' || c.property.name === 'seam') &&
    ((c.object.type === 'Identifier' && c.object.name === 'app') || (c.object.type === 'MemberExpression' && c.object.property.name === 'app'));
  return isHook ? c.property.name : undefined;
}

/** Does the expression `n` compute nothing (no call, `new`, assignment, update, `await` or `yield` anywhere inside)? */
function computesNothing(n) {
  if (!n || typeof n !== 'object') return true;
  if (Array.isArray(n)) return n.every(computesNothing);
  if (typeof n.type !== 'string') return true;
  if (/^(Call|OptionalCall|New|Assignment|Update|Await|Yield)Expression$|Function|^ClassExpression$/.test(n.type)) return false;
  return Object.entries(n).every(
    ([k, v]) => ['loc', 'start', 'end', 'leadingComments', 'trailingComments', 'innerComments', 'extra'].includes(k) || computesNothing(v),
  );
}

/**
 * Is `path` what only a fault's hook point reads: its name (the first argument, a string, of
 * `app.at(…)` / `app.seam(…)`), the context handed to its hooks (the third argument of `app.at`, the
 * second of `app.seam`) when it computes nothing, or a helper's argument that reaches only that context?
 */
function isHookPoint(path) {
  if (path.listKey !== 'arguments') return false;
  const call = path.parentPath;
  const hook = hookCall(call);
  if (hook !== undefined) {
    if (path.key === 0) return isText(path.node);
    return path.key === (hook === 'at' ? 2 : 1) && computesNothing(path.node);
  }
  const name = (call?.isCallExpression() || call?.isOptionalCallExpression()) && calleeName(call.node.callee);
  return !!name && Object.hasOwn(HOOK_ONLY_ARGS, name) && HOOK_ONLY_ARGS[name] === path.key && computesNothing(path.node);
}

/** Is `path` the label of an area module: the value of `name` in `const x: AreaModule = { … }`? */
function isAreaLabel(path) {
  if (!isText(path.node) || path.key !== 'value') return false;
  const prop = path.parentPath;
  if (!prop?.isObjectProperty() || keyName(prop.node) !== 'name') return false;
  const decl = prop.parentPath?.parentPath;
  if (!decl?.isVariableDeclarator() || prop.parentPath.key !== 'init') return false;
  const t = decl.node.id.typeAnnotation?.typeAnnotation;
  return t?.type === 'TSTypeReference' && t.typeName.type === 'Identifier' && t.typeName.name === 'AreaModule';
}

function isConsoleCall(path) {
  if (!path.isCallExpression()) return false;
  const c = path.node.callee;
  return c.type === 'MemberExpression' && c.object.type === 'Identifier' && c.object.name === 'console';
}

/** `app.choice('<id>')` (also `h.app.choice`, `this.app.choice`, `app?.choice`): its id, else undefined. */
function choiceCallId(n) {
  if (!n || (n.type !== 'CallExpression' && n.type !== 'OptionalCallExpression')) return undefined;
  const c = n.callee;
  if ((c.type !== 'MemberExpression' && c.type !== 'OptionalMemberExpression') || c.computed || c.property.type !== 'Identifier') return undefined;
  if (c.property.name === 'choice' && n.arguments.length === 1 && n.arguments[0].type === 'StringLiteral') return n.arguments[0].value;
  // `app.at(point, app.choice('<id>'), ctx)`: the choice through a fault's hook point (the identity with no fault on).
  if (c.property.name === 'at' && n.arguments.length >= 2) return choiceCallId(n.arguments[1]);
  return undefined;
}

/**
 * The constants of a file that hold a choice or a comparison of one, by their binding's identifier:
 * `{ id, compared }`. Collected when StrykerJS enters the file (its Program node), before it places
 * any mutant: a constant's initial value is instrumented (replaced) by the time its uses are visited.
 */
const choiceConsts = new WeakMap();

function collectChoiceConsts(program) {
  program.traverse({
    VariableDeclarator(p) {
      if (p.parentPath.node.kind !== 'const' || p.node.id.type !== 'Identifier') return;
      const binding = p.scope.getBinding(p.node.id.name);
      if (!binding) return;
      const direct = choiceCallId(p.node.init);
      if (direct !== undefined) choiceConsts.set(binding.identifier, { id: direct, compared: false });
    },
  });
  // A second walk: a comparison may read a constant collected in the first (`const typeFirst = shape === '…'`).
  program.traverse({
    VariableDeclarator(p) {
      if (p.parentPath.node.kind !== 'const' || p.node.id.type !== 'Identifier') return;
      const binding = p.scope.getBinding(p.node.id.name);
      const compared = binding && comparedChoice(p, p.node.init);
      if (compared !== undefined) choiceConsts.set(binding.identifier, { id: compared, compared: true, atDefault: atDefault(p, p.node.init) });
    },
  });
}

/** What the constant an identifier names in `path`'s scope holds, when it is a choice or a comparison of one. */
function choiceConst(path, name) {
  const binding = path.scope.getBinding(name);
  return binding ? choiceConsts.get(binding.identifier) : undefined;
}

/** The choice id an expression reads: `app.choice('<id>')`, or a constant holding it. */
function readsChoice(path, n) {
  const id = choiceCallId(n);
  if (id !== undefined) return id;
  if (n?.type !== 'Identifier') return undefined;
  const c = choiceConst(path, n.name);
  return c && !c.compared ? c.id : undefined;
}

const EQUALITY = new Set(['===', '!==', '==', '!=']);

/** An equality comparison with an operand that reads a choice: its id. */
function comparedChoice(path, n) {
  if (n?.type !== 'BinaryExpression' || !EQUALITY.has(n.operator)) return undefined;
  return readsChoice(path, n.left) ?? readsChoice(path, n.right);
}

/** The choice whose alternative `path` switches, or undefined. */
function choiceSwitch(path) {
  const n = path.node;
  const compared = comparedChoice(path, n);
  if (compared !== undefined) return compared;
  const parent = path.parentPath;
  // `if (specific)` / `typeFirst ? … : …`, the constant holding a comparison of a choice.
  if (n.type === 'Identifier' && path.key === 'test' && (parent?.isIfStatement() || parent?.isConditionalExpression())) {
    const c = choiceConst(path, n.name);
    return c?.compared ? c.id : undefined;
  }
  return undefined;
}

/** Each choice's alternative in a mutation run: the reference's default (alternative 0, or the decided one). */
const CHOICES = JSON.parse(readFileSync(new URL('../rules/choices.json', import.meta.url), 'utf8'));
export const DEFAULT_ALTERNATIVE = new Map(CHOICES.map((c) => [c.id, c.decided?.alternative ?? c.alternatives[0].name]));

/**
 * The value of a test under the default choices, when it is fixed by them: `{ value, id }` for a
 * comparison of a choice with a string literal (`app.choice('x') === 'y'`, `!==`), a constant
 * holding one, their negation and their `&&` / `||` with anything (when that fixes the result);
 * else undefined.
 */
function atDefault(path, n) {
  if (!n) return undefined;
  if (n.type === 'Identifier') return choiceConst(path, n.name)?.atDefault;
  if (n.type === 'UnaryExpression' && n.operator === '!') {
    const v = atDefault(path, n.argument);
    return v && { value: !v.value, id: v.id };
  }
  if (n.type === 'LogicalExpression' && (n.operator === '&&' || n.operator === '||')) {
    const decisive = n.operator === '||';
    const [l, r] = [atDefault(path, n.left), atDefault(path, n.right)];
    const fixed = [l, r].find((v) => v && v.value === decisive);
    if (fixed) return fixed;
    return l && r ? { value: !decisive, id: l.id } : undefined;
  }
  if (n.type !== 'BinaryExpression' || !EQUALITY.has(n.operator)) return undefined;
  const [choiceSide, other] = readsChoice(path, n.left) !== undefined ? [n.left, n.right] : [n.right, n.left];
  const id = readsChoice(path, choiceSide);
  if (id === undefined || other?.type !== 'StringLiteral' || !DEFAULT_ALTERNATIVE.has(id)) return undefined;
  const equal = DEFAULT_ALTERNATIVE.get(id) === other.value;
  return { value: n.operator.startsWith('!') ? !equal : equal, id };
}

/**
 * The branches only another alternative of a choice runs, by node: the branch of an `if` or `?:`
 * whose test the default choices fix the other way, a `case` of a switch over a choice naming
 * another alternative than the default. Marked when StrykerJS enters the `if`, `?:` or `switch`:
 * by the time it enters a branch, the test beside it is instrumented (replaced) already.
 */
const notRun = new WeakMap();

function markOtherAlternatives(path) {
  if (path.isIfStatement() || path.isConditionalExpression()) {
    const v = atDefault(path, path.node.test);
    const branch = v && (v.value ? path.node.alternate : path.node.consequent);
    if (branch) notRun.set(branch, v.id);
  } else if (path.isSwitchStatement()) {
    const id = readsChoice(path, path.node.discriminant);
    if (id === undefined || !DEFAULT_ALTERNATIVE.has(id)) return;
    for (const c of path.node.cases) if (c.test?.type === 'StringLiteral' && c.test.value !== DEFAULT_ALTERNATIVE.get(id)) notRun.set(c, id);
  }
}

/** The choice whose other alternatives alone run `path`, or undefined. */
function otherAlternative(path) {
  markOtherAlternatives(path);
  return notRun.get(path.node);
}

export const otherAlternativeReason = (id) =>
  `code of another alternative of an open choice (rules/choices.json ${id}): a mutation run takes the default choices, so it never runs; the choices self-test runs the suite under every alternative`;

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'error-text', { shouldIgnore: (path) => (isErrorText(path) ? ERROR_TEXT_REASON : undefined) }),
  declareValuePlugin(PluginKind.Ignore, 'log-output', { shouldIgnore: (path) => (isConsoleCall(path) ? LOG_REASON : undefined) }),
  declareValuePlugin(PluginKind.Ignore, 'hook-point', { shouldIgnore: (path) => (isHookPoint(path) ? HOOK_POINT_REASON : undefined) }),
  declareValuePlugin(PluginKind.Ignore, 'area-label', { shouldIgnore: (path) => (isAreaLabel(path) ? AREA_LABEL_REASON : undefined) }),
  declareValuePlugin(PluginKind.Ignore, 'open-choice', {
    shouldIgnore: (path) => {
      if (path.isProgram()) collectChoiceConsts(path);
      const id = choiceSwitch(path);
      return id === undefined ? undefined : choiceReason(id);
    },
  }),
  declareValuePlugin(PluginKind.Ignore, 'other-alternative', {
    shouldIgnore: (path) => {
      const id = otherAlternative(path);
      return id === undefined ? undefined : otherAlternativeReason(id);
    },
  }),
];
