import type { ToolDefinition } from '@agent/protocol';
import { expect, test } from 'vitest';
import {
  MAX_PARAMETER_CHARS,
  nameWords,
  oneLine,
  parameterText,
  ToolIndex,
} from '../../src/tool-search/tool-index.js';

const def = (
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties },
});

test('tool names are split into words on __, _, -, and camelCase', () => {
  expect(nameWords('github__create_issue')).toBe('github create issue');
  expect(nameWords('billing__refundInvoice')).toBe('billing refund Invoice');
  expect(nameWords('list-invoices')).toBe('list invoices');
  expect(nameWords('getHTTPStatus')).toBe('get HTTP Status');
});

test('names weigh more than descriptions; parameter names and descriptions are searched too', async () => {
  const index = await ToolIndex.build([
    def('notes__write', 'Writes an issue summary into the notes'),
    def('github__create_issue', 'Opens a ticket in a repository'),
    def('shipping__track', 'Where a parcel is', {
      tracking_number: { type: 'string', description: 'Carrier code' },
    }),
    def('crm__lookup', 'Finds a contact', { query: { type: 'string', description: 'An e-mail address' } }),
  ]);
  expect(index.find('create issue', 5)[0]).toBe('github__create_issue');
  expect(index.find('tracking number', 5)).toEqual(['shipping__track']);
  expect(index.find('email address', 5)).toEqual(['crm__lookup']);
  // camelCase and snake_case queries are split the same way as the names.
  expect(index.find('createIssue', 1)).toEqual(['github__create_issue']);
  expect(index.find('create issue', 1)).toHaveLength(1);
  expect(index.find('the a to', 5)).toEqual([]);
});

test('parameter text is bounded, however large the schema', () => {
  const properties = Object.fromEntries(
    Array.from({ length: 2_000 }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(50) }]),
  );
  expect(parameterText({ type: 'object', properties }).length).toBeLessThanOrEqual(MAX_PARAMETER_CHARS);
});

test('a large index is built in chunks: the event loop runs while 20,000 tools are indexed', async () => {
  const tools = Array.from({ length: 20_000 }, (_, i) =>
    def(`api__operation_${i}`, `Operation number ${i} of the generated API`, {
      [`param_${i}`]: { type: 'string' },
    }),
  );
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
  }, 1);
  const index = await ToolIndex.build(tools);
  clearInterval(timer);
  expect(ticks).toBeGreaterThan(0);
  expect(index.find('operation 12345', 1)).toEqual(['api__operation_12345']);
});

test('a search result line is the first line of the description, cut short', () => {
  expect(oneLine('Lists things.\nMore detail here.')).toBe('Lists things.');
  expect(oneLine('y'.repeat(300))).toHaveLength(160);
});
