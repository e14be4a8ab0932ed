import { ConfigError, type ToolPolicy } from '@agent/protocol';
import { MAX_JMESPATH_LENGTH as MAX_CONDITION_LENGTH } from '@agent/schema';
import { startModelServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { compileToolPolicy, MAX_POLICY_RULES } from '../../src/guardrails/tool-policy.js';
import { defineAgent } from '../../src/index.js';
import { openaiModelOn } from '../helpers/http-model.js';

// Issue 38: a tool policy is checked and compiled when the agent is defined; a bad rule is a
// ConfigError naming the rule, the expression and what is wrong; evaluation stays bounded
// whatever shape the model gives the arguments.

/** defineAgent's error for `policy` (the model server is never asked: definition only). */
async function definitionError(policy: unknown): Promise<ConfigError> {
  const server = await startModelServer({ strict: true, steps: [] });
  try {
    defineAgent({ model: openaiModelOn(server), toolPolicy: policy as ToolPolicy });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  } finally {
    await server.close();
  }
  throw new Error('defineAgent accepted the policy');
}

const decide = (policy: ToolPolicy, tool: string, args: Record<string, unknown>) =>
  compileToolPolicy(policy).decide('c1', tool, args);

describe('bad rules are ConfigErrors at definition', () => {
  test('a bare number names the rule, the expression and the backtick form', async () => {
    const error = await definitionError({
      rules: [
        { tools: 'http__get', decision: 'allow' },
        { tools: 'http__post', when: 'amount > 100', decision: 'ask' },
      ],
    });
    expect(error.field).toBe('toolPolicy.rules[1].when');
    expect(error.value).toBe('amount > 100');
    expect(error.message).toContain('toolPolicy.rules[1].when "amount > 100" is not a valid condition');
    expect(error.message).toContain('numbers are JSON literals in backticks, e.g. amount > `100`');
  });

  test.each([
    ['pad_left(to, amount) == `"x"`', 'the function pad_left() is not allowed'],
    ['{a: replace(to, `"a"`, `"b"`)}', 'the function replace() is not allowed'],
    ['launch(amount)', 'the function launch() is not allowed'],
    ['items[?price > $.amount]', 'the root reference `$` is not allowed'],
    ['let $a = amount in $a > `1`', '`let` expressions are not allowed'],
    ['amount >', 'Syntax error'],
    [`${'a'.repeat(MAX_CONDITION_LENGTH)} == \`1\``, `at most ${MAX_CONDITION_LENGTH} are allowed`],
    ['   ', 'a non-empty JMESPath expression is needed'],
  ])('%s is refused: %s', async (when, why) => {
    const error = await definitionError({ rules: [{ tools: '*', when, decision: 'deny' }] });
    expect(error.field).toBe('toolPolicy.rules[0].when');
    expect(error.message).toContain(why);
  });

  test('every problem of a policy is named, each with its rule', async () => {
    const error = await definitionError({
      default: 'maybe',
      rules: [
        { tools: [], decision: 'allow' },
        { tools: 'x', decision: 'block' },
        'deny',
        { tools: 'y', decision: 'deny', name: 'a/b' },
      ],
    });
    expect(error.problems.map((p) => p.field)).toEqual([
      'toolPolicy.default',
      'toolPolicy.rules[0].tools',
      'toolPolicy.rules[1].decision',
      'toolPolicy.rules[2]',
      'toolPolicy.rules[3].name',
    ]);
    expect(error.problems[0]!.message).toBe(
      'toolPolicy.default must be one of allow, deny, ask, got "maybe"',
    );
  });

  test(`more than ${MAX_POLICY_RULES} rules, or no list, are refused`, async () => {
    const many = Array.from({ length: MAX_POLICY_RULES + 1 }, () => ({ tools: 'x', decision: 'allow' }));
    expect((await definitionError({ rules: many })).message).toContain(
      `toolPolicy.rules must be a list of at most ${MAX_POLICY_RULES} rules, got "${MAX_POLICY_RULES + 1} rules"`,
    );
    expect((await definitionError({ default: 'deny' })).field).toBe('toolPolicy.rules');
    expect((await definitionError('deny')).field).toBe('toolPolicy');
  });
});

describe('conditions', () => {
  const policy: ToolPolicy = {
    rules: [
      { tools: 'pay', when: "currency == 'EUR' && amount > `100`", decision: 'ask' },
      {
        tools: 'pay',
        when: 'length(items[?price > `50`] || `[]`) > `0`',
        decision: 'deny',
        name: 'pricey item',
      },
      { tools: 'pay', when: 'constructor', decision: 'deny', name: 'inherited' },
      { tools: ['pay', 'refund'], when: 'note', decision: 'deny', name: 'has a note' },
    ],
  };

  test('comparisons, filters and JMESPath truth decide which rule matches', () => {
    expect(decide(policy, 'pay', { currency: 'EUR', amount: 150 }).rule).toBe(0);
    expect(decide(policy, 'pay', { currency: 'USD', amount: 150 }).rule).toBe('default');
    expect(decide(policy, 'pay', { items: [{ price: 10 }, { price: 70 }] }).ruleName).toBe('pricey item');
    // A string is not a number: the comparison is null, the rule does not match.
    expect(decide(policy, 'pay', { currency: 'EUR', amount: '150' }).rule).toBe('default');
    expect(decide(policy, 'refund', { note: '' }).rule).toBe('default');
    expect(decide(policy, 'refund', { note: 'x' }).ruleName).toBe('has a note');
    expect(decide(policy, 'other', { note: 'x' }).rule).toBe('default');
  });

  test('a function given a missing or mistyped field fails closed: the call is denied, naming the rule', () => {
    const strict: ToolPolicy = {
      rules: [{ tools: 'pay', when: 'length(items) > `3`', decision: 'allow', name: 'many' }],
    };
    expect(decide(strict, 'pay', { items: [1, 2, 3, 4] }).decision).toBe('allow');
    const verdict = decide(strict, 'pay', {});
    expect(verdict).toMatchObject({ decision: 'deny', rule: 0, ruleName: 'many' });
    expect(verdict.reason).toMatch(
      /^the condition of many could not be evaluated on these arguments \(.+\)$/,
    );
  });

  test('names every object inherits read only the arguments themselves', () => {
    expect(decide(policy, 'pay', {}).rule).toBe('default');
    expect(decide(policy, 'pay', JSON.parse('{"constructor": 1}')).ruleName).toBe('inherited');
    expect(decide(policy, 'pay', JSON.parse('{"__proto__": {"constructor": 1}}')).rule).toBe('default');
  });

  test('hostile shapes: very deep arguments fail closed (deny) instead of throwing', () => {
    // Two equal structures, built apart: comparing them recurses as deep as they go.
    const nest = () => {
      let deep: unknown = 1;
      for (let i = 0; i < 100_000; i++) deep = [deep];
      return deep;
    };
    const verdict = decide({ rules: [{ tools: '*', when: 'a == b', decision: 'allow' }] }, 't', {
      a: nest(),
      b: nest(),
    });
    expect(verdict.decision).toBe('deny');
    expect(verdict.reason).toMatch(
      /^the condition of rule 0 could not be evaluated on these arguments \(.+\)$/,
    );
  });

  test('large arguments stay linear: a filter over 200 000 items decides well within a second each', () => {
    const items = Array.from({ length: 200_000 }, (_, i) => ({ price: i % 97, name: `item ${i}` }));
    const started = performance.now();
    for (let i = 0; i < 3; i++) expect(decide(policy, 'pay', { items }).ruleName).toBe('pricey item');
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
