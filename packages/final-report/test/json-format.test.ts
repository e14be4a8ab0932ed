import { describe, expect, it } from 'vitest';
import {
  compileSchema,
  MAX_DIAGNOSTICS,
  processFinalReport,
  validateWithNestedRepair,
} from '../src/index.js';
import { expectFailure, expectOk } from './helpers.js';

const STATUS_SCHEMA = {
  type: 'object',
  required: ['status', 'summary'],
  properties: { status: { enum: ['ok', 'broken'] }, summary: { type: 'string' } },
  additionalProperties: false,
};

describe('json: wrapper fields never enter the payload', () => {
  it('keeps the payload status from the user schema while the report status comes from the wrapper (xml)', () => {
    const result = expectOk(
      processFinalReport(
        {
          source: 'xml',
          attributes: { status: 'success', format: 'json' },
          payload: '{"status": "broken", "summary": "disk full"}',
        },
        { format: 'json', schema: STATUS_SCHEMA },
      ),
    );
    expect(result.report.status).toBe('success');
    expect(result.report.content_json).toEqual({ status: 'broken', summary: 'disk full' });
  });

  it('keeps the payload status from the user schema while the report status comes from the wrapper (tool)', () => {
    const result = expectOk(
      processFinalReport(
        {
          source: 'tool',
          params: {
            report_format: 'json',
            status: 'partial',
            content_json: { status: 'broken', summary: 's' },
            metadata: { m: 1 },
          },
        },
        { format: 'json', schema: STATUS_SCHEMA },
      ),
    );
    expect(result.report.status).toBe('partial');
    expect(result.report.metadata).toEqual({ m: 1 });
    expect(result.report.content_json).toEqual({ status: 'broken', summary: 's' });
  });
});

describe('json: stringified nested JSON repair', () => {
  const schema = {
    type: 'object',
    required: ['meta', 'items'],
    properties: {
      meta: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
      items: { type: 'array', items: { type: 'object', properties: { tags: { type: 'array' } } } },
    },
  };

  it('parses a stringified object and a stringified array, and reports both', () => {
    const result = expectOk(
      processFinalReport(
        {
          source: 'tool',
          params: { status: 'success', content_json: { meta: '{"n": 3}', items: '[{"tags": []}]' } },
        },
        { format: 'json', schema },
      ),
    );
    expect(result.report.content_json).toEqual({ meta: { n: 3 }, items: [{ tags: [] }] });
    expect(result.repairs).toEqual(['parsed stringified JSON at /meta', 'parsed stringified JSON at /items']);
  });

  it('repairs nested levels over several rounds', () => {
    const result = expectOk(
      processFinalReport(
        {
          source: 'tool',
          params: {
            status: 'success',
            content_json: { meta: { n: 1 }, items: JSON.stringify([{ tags: '["a", "b"]' }]) },
          },
        },
        { format: 'json', schema },
      ),
    );
    expect(result.report.content_json).toEqual({ meta: { n: 1 }, items: [{ tags: ['a', 'b'] }] });
    expect(result.repairs).toEqual([
      'parsed stringified JSON at /items',
      'parsed stringified JSON at /items/0/tags',
    ]);
  });

  it('repairs a whole payload sent as a JSON string', () => {
    const result = expectOk(
      processFinalReport(
        {
          source: 'tool',
          params: {
            status: 'success',
            content_json: JSON.stringify(JSON.stringify({ meta: { n: 2 }, items: [] })),
          },
        },
        { format: 'json', schema },
      ),
    );
    expect(result.report.content_json).toEqual({ meta: { n: 2 }, items: [] });
    expect(result.repairs).toContain('decoded JSON that was encoded as a string');
  });

  it('leaves a string that does not parse to the wanted type alone', () => {
    const failure = expectFailure(
      processFinalReport(
        {
          source: 'tool',
          params: { status: 'success', content_json: { meta: 'n is three', items: '{"a": 1}' } },
        },
        { format: 'json', schema },
      ),
      'final_report_schema_mismatch',
    );
    expect(failure.diagnostics).toEqual([
      '/meta: must be object (got "n is three")',
      '/items: must be array (got "{\\"a\\": 1}")',
    ]);
  });

  it('stops after the bounded number of rounds', () => {
    const deep = {
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'object' } } } },
    };
    const compiled = compileSchema(deep);
    if (!compiled.ok) throw new Error(compiled.error);
    const value = { a: JSON.stringify({ b: JSON.stringify({}) }) };
    expect(validateWithNestedRepair(value, compiled.validate, 1).errors.length).toBeGreaterThan(0);
    expect(validateWithNestedRepair(value, compiled.validate).errors).toEqual([]);
  });

  it('handles types given as a list (object or null)', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { status: 'success', content_json: { x: '{"y": 1}' } } },
        { format: 'json', schema: { type: 'object', properties: { x: { type: ['object', 'null'] } } } },
      ),
    );
    expect(result.report.content_json).toEqual({ x: { y: 1 } });
  });
});

describe('json: diagnostics', () => {
  it('lists every problem with its path, one short line each', () => {
    const failure = expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '{"status": "fine", "extra": 1}' },
        { format: 'json', schema: STATUS_SCHEMA },
      ),
      'final_report_schema_mismatch',
    );
    expect(failure.reason).toBe(
      'content_json does not match the expected schema (3 problems); fix the fields listed',
    );
    expect(failure.diagnostics).toEqual([
      "/: must have required property 'summary'",
      "/: must NOT have additional properties: 'extra'",
      '/status: must be equal to one of the allowed values: "ok", "broken" (got "fine")',
    ]);
  });

  it('reports format errors (ajv-formats) with the path', () => {
    const schema = {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, at: { type: 'string', format: 'date-time' } },
    };
    const failure = expectFailure(
      processFinalReport(
        { source: 'tool', params: { status: 'success', content_json: { email: 'nope', at: 'yesterday' } } },
        { format: 'json', schema },
      ),
      'final_report_schema_mismatch',
    );
    expect(failure.diagnostics).toEqual([
      '/email: must match format "email" (got "nope")',
      '/at: must match format "date-time" (got "yesterday")',
    ]);
  });

  it('caps the number and length of lines', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 15 }, (_, i) => [`field_${i}`, { type: 'number' }]),
    );
    const payload = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`field_${i}`, 'x'.repeat(500)]));
    const failure = expectFailure(
      processFinalReport(
        { source: 'tool', params: { status: 'success', content_json: payload } },
        { format: 'json', schema: { type: 'object', properties } },
      ),
      'final_report_schema_mismatch',
    );
    expect(failure.diagnostics).toHaveLength(MAX_DIAGNOSTICS + 1);
    expect(failure.diagnostics.at(-1)).toBe('… and 5 more');
    for (const line of failure.diagnostics) expect(line.length).toBeLessThanOrEqual(200);
  });

  it('says why when the payload is not JSON at all', () => {
    const failure = expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: 'I finished the task, all good.' },
        { format: 'json' },
      ),
      'final_report_json_invalid',
    );
    expect(failure.reason).toBe(
      'the json final report is not JSON: no JSON object or array was found in the text',
    );
    expect(failure.diagnostics).toEqual([
      'the final tag body: no JSON object or array was found in the text',
      'it starts with: "I finished the task, all good."',
      'send exactly one JSON object, with no text around it',
    ]);
  });

  it('a parsed value that misses the schema comes back as the report it would be, with bounded errors', () => {
    const many = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`f${i}`, { type: 'integer' }])),
    };
    const payload = JSON.stringify(Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`f${i}`, 'x'])));
    const failure = expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'partial', format: 'json' }, payload },
        { format: 'json', schema: many },
      ),
      'final_report_schema_mismatch',
    );
    expect(failure.parsed?.status).toBe('partial');
    expect(failure.parsed?.content_json).toEqual(JSON.parse(payload));
    expect(failure.parsed?.validationErrors).toHaveLength(MAX_DIAGNOSTICS);
    expect(failure.parsed?.validationErrors?.[0]).toEqual({
      instancePath: '/f0',
      message: 'must be integer',
    });
  });

  it('a scalar or an unparsable payload keeps no parsed report', () => {
    const scalar = expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '"just a string"' },
        { format: 'json' },
      ),
      'final_report_schema_mismatch',
    );
    expect(scalar.parsed).toBeUndefined();
    const broken = expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: 'no json' },
        { format: 'json' },
      ),
      'final_report_json_invalid',
    );
    expect(broken.parsed).toBeUndefined();
  });

  it('without a schema still requires an object', () => {
    const failure = expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '"just a string"' },
        { format: 'json' },
      ),
      'final_report_schema_mismatch',
    );
    expect(failure.diagnostics).toEqual(['/: must be object (got "just a string")']);
  });

  it('a caller schema that does not compile is final_report_schema_invalid', () => {
    const failure = expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '{}' },
        { format: 'json', schema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } },
      ),
      'final_report_schema_invalid',
    );
    expect(failure.reason).toContain('the expected output schema is not a usable JSON Schema');
    expect(failure.reason).toContain('#/nowhere');
  });

  it('a pattern RE2 cannot run is final_report_schema_invalid, never a backtracking fallback', () => {
    const failure = expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '{"a": "aa"}' },
        { format: 'json', schema: { type: 'object', properties: { a: { pattern: '(a)\\1' } } } },
      ),
      'final_report_schema_invalid',
    );
    expect(failure.reason).toContain('uses a backreference');
  });

  it('a content_json deeper than the limit is final_report_json_invalid, not an internal error', () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = [value];
    const failure = expectFailure(
      processFinalReport(
        { source: 'tool', params: { status: 'success', content_json: { a: value } } },
        { format: 'json' },
      ),
      'final_report_json_invalid',
    );
    expect(failure.reason).toBe('content_json nests deeper than the limit of 512 levels');
  });

  it('checks a long value against a catastrophic pattern in linear time', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } };
    const started = performance.now();
    const failure = expectFailure(
      processFinalReport(
        { source: 'tool', params: { status: 'success', content_json: { a: `${'a'.repeat(100_000)}!` } } },
        { format: 'json', schema },
      ),
      'final_report_schema_mismatch',
    );
    expect(failure.diagnostics[0]).toMatch(/^\/a: must match pattern/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('json: schemas', () => {
  it('accepts an array when the caller schema asks for one', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '[1, 2]' },
        { format: 'json', schema: { type: 'array', items: { type: 'integer' } } },
      ),
    );
    expect(result.report.content_json).toEqual([1, 2]);
  });

  it('uses draft 2020-12 when the schema says so ($defs and prefixItems)', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ $ref: '#/$defs/name' }, { type: 'integer' }] } },
      $defs: { name: { type: 'string' } },
    };
    expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '{"pair": ["a", 1]}' },
        { format: 'json', schema },
      ),
    );
    expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '{"pair": [1, 1]}' },
        { format: 'json', schema },
      ),
      'final_report_schema_mismatch',
    );
  });

  it('two schemas with the same $id do not clash', () => {
    const a = { $id: 'https://example.com/report', type: 'object', required: ['a'] };
    const b = { $id: 'https://example.com/report', type: 'object', required: ['b'] };
    expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '{"a": 1}' },
        { format: 'json', schema: a },
      ),
    );
    expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: '{"b": 1}' },
        { format: 'json', schema: b },
      ),
    );
  });

  it('compiles each schema once, also when the same schema comes again as a new object', () => {
    const schema = { type: 'object', required: ['a'] };
    expect(compileSchema(schema)).toBe(compileSchema(schema));
    expect(compileSchema({ type: 'object', required: ['a'] })).toBe(compileSchema(schema));
    expect(compileSchema({ type: 'object', required: ['b'] })).not.toBe(compileSchema(schema));
  });
});
