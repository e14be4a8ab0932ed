// Strict mode through the official SDKs: each documented rule answers a breaking request with
// the status, type and message the real API sends, uses no step, and lets a valid request through.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, type StrictOptions, startModelServer } from '../src/index.js';

let server: ModelServer;
afterEach(async () => {
  await server.close();
});

async function strict(options: StrictOptions | true = true): Promise<void> {
  server = await startModelServer({ strict: options, steps: [{ text: 'ok' }] });
}

const openai = (prefix = '') =>
  new OpenAI({ baseURL: `${server.url}${prefix}/v1`, apiKey: 'test', maxRetries: 0, logLevel: 'off' });
const anthropic = () =>
  new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0, logLevel: 'off' });

type Json = Record<string, unknown>;

/** The SDK error a request got (the test fails when it was accepted). */
async function refusal(call: () => Promise<unknown>): Promise<{ status?: number; error: Json }> {
  try {
    await call();
  } catch (error) {
    if (error instanceof OpenAI.APIError || error instanceof Anthropic.APIError) {
      return { status: error.status, error: error.error as Json };
    }
    throw error;
  }
  throw new Error('expected the request to be refused');
}

/** The request was refused, recorded with the reason, and no step was used. */
function expectRecordedRefusal(status: number, message: string): void {
  expect(server.requests.at(-1)?.rejected).toEqual({ status, message });
  expect(server.remaining).toBe(1);
}

/**
 * The body as sent: the openai SDK keeps only an `error` field, so Mistral's own shape reaches
 * an SDK user as "422 status code (no body)" (the providers' client keeps it whole).
 */
async function rawChat(prefix: string, body: Json): Promise<{ status: number; error: Json }> {
  const response = await fetch(`${server.url}${prefix}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, error: (await response.json()) as Json };
}

const chat = (body: Json, prefix = '') =>
  openai(prefix).chat.completions.create(
    body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
  );
const responses = (body: Json) =>
  openai().responses.create(body as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming);
// `post` rather than `messages.create`, which prints deprecation warnings for some model names.
const messages = (body: Json) => anthropic().post('/v1/messages', { body });

const toolTurn = (id: string, extra: Json = {}) => [
  { role: 'user', content: 'weather?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name: 'w', arguments: '{}' } }],
    ...extra,
  },
  { role: 'tool', tool_call_id: id, content: 'sunny' },
];

describe('OpenAI Chat Completions', () => {
  it('a reasoning model refuses a temperature other than 1, as OpenAI words it', async () => {
    await strict();
    const { status, error } = await refusal(() =>
      chat({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2 }),
    );
    expect(status).toBe(400);
    expect(error).toEqual({
      message:
        "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.",
      type: 'invalid_request_error',
      param: 'temperature',
      code: 'unsupported_value',
    });
    expectRecordedRefusal(400, error.message as string);
    // The default value, and any temperature for other models, pass.
    await chat({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2 });
    expect(server.remaining).toBe(0);
  });

  it('refuses max_tokens and unknown efforts on reasoning models, and overlong tool-call ids', async () => {
    await strict();
    const user = [{ role: 'user', content: 'hi' }];
    const maxTokens = await refusal(() => chat({ model: 'o3', messages: user, max_tokens: 10 }));
    expect(maxTokens.error.message).toBe(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    );
    const effort = await refusal(() =>
      chat({ model: 'gpt-5.1', messages: user, reasoning_effort: 'minimal' }),
    );
    expect(effort.error).toMatchObject({
      message:
        "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values are: 'none', 'low', 'medium', and 'high'.",
      param: 'reasoning_effort',
    });
    const longId = 'call_'.padEnd(44, 'x');
    const id = await refusal(() => chat({ model: 'gpt-4.1', messages: toolTurn(longId) }));
    expect(id.error).toMatchObject({
      message:
        "Invalid 'messages[1].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 44 instead.",
      code: 'string_above_max_length',
    });
  });

  it('refuses a tool message that answers no call, and a call nobody answered', async () => {
    await strict();
    const stray = await refusal(() =>
      chat({ model: 'gpt-4.1', messages: [{ role: 'tool', tool_call_id: 'call_1', content: 'x' }] }),
    );
    expect(stray.error.message).toBe(
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    );
    const unanswered = await refusal(() =>
      chat({
        model: 'gpt-4.1',
        messages: [...toolTurn('call_1').slice(0, 2), { role: 'user', content: 'and?' }],
      }),
    );
    expect(unanswered.error.message).toBe(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1",
    );
  });
});

describe('Mistral, DeepSeek and OpenRouter rules (path prefixes)', () => {
  it('Mistral refuses stream_options with its 422 extra_forbidden body', async () => {
    await strict();
    const sdk = await refusal(() =>
      openai('/mistral').chat.completions.create({
        model: 'mistral-large-latest',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(sdk.status).toBe(422);
    const { status, error } = await rawChat('/mistral', {
      model: 'mistral-large-latest',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(status).toBe(422);
    expect(error).toEqual({
      object: 'error',
      message: {
        detail: [
          {
            type: 'extra_forbidden',
            loc: ['body', 'stream_options'],
            msg: 'Extra inputs are not permitted',
            input: { include_usage: true },
          },
        ],
      },
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
    expect(server.requests.at(-1)).toMatchObject({
      flavour: 'mistral',
      route: 'POST /mistral/v1/chat/completions',
    });
  });

  it('Mistral refuses tool-call ids that are not 9 letters or digits, and a user message right after a tool', async () => {
    await strict();
    const id = await rawChat('/mistral', { model: 'mistral-large-latest', messages: toolTurn('call_abc') });
    expect(id.status).toBe(400);
    expect(id.error).toEqual({
      object: 'error',
      message: 'Tool call id was call_abc but must be a-z, A-Z, 0-9, with a length of 9.',
      type: 'invalid_function_call',
      param: null,
      code: '3280',
    });
    const order = await rawChat('/mistral', {
      model: 'mistral-large-latest',
      messages: [...toolTurn('abcDEF123'), { role: 'user', content: 'go on' }],
    });
    expect(order.error).toMatchObject({
      message: "Unexpected role 'user' after role 'tool'",
      type: 'invalid_request_message_order',
    });
    await chat(
      {
        model: 'mistral-large-latest',
        messages: [
          ...toolTurn('abcDEF123'),
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: 'go on' },
        ],
      },
      '/mistral',
    );
    expect(server.remaining).toBe(0);
  });

  it('DeepSeek thinking models want reasoning_content on every tool-call turn, even empty', async () => {
    await strict();
    const { error } = await refusal(() =>
      chat({ model: 'deepseek-reasoner', messages: toolTurn('call_1') }, '/deepseek'),
    );
    expect(error.message).toBe(
      'Missing `reasoning_content` field in the assistant message at message index 1. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls',
    );
    await chat(
      { model: 'deepseek-reasoner', messages: toolTurn('call_1', { reasoning_content: '' }) },
      '/deepseek',
    );
    expect(server.remaining).toBe(0);
  });

  it('OpenRouter in front of Gemini wants the reasoning_details of the last tool turn back', async () => {
    await strict();
    const { status, error } = await refusal(() =>
      chat({ model: 'google/gemini-3-pro-preview', messages: toolTurn('call_1') }, '/openrouter'),
    );
    expect(status).toBe(400);
    expect(error.message).toBe('Provider returned error');
    const metadata = (error as { metadata: { raw: string; provider_name: string } }).metadata;
    expect(metadata.provider_name).toBe('Google AI Studio');
    expect(metadata.raw).toContain('Function call is missing a thought_signature in functionCall parts.');
    const details = [{ type: 'reasoning.encrypted', data: 'sig', format: 'google-gemini-v1', index: 0 }];
    await chat(
      { model: 'google/gemini-3-pro-preview', messages: toolTurn('call_1', { reasoning_details: details }) },
      '/openrouter',
    );
    expect(server.remaining).toBe(0);
  });
});

describe('OpenAI Responses', () => {
  const reasoningItem = { type: 'reasoning', id: 'rs_1', encrypted_content: 'enc', summary: [] };

  it('refuses reasoning summaries to an unverified organisation, and takes them from a verified one', async () => {
    await strict();
    const { error } = await refusal(() =>
      responses({ model: 'gpt-5-mini', input: 'hi', reasoning: { effort: 'low', summary: 'auto' } }),
    );
    expect(error).toEqual({
      message:
        'Your organization must be verified to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.',
      type: 'invalid_request_error',
      param: 'reasoning.summary',
      code: 'unsupported_value',
    });
    await server.close();
    await strict({ verifiedOrganization: true });
    await responses({ model: 'gpt-5-mini', input: 'hi', reasoning: { effort: 'low', summary: 'auto' } });
    expect(server.remaining).toBe(0);
  });

  it('refuses sampling parameters on reasoning models, except at effort none on gpt-5.1', async () => {
    await strict();
    const { error } = await refusal(() => responses({ model: 'o4-mini', input: 'hi', top_p: 0.5 }));
    expect(error).toMatchObject({
      message: "Unsupported parameter: 'top_p' is not supported with this model.",
      param: 'top_p',
    });
    await responses({ model: 'gpt-5.1', input: 'hi', temperature: 0.3, reasoning: { effort: 'none' } });
    expect(server.remaining).toBe(0);
  });

  it('refuses a reasoning item without its following item, and outputs without calls', async () => {
    await strict();
    const orphan = await refusal(() =>
      responses({
        model: 'gpt-5-mini',
        input: [{ role: 'user', content: 'hi' }, reasoningItem, { role: 'user', content: 'go' }],
      }),
    );
    expect(orphan.error).toMatchObject({
      message: "Item 'rs_1' of type 'reasoning' was provided without its required following item.",
      param: 'input',
    });
    const stray = await refusal(() =>
      responses({
        model: 'gpt-5-mini',
        input: [{ type: 'function_call_output', call_id: 'call_9', output: 'x' }],
      }),
    );
    expect(stray.error.message).toBe('No tool call found for function call output with call_id call_9.');
    await responses({
      model: 'gpt-5-mini',
      input: [
        { role: 'user', content: 'hi' },
        reasoningItem,
        { type: 'function_call', call_id: 'call_1', name: 'w', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    });
    expect(server.remaining).toBe(0);
  });
});

describe('Anthropic Messages', () => {
  const thinking = { type: 'enabled', budget_tokens: 2048 };
  const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'w', input: {} };
  const toolResult = {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }],
  };

  it('with thinking on, a last tool turn must start with a thinking block (the 400 users see after a fallback)', async () => {
    await strict();
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      thinking,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: [toolUse] },
        toolResult,
      ],
    };
    const { status, error } = await refusal(() => messages(body));
    expect(status).toBe(400);
    expect(error).toMatchObject({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
      },
      request_id: expect.stringMatching(/^req_testkit_rejected_/),
    });
    // The same history without thinking, or with a signed thinking block first, passes.
    const { thinking: _, ...withoutThinking } = body;
    await messages(withoutThinking);
    expect(server.remaining).toBe(0);
  });

  it('refuses max_tokens above the model limit, budgets it cannot hold, and invalid or repeated tool ids', async () => {
    await strict();
    const user = [{ role: 'user', content: 'hi' }];
    const limit = await refusal(() =>
      messages({ model: 'claude-sonnet-4-5', max_tokens: 70_000, messages: user }),
    );
    expect((limit.error.error as Json).message).toBe(
      'max_tokens: 70000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5',
    );
    const budget = await refusal(() =>
      messages({ model: 'claude-sonnet-4-5', max_tokens: 2048, thinking, messages: user }),
    );
    expect((budget.error.error as Json).message).toMatch(
      /^`max_tokens` must be greater than `thinking.budget_tokens`/,
    );
    const pattern = await refusal(() =>
      messages({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: [{ ...toolUse, id: 'functions.w:0' }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'functions.w:0', content: 'x' }] },
        ],
      }),
    );
    expect((pattern.error.error as Json).message).toBe(
      "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    );
    const twice = await refusal(() =>
      messages({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: [toolUse] },
          toolResult,
          { role: 'assistant', content: [toolUse] },
          toolResult,
        ],
      }),
    );
    expect((twice.error.error as Json).message).toBe('messages.3.content.0: `tool_use` ids must be unique');
    expect(server.remaining).toBe(1);
  });

  it('refuses more than 4 cache_control breakpoints, counting system, tools, messages and tool results', async () => {
    await strict();
    const mark = { cache_control: { type: 'ephemeral' } };
    const body = () => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'You are terse.', ...mark }],
      tools: [{ name: 'w', input_schema: { type: 'object' }, ...mark }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'weather?' },
            { type: 'text', text: 'summary', ...mark },
          ],
        },
        { role: 'assistant', content: [{ ...toolUse, ...mark }] },
        {
          role: 'user',
          content: [{ ...toolResult.content[0], content: [{ type: 'text', text: 'x', ...mark }] }],
        },
      ],
    });
    const five = await refusal(() => messages(body()));
    expect(five.status).toBe(400);
    expect((five.error.error as Json).message).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
    expectRecordedRefusal(400, 'A maximum of 4 blocks with cache_control may be provided. Found 5.');
    const four: Json = body();
    // The same request with the tool result unmarked: 4 marks, answered.
    (four.messages as Json[])[2] = toolResult;
    await messages(four);
    expect(server.requests.at(-1)?.rejected).toBeUndefined();
    expect(server.remaining).toBe(0);
  });
});

it('without strict mode the same requests are answered', async () => {
  server = await startModelServer({ steps: [{ text: 'ok' }] });
  await chat({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2 });
  expect(server.requests[0]?.rejected).toBeUndefined();
  expect(server.remaining).toBe(0);
});
