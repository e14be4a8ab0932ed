// A multi-turn conversation with tool calls, tool results (one with an image), an invalid call
// and reasoning from several providers: the bodies the server received are what each API expects.
import type { ConversationMessage, ModelRequest, ToolDefinition } from '@agent/protocol';
import { type ModelServer, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelClientConfig, ProviderType } from '../src/index.js';
import { clientFor, collect } from './helpers.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUg==';

const tools: ToolDefinition[] = [
  {
    name: 'get_weather',
    description: 'Weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  {
    name: 'screenshot',
    description: 'Screenshot of a web page',
    inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
  },
];

const conversation: ConversationMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Paris, and a screenshot of example.com?' },
  {
    role: 'assistant',
    content: 'Checking.',
    reasoning: [
      // Anthropic signed and redacted thinking, and an OpenAI Responses reasoning item.
      { text: 'Need weather and a screenshot.', signature: 'sig-1' },
      { text: '', redactedData: 'opaque-redacted' },
      {
        text: 'Plan: call both tools.',
        providerData: { api: 'openai-responses', itemId: 'rs_1', encryptedContent: 'enc-1' },
      },
    ],
    toolCalls: [
      { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' },
      { id: 'call_2', name: 'screenshot', arguments: { url: 'https://example.com' } },
    ],
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: '18C, cloudy' },
  {
    role: 'tool',
    toolCallId: 'call_2',
    toolName: 'screenshot',
    content: 'Screenshot attached',
    parts: [{ type: 'image', mimeType: 'image/png', data: PNG }],
  },
  {
    role: 'assistant',
    content: '',
    reasoning: [{ text: 'Retry the weather.', signature: 'sig-2' }],
    toolCalls: [
      { id: 'call_3', name: 'get_weather', arguments: {}, rawArguments: '{"city":', parseError: 'bad JSON' },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'call_3',
    toolName: 'get_weather',
    content: 'error: invalid arguments',
    isError: true,
  },
  { role: 'user', content: 'Thanks. Summarise.' },
];

const request: ModelRequest = {
  messages: conversation,
  tools,
  toolChoice: 'auto',
  temperature: 0.3,
  topP: 0.9,
  maxOutputTokens: 1000,
  reasoning: { effort: 'low' },
};

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ strict: true });
});
afterAll(() => server.close());
beforeEach(() => {
  server.push({ text: 'ok' });
});

async function bodyOf(type: ProviderType, req: ModelRequest, overrides: Partial<ModelClientConfig> = {}) {
  const before = server.requests.length;
  await collect(clientFor(server, type, overrides).stream(req));
  expect(server.requests.length).toBe(before + 1);
  return server.requests[before]?.body as Record<string, unknown>;
}

const chatTools = tools.map((t) => ({
  type: 'function',
  function: { name: t.name, description: t.description, parameters: t.inputSchema },
}));

const chatMessages = (reasoning: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Paris, and a screenshot of example.com?' },
  {
    role: 'assistant',
    content: 'Checking.',
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      {
        id: 'call_2',
        type: 'function',
        function: { name: 'screenshot', arguments: '{"url":"https://example.com"}' },
      },
    ],
    ...reasoning,
  },
  { role: 'tool', tool_call_id: 'call_1', content: '18C, cloudy' },
  { role: 'tool', tool_call_id: 'call_2', content: 'Screenshot attached' },
  // Tool messages carry text only: the image follows the run of tool results, labelled.
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Images returned by tool screenshot (call call_2):' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ],
  },
  // Invalid arguments go back as {} (the tool result already says what was wrong).
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    ...extra,
  },
  { role: 'tool', tool_call_id: 'call_3', content: 'error: invalid arguments' },
  { role: 'user', content: 'Thanks. Summarise.' },
];

describe('openai (Chat Completions)', () => {
  it('sends roles in order, tool_call ids, tool results, tools, sampling and reasoning effort', async () => {
    const body = await bodyOf('openai', request);
    expect(body).toEqual({
      model: 'gpt-4.1-mini',
      messages: chatMessages(),
      tools: chatTools,
      tool_choice: 'auto',
      temperature: 0.3,
      top_p: 0.9,
      max_completion_tokens: 1000,
      reasoning_effort: 'low',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('names a forced tool and asks non-streamed when told', async () => {
    const body = await bodyOf('openai', {
      messages: [{ role: 'user', content: 'x' }],
      tools,
      toolChoice: { name: 'screenshot' },
      stream: false,
    });
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'screenshot' } });
    expect(body.stream).toBe(false);
    expect(body.stream_options).toBeUndefined();
  });
});

describe('openai-compatible', () => {
  it('uses max_tokens, replays reasoning under the configured field and merges extraBody', async () => {
    const body = await bodyOf('openai-compatible', request, {
      chatReasoningField: 'reasoning_content',
      extraBody: { provider: { order: ['groq'] } },
    });
    expect(body).toEqual({
      model: 'gpt-4.1-mini',
      messages: chatMessages(
        { reasoning_content: 'Need weather and a screenshot.Plan: call both tools.' },
        { reasoning_content: 'Retry the weather.' },
      ),
      tools: chatTools,
      tool_choice: 'auto',
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 1000,
      reasoning_effort: 'low',
      provider: { order: ['groq'] },
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends no Authorization header without an API key', async () => {
    const before = server.requests.length;
    await collect(
      clientFor(server, 'openai-compatible', { apiKey: undefined }).stream({ messages: conversation }),
    );
    const headers = server.requests[before]?.headers ?? {};
    expect(Object.keys(headers)).not.toContain('authorization');
  });
});

describe('openai-responses', () => {
  it('sends reasoning items with encrypted content, function calls and outputs, stateless', async () => {
    const body = await bodyOf('openai-responses', request);
    expect(body).toEqual({
      model: 'gpt-4.1-mini',
      store: false,
      input: [
        { type: 'message', role: 'system', content: 'You are terse.' },
        { type: 'message', role: 'user', content: 'Weather in Paris, and a screenshot of example.com?' },
        // Only the Responses reasoning item goes back; Anthropic's signed thinking cannot.
        {
          type: 'reasoning',
          id: 'rs_1',
          encrypted_content: 'enc-1',
          summary: [{ type: 'summary_text', text: 'Plan: call both tools.' }],
        },
        { type: 'message', role: 'assistant', content: 'Checking.' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        {
          type: 'function_call',
          call_id: 'call_2',
          name: 'screenshot',
          arguments: '{"url":"https://example.com"}',
        },
        { type: 'function_call_output', call_id: 'call_1', output: '18C, cloudy' },
        {
          type: 'function_call_output',
          call_id: 'call_2',
          output: [
            { type: 'input_text', text: 'Screenshot attached' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
          ],
        },
        { type: 'function_call', call_id: 'call_3', name: 'get_weather', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_3', output: 'error: invalid arguments' },
        { type: 'message', role: 'user', content: 'Thanks. Summarise.' },
      ],
      tools: tools.map((t) => ({
        type: 'function',
        name: t.name,
        description: t.description,
        parameters: t.inputSchema,
        strict: false,
      })),
      tool_choice: 'auto',
      temperature: 0.3,
      top_p: 0.9,
      max_output_tokens: 1000,
      reasoning: { effort: 'low' },
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
  });
});

describe('anthropic', () => {
  it('sends signed thinking first, tool results as user blocks, cache marks and a thinking budget', async () => {
    const body = await bodyOf('anthropic', request);
    const ephemeral = { type: 'ephemeral' };
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      // Effort low = 2048 thinking tokens; max_tokens must exceed it, so 2048 + 1000.
      max_tokens: 3048,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      system: [{ type: 'text', text: 'You are terse.', cache_control: ephemeral }],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'Weather in Paris, and a screenshot of example.com?' }],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need weather and a screenshot.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque-redacted' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_2', name: 'screenshot', input: { url: 'https://example.com' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: '18C, cloudy' },
            {
              type: 'tool_result',
              tool_use_id: 'call_2',
              content: [
                { type: 'text', text: 'Screenshot attached' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              ],
            },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Retry the weather.', signature: 'sig-2' },
            { type: 'tool_use', id: 'call_3', name: 'get_weather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            {
              // The last tool result before the newest user text ends the cached history.
              type: 'tool_result',
              tool_use_id: 'call_3',
              content: 'error: invalid arguments',
              is_error: true,
              cache_control: ephemeral,
            },
            { type: 'text', text: 'Thanks. Summarise.' },
          ],
        },
      ],
      tools: [
        { name: 'get_weather', description: 'Weather for a city', input_schema: tools[0]?.inputSchema },
        {
          name: 'screenshot',
          description: 'Screenshot of a web page',
          input_schema: tools[1]?.inputSchema,
          cache_control: ephemeral,
        },
      ],
      tool_choice: { type: 'auto' },
      stream: true,
    });
  });

  it('without thinking: default max_tokens, temperature (not with top_p), no marks when caching is off', async () => {
    const { reasoning: _, maxOutputTokens: __, ...plain } = request;
    const body = await bodyOf('anthropic', plain, { promptCaching: false });
    expect(body.max_tokens).toBe(4096);
    expect(body.thinking).toBeUndefined();
    expect(body.temperature).toBe(0.3);
    expect(body.top_p).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it('a forced tool turns thinking off (the API rejects both) and names the tool', async () => {
    const body = await bodyOf('anthropic', { ...request, toolChoice: { name: 'get_weather' } });
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'get_weather' });
    expect(body.thinking).toBeUndefined();
    expect(body.max_tokens).toBe(1000);
  });

  it('on the first turn only the system prompt and the last tool carry cache marks', async () => {
    const body = await bodyOf('anthropic', { messages: conversation.slice(0, 2), tools });
    const marked = JSON.stringify(body.messages);
    expect(marked).not.toContain('cache_control');
    expect((body.system as { cache_control?: unknown }[])[0]?.cache_control).toEqual({ type: 'ephemeral' });
    expect((body.tools as { cache_control?: unknown }[]).map((t) => t.cache_control)).toEqual([
      undefined,
      { type: 'ephemeral' },
    ]);
  });
});
