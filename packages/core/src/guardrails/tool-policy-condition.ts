import { compileJmesPath } from '@agent/schema';

/** A compiled `when`: whether it holds for a call's arguments; throws when it cannot be evaluated. */
export interface PolicyCondition {
  holds(args: Record<string, unknown>): boolean;
}

/**
 * Compiles a `when` condition with the project's one JMESPath compiler (`@agent/schema`: its
 * length bound, function allow-list and refusals). Returns what is wrong as a string.
 */
export function compileCondition(expression: unknown): PolicyCondition | string {
  const compiled = compileJmesPath(expression);
  if (typeof compiled === 'string') return compiled;
  return { holds: (args) => isTruthy(compiled.search(args)) };
}

/** JMESPath's truth: false, null, empty strings, lists and objects are false. */
function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
