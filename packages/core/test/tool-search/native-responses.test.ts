import type { ModelClient } from '@agent/protocol';
import { createModelClient } from '@agent/providers';
import { loadedTools, type ModelServer, type RecordedRequest } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { run } from '../../src/index.js';
import { openaiModelOn } from '../helpers/http-model.js';
import { catalogAgent, NONCE, NATIVE_STEPS as STEPS, serve, servers, TOOL_NAMES } from './catalog.js';

// Provider-native loading on OpenAI Responses (docs/tool-search.md): the session's search is the
// API's client-executed `tool_search` tool, the model's search a `tool_search_call` item, and the
// answer a `tool_search_output` item with the found tools' definitions. The tools never change.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SEARCH = { after: 3, alwaysOn: ['status_*'], maxResults: 2, native: true };

function responsesOn(server: ModelServer): ModelClient {
  return createModelClient({
    type: 'openai-responses',
    provider: 'openai',
    model: 'gpt-5.4',
    apiKey: 'sk-test-secret-key',
    baseURL: `${server.url}/v1`,
  });
}

type Item = Record<string, unknown>;
const bodyOf = (request: RecordedRequest) => request.body as { tools: Item[]; input: Item[] };
const itemsOf = (request: RecordedRequest, type: string) =>
  bodyOf(request).input.filter((item) => item.type === type);

test('native on Responses: the same tools all session, the search is the API’s own call and output, the found tool is called', async () => {
  const server = await serve(STEPS);
  const ran: string[] = [];
  const agent = catalogAgent(server, ran, { model: responsesOn(server), toolSearch: SEARCH });
  const result = await run(agent, 'Refund INV-7.', { internal: { nonce: NONCE } });
  expect(result.success, result.error).toBe(true);
  expect(server.requests.map((request) => request.rejected)).toEqual([undefined, undefined, undefined]);
  expect(ran).toEqual(['billing__refundInvoice:INV-7']);

  const blocks = server.requests.map((request) => JSON.stringify(bodyOf(request).tools));
  expect(new Set(blocks).size).toBe(1);
  const tools = bodyOf(server.requests[0]!).tools;
  const search = tools.filter((tool) => tool.type === 'tool_search');
  expect(search).toEqual([
    expect.objectContaining({ execution: 'client', parameters: expect.objectContaining({ type: 'object' }) }),
  ]);
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOL_NAMES));
  const upFront = tools.filter((tool) => tool.type === 'function' && tool.defer_loading !== true);
  expect(upFront.map((tool) => tool.name).filter((name) => TOOL_NAMES.includes(String(name)))).toEqual([
    'status_health',
  ]);

  // The search went out and came back as the API's items, the found definition in the output.
  const [, second] = server.requests;
  expect(itemsOf(second!, 'tool_search_call')).toEqual([
    {
      type: 'tool_search_call',
      call_id: 'call_s1',
      arguments: { query: 'refund an invoice' },
      execution: 'client',
    },
  ]);
  const [output] = itemsOf(second!, 'tool_search_output');
  const found = (output?.tools ?? []) as Item[];
  expect(found.map((tool) => tool.name)).toContain('billing__refundInvoice');
  const definition = found.find((tool) => tool.name === 'billing__refundInvoice');
  expect(definition).toMatchObject({
    type: 'function',
    description: 'Gives the money of a paid invoice back to the customer',
    parameters: { properties: { invoice_number: { type: 'string' } } },
  });
  expect(definition?.defer_loading).toBeUndefined();
  expect(itemsOf(second!, 'function_call')).toEqual([]);
  expect(loadedTools(server.requests[0]!)).not.toContain('billing__refundInvoice');
  expect(loadedTools(server.requests[2]!)).toContain('billing__refundInvoice');
});

test('native with Responses and a Chat Completions fallback falls back: no deferred tools, the found tools join', async () => {
  const server = await serve(STEPS);
  const ran: string[] = [];
  const agent = catalogAgent(server, ran, {
    model: undefined,
    models: [responsesOn(server), openaiModelOn(server)],
    toolSearch: SEARCH,
  });
  const result = await run(agent, 'Refund INV-7.', { internal: { nonce: NONCE } });
  expect(result.success, result.error).toBe(true);
  expect(ran).toEqual(['billing__refundInvoice:INV-7']);
  const sent = JSON.stringify(server.requests.map((request) => request.body));
  expect(sent).not.toContain('defer_loading');
  expect(sent).not.toContain('tool_search_call');
  expect(bodyOf(server.requests[1]!).tools.map((tool) => tool.name)).toContain('billing__refundInvoice');
});
