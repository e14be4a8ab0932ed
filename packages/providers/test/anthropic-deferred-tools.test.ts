// Deferred tools (tool search, native): Anthropic's client sends `defer_loading`, the search
// result's `tool_reference` blocks and the advanced-tool-use beta beside the configured betas.
import type { ModelRequest, ToolDefinition } from '@agent/protocol';
import { type ModelServer, startModelServer } from '@agent/testkit';
import { afterEach, expect, it } from 'vitest';
import { clientFor, collect } from './helpers.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const schema = { type: 'object', properties: {} };
const search: ToolDefinition = { name: 'tool_search', description: 'Find tools', inputSchema: schema };
const refund: ToolDefinition = {
  name: 'refund',
  description: 'Refunds',
  inputSchema: schema,
  deferLoading: true,
};

const request = (tools: ToolDefinition[], references?: string[]): ModelRequest => ({
  messages: [
    { role: 'user', content: 'Refund INV-7.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'tool_search', arguments: {} }] },
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

it('sends deferred tools with the beta added to the configured ones, and the references as tool_reference blocks', async () => {
  server = await startModelServer({ strict: true, steps: [{ text: 'ok' }, { text: 'ok' }] });
  const client = clientFor(server, 'anthropic', { headers: { 'anthropic-beta': 'files-api-2025-04-14' } });
  expect(client.deferredTools).toBe(true);
  await collect(client.stream(request([search, refund], ['refund'])));
  await collect(client.stream(request([search, { ...refund, deferLoading: false }])));
  const [deferred, plain] = server.requests;
  expect(deferred?.rejected).toBeUndefined();
  expect(deferred?.headers?.['anthropic-beta']).toBe('files-api-2025-04-14,advanced-tool-use-2025-11-20');
  const body = deferred?.body as { tools: Record<string, unknown>[]; messages: { content: unknown }[] };
  expect(body.tools.map((tool) => [tool.name, tool.defer_loading, tool.cache_control])).toEqual([
    ['tool_search', undefined, { type: 'ephemeral' }],
    ['refund', true, undefined],
  ]);
  expect(body.messages[2]?.content).toEqual([
    {
      type: 'tool_result',
      tool_use_id: 'call_1',
      content: [{ type: 'tool_reference', tool_name: 'refund' }],
      // The search result ends the history, so it carries the history's cache mark.
      cache_control: { type: 'ephemeral' },
    },
  ]);
  // Without deferred tools: no beta added, no defer_loading, the result's text as before.
  expect(plain?.headers?.['anthropic-beta']).toBe('files-api-2025-04-14');
  expect(JSON.stringify(plain?.body)).not.toContain('defer_loading');
  expect(JSON.stringify(plain?.body)).toContain('refund: Refunds');
});
