// Strict mode through the official SDKs: each documented rule answers a breaking request with
// the status, type and message the real API sends, uses no step, and lets a valid request through.
import { describe, expect, it } from 'vitest';
import {
  chat,
  expectRecordedRefusal,
  type Json,
  lenient,
  messages,
  openai,
  rawChat,
  refusal,
  responses,
  server,
  strict,
  toolTurn,
} from './strict-server.js';

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
    expect(server().remaining).toBe(0);
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
    expect(server().requests.at(-1)).toMatchObject({
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
    expect(server().remaining).toBe(0);
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
    expect(server().remaining).toBe(0);
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
    expect(server().remaining).toBe(0);
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
    await server().close();
    await strict({ verifiedOrganization: true });
    await responses({ model: 'gpt-5-mini', input: 'hi', reasoning: { effort: 'low', summary: 'auto' } });
    expect(server().remaining).toBe(0);
  });

  it('refuses sampling parameters on reasoning models, except at effort none on gpt-5.1', async () => {
    await strict();
    const { error } = await refusal(() => responses({ model: 'o4-mini', input: 'hi', top_p: 0.5 }));
    expect(error).toMatchObject({
      message: "Unsupported parameter: 'top_p' is not supported with this model.",
      param: 'top_p',
    });
    await responses({ model: 'gpt-5.1', input: 'hi', temperature: 0.3, reasoning: { effort: 'none' } });
    expect(server().remaining).toBe(0);
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
    expect(server().remaining).toBe(0);
  });
});

it('without strict mode the same requests are answered', async () => {
  await lenient();
  await chat({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2 });
  expect(server().requests[0]?.rejected).toBeUndefined();
  expect(server().remaining).toBe(0);
});
