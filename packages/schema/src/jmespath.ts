import { errorMessage } from '@agent/protocol/util';
import { compile, type JSONValue, TreeInterpreter } from '@jmespath-community/jmespath';

/** The longest expression taken: expressions are short; a long one is a mistake or an attack. */
export const MAX_JMESPATH_LENGTH = 1024;

/**
 * Functions an expression may call: those whose work and output stay linear (or n log n) in the
 * value. Left out: `pad_left`/`pad_right` (a width from the value would allocate at will),
 * `replace` and `join` (output up to input × expression length).
 */
const ALLOWED_FUNCTIONS = new Set([
  'abs',
  'avg',
  'ceil',
  'contains',
  'ends_with',
  'find_first',
  'find_last',
  'floor',
  'from_items',
  'group_by',
  'items',
  'keys',
  'length',
  'lower',
  'map',
  'max',
  'max_by',
  'merge',
  'min',
  'min_by',
  'not_null',
  'reverse',
  'sort',
  'sort_by',
  'split',
  'starts_with',
  'sum',
  'to_array',
  'to_number',
  'to_string',
  'type',
  'upper',
  'values',
  'zip',
]);

/**
 * Nodes that let an inner expression reach outside the value it projects over (`$`, `let`
 * variables): with them nested projections cost n² or more on hostile values; without them
 * each part of the expression visits each part of the value at most once.
 */
const REFUSED_NODES: Record<string, string> = {
  Root: 'the root reference `$` is not allowed (the value is the current value `@` already)',
  LetExpression: '`let` expressions are not allowed',
  Variable: 'variables (`$name`) are not allowed',
};

/** Names every plain object inherits: read from the value's own keys only. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A compiled JMESPath expression. `search` throws when the value cannot be evaluated. */
export interface JmesPathExpression {
  readonly source: string;
  /** The expression's result over `value` (JSON data); `null` when nothing matches. */
  search(value: unknown): unknown;
}

/**
 * Compiles a JMESPath expression (the community edition: no `eval`, no regular expressions)
 * once, checking it stays within what is bounded: at most `MAX_JMESPATH_LENGTH` characters,
 * functions of linear cost only, no `$`, `let` or variables. Returns what is wrong as a string.
 * The one JMESPath compiler of the project (tool-policy conditions, eval scorers).
 */
export function compileJmesPath(expression: unknown): JmesPathExpression | string {
  if (typeof expression !== 'string' || expression.trim().length === 0)
    return 'a non-empty JMESPath expression is needed';
  if (expression.length > MAX_JMESPATH_LENGTH)
    return `it is ${expression.length} characters long; at most ${MAX_JMESPATH_LENGTH} are allowed`;
  let ast: unknown;
  try {
    ast = compile(expression);
  } catch (error) {
    return syntaxProblem(error);
  }
  const walked = walk(ast);
  if (typeof walked === 'string') return walked;
  const root = ast as Parameters<typeof TreeInterpreter.search>[0];
  return {
    source: expression,
    search: (value: unknown) =>
      TreeInterpreter.search(root, (walked.inherited ? ownCopy(value) : value) as JSONValue),
  };
}

/** The parser's message, with the usual slip named: JMESPath numbers are literals in backticks. */
function syntaxProblem(error: unknown): string {
  const message = errorMessage(error);
  return /\(Number\)/.test(message)
    ? `${message} (numbers are JSON literals in backticks, e.g. amount > \`100\`)`
    : message;
}

/**
 * Checks every node of the parsed expression (iteratively: a deep one cannot overflow the
 * stack); notes whether it reads a name every object inherits (`constructor`, `toString`).
 */
function walk(ast: unknown): { inherited: boolean } | string {
  let inherited = false;
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    const { type, name } = node as { type?: unknown; name?: unknown };
    if (typeof type === 'string' && REFUSED_NODES[type] !== undefined) return REFUSED_NODES[type];
    if (type === 'Function' && (typeof name !== 'string' || !ALLOWED_FUNCTIONS.has(name)))
      return `the function ${String(name)}() is not allowed; allowed: ${[...ALLOWED_FUNCTIONS].join(', ')}`;
    if (type === 'Field' && typeof name === 'string' && INHERITED.has(name)) inherited = true;
    // A literal's value is data, not expression: its keys are not nodes.
    if (type === 'Literal') continue;
    for (const value of Object.values(node)) if (typeof value === 'object') stack.push(value);
  }
  return { inherited };
}

/** The value as objects without a prototype, so `constructor` is the value's or nothing. */
function ownCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ownCopy);
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) copy[key] = ownCopy(item);
  return copy;
}

/** JMESPath's truth: false, null, empty strings, lists and objects are false. */
export function isJmesPathTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
