import { describe, expect, it } from 'vitest';
import { jsonSchemaGuardrail } from '../src/index.js';
import { args, configErrorOf, jsonReport, report, verdictOf } from './helpers.js';

const payment = {
  type: 'object',
  properties: { amount: { type: 'number', maximum: 100 }, currency: { enum: ['EUR', 'USD'] } },
  required: ['amount', 'currency'],
  additionalProperties: false,
};

describe('jsonSchemaGuardrail', () => {
  it('passes tool arguments that match and blocks those that do not, without quoting values', async () => {
    const guard = jsonSchemaGuardrail({
      name: 'small-payments',
      on: 'tool',
      tools: ['pay__*'],
      schema: payment,
    });
    expect(guard.phases).toEqual(['arguments']);
    expect(await verdictOf(guard, args('pay__send', { amount: 40, currency: 'EUR' }))).toEqual({
      verdict: 'pass',
    });
    const verdict = await verdictOf(guard, args('pay__send', { amount: 4000, currency: 'GBP' }));
    expect(verdict.verdict).toBe('block');
    expect(verdict.reason).toMatch(
      /^the arguments of pay__send does not match the schema: \/amount: must be <= 100/,
    );
    expect(verdict.reason).toContain('/currency: must be equal to one of the allowed values');
    expect(verdict.reason).not.toContain('4000');
    expect(verdict.reason).not.toContain('GBP');
  });

  it('denies instead when asked, so the run goes on', async () => {
    const guard = jsonSchemaGuardrail({ on: 'tool', schema: payment, action: 'deny' });
    expect((await verdictOf(guard, args('pay__send', { amount: 1 }))).verdict).toBe('deny');
  });

  it('checks a JSON report by value and a text report parsed as JSON', async () => {
    const guard = jsonSchemaGuardrail({
      on: 'output',
      schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } },
    });
    expect(guard.phases).toEqual(['report']);
    expect((await verdictOf(guard, jsonReport({ answer: 'yes' }))).verdict).toBe('pass');
    expect(await verdictOf(guard, jsonReport({ reply: 'yes' }))).toEqual({
      verdict: 'block',
      reason: "the report does not match the schema: /: must have required property 'answer'",
    });
    expect((await verdictOf(guard, report('{"answer": "yes"}'))).verdict).toBe('pass');
    expect(await verdictOf(guard, report('yes'))).toEqual({
      verdict: 'block',
      reason: 'the report is not JSON',
    });
  });

  it('refuses a schema the project would not compile: unusable, or with a pattern RE2 cannot run', () => {
    const bad = configErrorOf(() => jsonSchemaGuardrail({ on: 'tool', schema: { type: 'strang' } }));
    expect(bad.message).toMatch(/^guardrail "json-schema": schema: not a usable JSON Schema: /);
    const backref = configErrorOf(() =>
      jsonSchemaGuardrail({ on: 'tool', schema: { type: 'string', pattern: '(a)\\1' } }),
    );
    expect(backref.message).toContain('RE2 cannot run');
    expect(configErrorOf(() => jsonSchemaGuardrail({ on: 'input', schema: payment })).message).toBe(
      'guardrail "json-schema": on must be a stage with arguments or report phases (it checks tool arguments or the whole report), got "input"',
    );
  });
});
