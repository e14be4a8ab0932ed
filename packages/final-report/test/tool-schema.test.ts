import { FINAL_REPORT_TOOL, OUTPUT_FORMATS, TEXT_OUTPUT_FORMATS } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { compileSchema, finalReportToolDefinition, finalReportToolSchema } from '../src/index.js';

function validator(schema: Record<string, unknown>) {
  const compiled = compileSchema(schema);
  if (!compiled.ok) throw new Error(compiled.error);
  return (value: unknown) => compiled.validate(value).length === 0;
}

describe('finalReportToolSchema', () => {
  it.each(OUTPUT_FORMATS)('%s: report_format is a const, status an enum, metadata an object', (format) => {
    const schema = finalReportToolSchema(format);
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.report_format).toMatchObject({ type: 'string', const: format });
    expect(properties.status).toMatchObject({ type: 'string', enum: ['success', 'failure', 'partial'] });
    expect(properties.metadata).toMatchObject({ type: 'object' });
    expect(schema.required).toEqual(expect.arrayContaining(['report_format', 'status']));
  });

  it.each([...TEXT_OUTPUT_FORMATS, 'sub-agent' as const])(
    '%s asks for report_content and encoding',
    (format) => {
      const schema = finalReportToolSchema(format);
      expect(schema.required).toEqual(['report_format', 'status', 'report_content', 'encoding']);
      expect((schema.properties as Record<string, unknown>).encoding).toMatchObject({
        enum: ['raw', 'base64'],
      });
      const valid = validator(schema);
      expect(valid({ report_format: format, status: 'success', report_content: 'x', encoding: 'raw' })).toBe(
        true,
      );
      expect(valid({ report_format: 'json', status: 'success', report_content: 'x', encoding: 'raw' })).toBe(
        false,
      );
      expect(valid({ report_format: format, status: 'done', report_content: 'x', encoding: 'raw' })).toBe(
        false,
      );
    },
  );

  it('json without a schema asks for an object in content_json', () => {
    const schema = finalReportToolSchema('json');
    expect(schema.required).toEqual(['report_format', 'status', 'content_json']);
    expect((schema.properties as Record<string, unknown>).content_json).toMatchObject({ type: 'object' });
    expect((schema.properties as Record<string, unknown>).report_content).toBeUndefined();
  });

  it('json embeds the user schema, hoisting $defs so references still resolve', () => {
    const user = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: ['item'],
      properties: { item: { $ref: '#/$defs/item' }, status: { enum: ['ok', 'broken'] } },
      $defs: { item: { type: 'string' } },
    };
    const schema = finalReportToolSchema('json', user);
    const contentJson = (schema.properties as Record<string, Record<string, unknown>>).content_json;
    expect(contentJson).toMatchObject({ type: 'object', required: ['item'] });
    expect(contentJson?.$schema).toBeUndefined();
    expect(schema.$defs).toEqual(user.$defs);
    const valid = validator(schema);
    expect(
      valid({ report_format: 'json', status: 'success', content_json: { item: 'a', status: 'broken' } }),
    ).toBe(true);
    expect(valid({ report_format: 'json', status: 'success', content_json: { item: 1 } })).toBe(false);
    expect(user.$defs).toBeDefined();
  });

  it('slack-block-kit asks for a messages array', () => {
    const schema = finalReportToolSchema('slack-block-kit');
    expect(schema.required).toEqual(['report_format', 'status', 'messages']);
    expect((schema.properties as Record<string, unknown>).messages).toMatchObject({ type: 'array' });
    const valid = validator(schema);
    expect(
      valid({
        report_format: 'slack-block-kit',
        status: 'success',
        messages: [{ blocks: [{ type: 'divider' }] }],
      }),
    ).toBe(true);
    expect(valid({ report_format: 'slack-block-kit', status: 'success', messages: 'x' })).toBe(false);
  });
});

describe('finalReportToolDefinition', () => {
  it.each(OUTPUT_FORMATS)('%s is a protocol ToolDefinition named agent__final_report', (format) => {
    const definition = finalReportToolDefinition(format);
    expect(definition.name).toBe(FINAL_REPORT_TOOL);
    expect(definition.description).toContain('final answer');
    expect(definition.inputSchema).toEqual(finalReportToolSchema(format));
  });
});
