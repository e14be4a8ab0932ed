import { compileJmesPath, isJmesPathTruthy } from '@agent/schema';

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
  return { holds: (args) => isJmesPathTruthy(compiled.search(args)) };
}
