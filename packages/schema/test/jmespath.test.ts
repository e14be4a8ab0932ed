import { describe, expect, test } from 'vitest';
import { compileJmesPath, MAX_JMESPATH_LENGTH } from '../src/index.js';

// The project's one JMESPath compiler: tool-policy conditions (`holds`) and eval scorers
// (`search`) both go through it, with the same bounds.

function compiled(expression: string) {
  const result = compileJmesPath(expression);
  if (typeof result === 'string') throw new Error(`refused: ${result}`);
  return result;
}

describe('search gives the value the expression selects', () => {
  test('fields, projections, filters and allowed functions', () => {
    const value = {
      order: {
        items: [
          { sku: 'a', qty: 2 },
          { sku: 'b', qty: 5 },
        ],
      },
      total: 12.5,
    };
    expect(compiled('order.items[*].sku').search(value)).toEqual(['a', 'b']);
    expect(compiled('order.items[?qty > `3`].sku | [0]').search(value)).toBe('b');
    expect(compiled('sum(order.items[*].qty)').search(value)).toBe(7);
    expect(compiled('total').search(value)).toBe(12.5);
    expect(compiled('missing.field').search(value)).toBeNull();
    expect(compiled('total').source).toBe('total');
  });

  test('inherited names read the value own keys only', () => {
    expect(compiled('constructor').search({})).toBeNull();
    expect(compiled('constructor').search({ constructor: 'mine' })).toBe('mine');
  });
});

describe('refusals say what is wrong and what is allowed', () => {
  test.each([
    ['', 'a non-empty JMESPath expression is needed'],
    ['$.a', 'the root reference `$` is not allowed'],
    ['let $x = a in $x', '`let` expressions are not allowed'],
    ["join(', ', a)", 'the function join() is not allowed; allowed: abs,'],
    ['pad_left(a, `1000000`)', 'the function pad_left() is not allowed'],
    ['a > 1', 'numbers are JSON literals in backticks'],
    ['a'.repeat(MAX_JMESPATH_LENGTH + 1), `at most ${MAX_JMESPATH_LENGTH} are allowed`],
  ])('%s', (expression, message) => {
    const result = compileJmesPath(expression);
    expect(typeof result).toBe('string');
    expect(result).toContain(message);
  });

  test('a non-string is refused', () => {
    expect(compileJmesPath(42)).toBe('a non-empty JMESPath expression is needed');
  });
});
