import { errorMessage } from '@agent/protocol/util';
import { compile, type JSONValue, TreeInterpreter } from '@jmespath-community/jmespath';

/** The longest `when` expression taken: conditions are short; a long one is a mistake or an attack. */
export const MAX_CONDITION_LENGTH = 1024;

/**
 * Functions a condition may call: those whose work and output stay linear (or n log n) in the
 * arguments. Left out: `pad_left`/`pad_right` (a width from the arguments would allocate at will),
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
 * variables): with them nested projections cost n² or more on hostile arguments; without them
 * each part of the expression visits each part of the arguments at most once.
 */
const REFUSED_NODES: Record<string, string> = {
  Root: 'the root reference `$` is not allowed (the arguments are the current value `@` already)',
  LetExpression: '`let` expressions are not allowed',
  Variable: 'variables (`$name`) are not allowed',
};

/** Names every plain object inherits: read from the arguments' own keys only. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A compiled `when`: whether it holds for a call's arguments; throws when it cannot be evaluated. */
export interface PolicyCondition {
  holds(args: Record<string, unknown>): boolean;
}

/**
 * Compiles a JMESPath expression (the community edition: no `eval`, no regular expressions)
 * once, checking it stays within what is bounded. Returns what is wrong as a string.
 */
export function compileCondition(expression: unknown): PolicyCondition | string {
  if (typeof expression !== 'string' || expression.trim().length === 0)
    return 'a non-empty JMESPath expression is needed';
  if (expression.length > MAX_CONDITION_LENGTH)
    return `it is ${expression.length} characters long; at most ${MAX_CONDITION_LENGTH} are allowed`;
  let ast: unknown;
  try {
    ast = compile(expression);
  } catch (error) {
    return syntaxProblem(error);
  }
  const walked = walk(ast);
  if (typeof walked === 'string') return walked;
  const root = ast as Parameters<typeof TreeInterpreter.search>[0];
  const search = (args: Record<string, unknown>) =>
    TreeInterpreter.search(root, (walked.inherited ? ownCopy(args) : args) as JSONValue);
  return { holds: (args) => isTruthy(search(args)) };
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

/** The arguments as objects without a prototype, so `constructor` is the argument or nothing. */
function ownCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ownCopy);
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) copy[key] = ownCopy(item);
  return copy;
}

/** JMESPath's truth: false, null, empty strings, lists and objects are false. */
function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
