// Deferred tools on OpenAI Responses (tool search, native): the session's `tool_search` goes as
// the API's client-executed `tool_search` tool, the model's search comes back as a call of it,
// (the server answers with a `tool_search_call` item, which nothing else would read as a call),
// and the search result goes back as a `tool_search_output` item with the found definitions.
import type { ModelRequest, ToolDefinition } from '@agent/protocol';
import { type ModelServer, startModelServer } from '@agent/testkit';
import { afterEach, expect, it } from 'vitest';
import { clientFor, collect } from './helpers.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const searchSchema = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
const refundSchema = { type: 'object', properties: { invoice: { type: 'string' } } };
const search: ToolDefinition = { name: 'tool_search', description: 'Find tools', inputSchema: searchSchema };
const refund: ToolDefinition = { name: 'refund', description: 'Refunds', inputSchema: refundSchema };
const forecast: ToolDefinition = { name: 'forecast', description: 'Weather', inputSchema: refundSchema };

const deferred = (tool: ToolDefinition): ToolDefinition => ({ ...tool, deferLoading: true });

const request = (tools: ToolDefinition[], references?: string[]): ModelRequest => ({
  messages: [
    { role: 'user', content: 'Refund INV-7.' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'tool_search', arguments: { query: 'refund' } }],
    },
    {
      role: 'tool',
      toolCallId: 'call_1',
      toolName: 'tool_search',
      content: 'refund: Refunds',
      ...(references === undefined ? {} : { toolReferences: references }),
    },
  ],
  tools,
});

type Body = { tools: Record<string, unknown>[]; input: Record<string, unknown>[] };

it('sends the search as the client tool_search tool, deferred functions, and the result as the found definitions', async () => {
  server = await startModelServer({ strict: true, steps: [{ text: 'ok' }, { text: 'ok' }] });
  const client = clientFor(server, 'openai-responses', { model: 'gpt-5.4' });
  expect(client.deferredTools).toBe(true);
  await collect(client.stream(request([search, deferred(refund), deferred(forecast)], ['refund'])));
  await collect(client.stream(request([search, refund, forecast])));
  const [native, plain] = server.requests;
  expect(native?.rejected).toBeUndefined();
  const body = native?.body as Body;
  expect(body.tools).toEqual([
    { type: 'tool_search', execution: 'client', description: 'Find tools', parameters: searchSchema },
    {
      type: 'function',
      name: 'refund',
      description: 'Refunds',
      parameters: refundSchema,
      strict: false,
      defer_loading: true,
    },
    {
      type: 'function',
      name: 'forecast',
      description: 'Weather',
      parameters: refundSchema,
      strict: false,
      defer_loading: true,
    },
  ]);
  expect(body.input.slice(1)).toEqual([
    { type: 'tool_search_call', call_id: 'call_1', arguments: { query: 'refund' }, execution: 'client' },
    {
      type: 'tool_search_output',
      call_id: 'call_1',
      execution: 'client',
      tools: [
        { type: 'function', name: 'refund', description: 'Refunds', parameters: refundSchema, strict: false },
      ],
    },
  ]);
  // Without deferred tools: tool_search is a function like any other, its result text as before.
  expect(plain?.rejected).toBeUndefined();
  const plainBody = plain?.body as Body;
  expect(plainBody.tools.map((tool) => [tool.type, tool.name, tool.defer_loading])).toEqual([
    ['function', 'tool_search', undefined],
    ['function', 'refund', undefined],
    ['function', 'forecast', undefined],
  ]);
  expect(plainBody.input.slice(1).map((item) => item.type)).toEqual([
    'function_call',
    'function_call_output',
  ]);
  expect(plainBody.input[2]?.output).toBe('refund: Refunds');
});

it.each([true, false])(
  'reads the model’s tool_search_call as a call of tool_search (stream: %s)',
  async (stream) => {
    server = await startModelServer({
      strict: true,
      steps: [
        { toolCalls: [{ id: 'call_s1', name: 'tool_search', arguments: { query: 'refund an invoice' } }] },
      ],
    });
    const client = clientFor(server, 'openai-responses', { model: 'gpt-5.4' });
    const first: ModelRequest = {
      messages: [{ role: 'user', content: 'Refund INV-7.' }],
      tools: [search, deferred(refund)],
      stream,
    };
    const out = await collect(client.stream(first));
    expect(out.toolCalls).toEqual([
      {
        id: 'call_s1',
        name: 'tool_search',
        arguments: { query: 'refund an invoice' },
        rawArguments: '{"query":"refund an invoice"}',
      },
    ]);
    expect(out.finish?.stopReason).toBe('tool_calls');
  },
);
