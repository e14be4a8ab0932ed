import { escapePointer } from './json-pointer.js';
import type { PatternLimits } from './limits.js';
import { patternCost } from './pattern-cost.js';

/** Every `pattern` string and `patternProperties` key in a schema, with where it is. */
export function schemaPatterns(schema: unknown): { pattern: string; path: string }[] {
  const found: { pattern: string; path: string }[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: schema, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const childPath = `${path}/${escapePointer(key)}`;
      if (!Array.isArray(value) && key === 'pattern' && typeof child === 'string') {
        found.push({ pattern: child, path: childPath });
      } else if (!Array.isArray(value) && key === 'patternProperties' && isObject(child)) {
        for (const name of Object.keys(child))
          found.push({ pattern: name, path: `${childPath}/${escapePointer(name)}` });
      }
      stack.push({ value: child, path: childPath });
    }
  }
  return found.reverse();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const number = (n: number) => n.toLocaleString('en-US');

/**
 * Why the schema's patterns would cost more to compile than `limits` allow, or undefined, and
 * their total estimated cost (`patternCost`, distinct patterns counted once: RE2 compiles each
 * once). Checked before RE2 or Ajv see any of them, so a refusal costs a walk, not a compile.
 * (A `pattern` key inside `const` or `enum` data counts too: the estimate errs on the safe side.)
 */
export function patternBudgetProblem(
  schema: unknown,
  limits: Required<PatternLimits>,
): { problem?: string; cost: number } {
  const patterns = schemaPatterns(schema);
  if (patterns.length > limits.maxPatterns) {
    return {
      problem: `the schema has ${number(patterns.length)} patterns, more than the limit of ${number(limits.maxPatterns)} (pattern and patternProperties keys; each is compiled code and an RE2 program)`,
      cost: 0,
    };
  }
  const seen = new Set<string>();
  let total = 0;
  for (const { pattern, path } of patterns) {
    if (seen.has(pattern)) continue;
    seen.add(pattern);
    const cost = patternCost(pattern);
    if (cost > limits.maxPatternCost) {
      return {
        problem: `${path}: pattern ${JSON.stringify(shown(pattern))} would compile to about ${number(cost)} RE2 instructions, more than the limit of ${number(limits.maxPatternCost)} per pattern (a counted repeat x{n,m} costs m copies of x, and nested repeats multiply)`,
        cost,
      };
    }
    total += cost;
  }
  if (total > limits.maxTotalPatternCost) {
    return {
      problem: `the schema's ${number(seen.size)} distinct patterns would compile to about ${number(total)} RE2 instructions in all, more than the limit of ${number(limits.maxTotalPatternCost)} per schema`,
      cost: total,
    };
  }
  return { cost: total };
}

/** A pattern quoted in a message: the first 200 characters. */
function shown(pattern: string): string {
  return pattern.length <= 200 ? pattern : `${pattern.slice(0, 200)}…`;
}
