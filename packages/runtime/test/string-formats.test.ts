import { describe, expect, test } from 'vitest';
import { formatKeeper, stripStringFormats } from '../src/models/string-formats.js';

describe('stripStringFormats', () => {
  const schema = {
    type: 'object',
    properties: {
      site: { type: 'string', format: 'uri' },
      mail: { type: ['string', 'null'], format: 'email' },
      when: { type: 'string', format: 'date' },
      // A property named `format` is a schema, not a format.
      format: { type: 'string', format: 'uri', default: { format: 'uri' }, enum: ['a'] },
      count: { type: 'integer', format: 'int32' },
      list: { type: 'array', items: { type: 'string', format: 'uri' } },
    },
  };

  test('denied formats go, others stay; non-string schemas and data values are left alone', () => {
    const keep = formatKeeper({ denied: ['uri', 'int32'] })!;
    const out = stripStringFormats(schema, keep) as typeof schema;
    expect(out.properties.site).toEqual({ type: 'string' });
    expect(out.properties.mail.format).toBe('email');
    expect(out.properties.format).toEqual({ type: 'string', default: { format: 'uri' }, enum: ['a'] });
    expect(out.properties.count.format).toBe('int32');
    expect(out.properties.list.items).toEqual({ type: 'string' });
    // The input is not changed.
    expect(schema.properties.site.format).toBe('uri');
  });

  test('an allow list keeps only its formats', () => {
    const out = stripStringFormats(schema, formatKeeper({ allowed: ['date'] })!) as typeof schema;
    expect(out.properties.when.format).toBe('date');
    expect(out.properties.site).not.toHaveProperty('format');
    expect(out.properties.mail).not.toHaveProperty('format');
  });

  test('empty lists filter nothing', () => {
    expect(formatKeeper({ allowed: [], denied: [] })).toBeUndefined();
  });
});
