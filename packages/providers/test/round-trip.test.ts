// What one call yields is what the next call sends back: signed thinking (Anthropic), encrypted
// reasoning items (Responses), reasoning_content (DeepSeek-style servers). And a non-streamed
// call yields the same answer as a streamed one.
import type { AssistantMessage, ConversationMessage, ModelRequest } from '@agent/protocol';
import { type ModelServer, type ScriptedAnswer, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderType } from '../src/index.js';
import { type Collected, clientFor, collect, FIXTURES_DIR, WIRE_TYPES } from './helpers.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ fixturesDir: FIXTURES_DIR, strict: true });
});
afterAll(() => server.close());

const tools = [{ name: 'calculator', description: 'Arithmetic', inputSchema: { type: 'object' } }];

/** The assistant message the session would append after a call. */
function assistantOf(answer: Collected): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', content: answer.text };
  if (answer.blocks.length > 0) message.reasoning = answer.blocks;
  if (answer.toolCalls.length > 0) message.toolCalls = answer.toolCalls;
  return message;
}

async function twoTurns(type: ProviderType, first: ScriptedAnswer, overrides = {}) {
  server.push(first, { text: 'done' });
  const client = clientFor(server, type, overrides);
  const messages: ConversationMessage[] = [{ role: 'user', content: 'Compute 12 + 7' }];
  const answer = await collect(client.stream({ messages, tools, reasoning: { effort: 'high' } }));
  messages.push(assistantOf(answer));
  for (const call of answer.toolCalls) {
    messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: '19' });
  }
  const before = server.requests.length;
  await collect(client.stream({ messages, tools, reasoning: { effort: 'high' } }));
  return { answer, body: server.requests[before]?.body as Record<string, unknown> };
}

describe('reasoning goes back on the next turn', () => {
  it('anthropic: the signed thinking block opens the assistant turn, unchanged', async () => {
    const { answer, body } = await twoTurns('anthropic', {
      reasoning: { text: ['I should ', 'use the calculator.'], signature: 'EqQBCkgIARABGAIiQL-signed' },
      toolCalls: [{ id: 'toolu_1', name: 'calculator', arguments: { a: 12, b: 7 } }],
    });
    expect(answer.blocks).toEqual([
      { text: 'I should use the calculator.', signature: 'EqQBCkgIARABGAIiQL-signed' },
    ]);
    const messages = body.messages as { role: string; content: { type: string }[] }[];
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'I should use the calculator.', signature: 'EqQBCkgIARABGAIiQL-signed' },
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'calculator',
        input: { a: 12, b: 7 },
      },
    ]);
    // The tool result ends the history: the cache mark goes there.
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '19', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('openai-responses: the recorded reasoning item (id + encrypted content) precedes its function call', async () => {
    const { answer, body } = await twoTurns('openai-responses', {
      replay: 'openai-responses/openai-reasoning-encrypted-content.1.chunks.txt',
    });
    const encrypted = answer.blocks[0]?.providerData?.encryptedContent;
    expect(typeof encrypted).toBe('string');
    const input = body.input as Record<string, unknown>[];
    expect(input.slice(1)).toEqual([
      {
        type: 'reasoning',
        id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
        encrypted_content: encrypted,
        summary: [{ type: 'summary_text', text: answer.reasoning }],
      },
      {
        type: 'function_call',
        call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
        name: 'calculator',
        arguments: '{"a":12,"b":7,"op":"add"}',
      },
      { type: 'function_call_output', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', output: '19' },
    ]);
    expect(body.include).toEqual(['reasoning.encrypted_content']);
  });

  it('openai-compatible: DeepSeek reasoning_content goes back when configured', async () => {
    const { answer, body } = await twoTurns(
      'openai-compatible',
      { replay: 'openai-chat/deepseek-tool-call.chunks.txt' },
      { chatReasoningField: 'reasoning_content' },
    );
    const messages = body.messages as Record<string, unknown>[];
    expect(messages[1]).toMatchObject({
      role: 'assistant',
      content: null,
      reasoning_content: answer.reasoning,
      tool_calls: [
        {
          id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
          type: 'function',
          function: { name: 'weather', arguments: '{"location": "San Francisco"}' },
        },
      ],
    });
  });
});

describe('a non-streamed call yields what a streamed one does', () => {
  const answer: ScriptedAnswer = {
    text: ['The answer ', 'is 19.'],
    reasoning: { text: ['Adding ', 'twelve and seven.'], signature: 'sig-parity' },
    toolCalls: [{ id: 'call_parity', name: 'calculator', arguments: { a: 12, b: 7 } }],
    usage: { inputTokens: 120, outputTokens: 30, cachedTokens: 100, reasoningTokens: 10, totalTokens: 150 },
  };
  const request: ModelRequest = { messages: [{ role: 'user', content: 'Compute' }], tools };

  it.each(WIRE_TYPES)('%s', async (type) => {
    server.push(answer, answer);
    const client = clientFor(server, type, { model: 'custom-model' });
    const streamed = await collect(client.stream(request));
    const whole = await collect(client.stream({ ...request, stream: false }));
    const summary = (c: Collected) => ({
      text: c.text,
      reasoning: c.reasoning,
      toolCalls: c.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
      usage: c.usage,
      stopReason: c.finish?.stopReason,
    });
    expect(summary(streamed)).toEqual(summary(whole));
    expect(summary(streamed)).toMatchObject({
      text: 'The answer is 19.',
      reasoning: 'Adding twelve and seven.',
      toolCalls: [{ id: 'call_parity', name: 'calculator', arguments: { a: 12, b: 7 } }],
      usage: { inputTokens: 120, outputTokens: 30, cachedTokens: 100, totalTokens: 150 },
      stopReason: 'tool_calls',
    });
    // A streamed answer had more than one delta; the whole one has them at once.
    expect(streamed.events.length).toBeGreaterThan(whole.events.length);
  });
});
