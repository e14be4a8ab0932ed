// The stream mappers on event sequences the testkit does not script: the parallel-call wrapper,
// redacted thinking, multi-part reasoning summaries, failed and cut streams.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelStreamEvent, ToolCall } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { AnthropicStreamMapper } from '../src/anthropic/stream.js';
import { StreamFailure } from '../src/errors.js';
import { ChatStreamMapper } from '../src/openai-chat/stream.js';
import { type ResponsesEvent, ResponsesStreamMapper } from '../src/openai-responses/stream.js';
import { expandParallelWrapper } from '../src/parallel-wrapper.js';
import { FIXTURES_DIR, fold } from './helpers.js';

function run<C>(
  mapper: { handle(c: C, out: ModelStreamEvent[]): void; finish(out: ModelStreamEvent[]): void },
  chunks: C[],
) {
  const out: ModelStreamEvent[] = [];
  for (const chunk of chunks) mapper.handle(chunk, out);
  mapper.finish(out);
  return fold(out);
}

describe('the parallel-call wrapper', () => {
  const declared = new Set(['weather', 'cityAttractions']);

  it('expands the recorded wrapper call (the readable events of the recording) into the declared calls', () => {
    // Lines 2-5 of the recording are valid JSON (1 and 6 are truncated); a completion closes it.
    const lines = readFileSync(
      join(FIXTURES_DIR, 'openai-responses/parallel-tool-call-wrapper.1.chunks.txt'),
      'utf8',
    )
      .split('\n')
      .slice(1, 5);
    const events = lines.map((line) => JSON.parse(line) as ResponsesEvent);
    events.push({
      type: 'response.completed',
      response: { id: 'resp_parallel', status: 'completed', model: 'gpt-5.4' },
    });
    const result = run(new ResponsesStreamMapper('gpt-5.4', declared), events);
    expect(result.toolCalls).toEqual([
      {
        id: 'call_parallel_0',
        name: 'weather',
        arguments: { location: 'San Francisco' },
        rawArguments: '{"location":"San Francisco"}',
      },
      {
        id: 'call_parallel_1',
        name: 'cityAttractions',
        arguments: { city: 'Rome' },
        rawArguments: '{"city":"Rome"}',
      },
    ]);
    expect(result.finish?.stopReason).toBe('tool_calls');
  });

  const wrapper: ToolCall = {
    id: 'c',
    name: 'multi_tool_use.parallel',
    arguments: { tool_uses: [{ recipient_name: 'functions.weather', parameters: { location: 'Oslo' } }] },
  };

  it('keeps the call when the wrapper is a declared tool or wraps an undeclared one', () => {
    expect(expandParallelWrapper(wrapper, new Set(['weather']))).toEqual([
      { id: 'c_0', name: 'weather', arguments: { location: 'Oslo' }, rawArguments: '{"location":"Oslo"}' },
    ]);
    expect(expandParallelWrapper(wrapper, new Set(['weather', 'multi_tool_use.parallel']))).toEqual([
      wrapper,
    ]);
    expect(expandParallelWrapper(wrapper, new Set(['time']))).toEqual([wrapper]);
  });

  it('is expanded in Chat Completions answers too', () => {
    const result = run(new ChatStreamMapper('gpt-4o', true, new Set(['weather'])), [
      {
        choices: [
          {
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: 'w',
                  function: { name: 'multi_tool_use.parallel', arguments: JSON.stringify(wrapper.arguments) },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
    ]);
    expect(result.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['w_0', 'weather', { location: 'Oslo' }],
    ]);
  });
});

describe('ChatStreamMapper', () => {
  it('a server that says stop after calling tools gets tool_calls', () => {
    const result = run(new ChatStreamMapper('m', true), [
      {
        choices: [
          { delta: { tool_calls: [{ index: 0, id: 't', function: { name: 'f', arguments: '{}' } }] } },
        ],
      },
      { choices: [{ delta: {}, finish_reason: 'stop' }] },
    ]);
    expect(result.finish).toMatchObject({ stopReason: 'tool_calls', rawStopReason: 'stop' });
  });

  it('a stream that ends without a finish_reason was cut', () => {
    expect(() =>
      run(new ChatStreamMapper('m', true), [{ choices: [{ delta: { content: 'Hel' } }] }]),
    ).toThrow(StreamFailure);
  });

  it('reports an OpenRouter routing: provider and model that answered', () => {
    const result = run(new ChatStreamMapper('openrouter/auto', true), [
      {
        id: 'gen-1',
        model: 'anthropic/claude-sonnet-4.5',
        provider: 'Anthropic',
        choices: [{ delta: { content: 'x' }, finish_reason: 'stop' }],
      },
    ]);
    expect(result.finish).toMatchObject({
      actualProvider: 'Anthropic',
      actualModel: 'anthropic/claude-sonnet-4.5',
      responseId: 'gen-1',
    });
  });
});

describe('AnthropicStreamMapper', () => {
  it('redacted thinking closes its own block with the data to send back', () => {
    const result = run(new AnthropicStreamMapper('claude'), [
      {
        type: 'message_start',
        message: { id: 'm', model: 'claude', usage: { input_tokens: 5, output_tokens: 1 } },
      },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy' },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'pause_turn' },
        usage: { output_tokens: 9, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 },
      },
      { type: 'message_stop' },
    ]);
    expect(result.blocks).toEqual([{ text: '', redactedData: 'EmwKAhgBEgy' }]);
    expect(result.text).toBe('Hi');
    expect(result.finish).toMatchObject({ stopReason: 'other', rawStopReason: 'pause_turn' });
    // input_tokens excludes cache reads and writes; the protocol's inputTokens includes them.
    expect(result.usage).toEqual({
      inputTokens: 125,
      outputTokens: 9,
      totalTokens: 134,
      cachedTokens: 100,
      cacheWriteTokens: 20,
    });
  });

  it('a stream that ends before message_stop was cut', () => {
    const mapper = new AnthropicStreamMapper('claude');
    expect(() => run(mapper, [{ type: 'message_start', message: { id: 'm' } }])).toThrow(StreamFailure);
  });
});

describe('ResponsesStreamMapper', () => {
  it('joins reasoning summary parts as paragraphs of one block', () => {
    const result = run(new ResponsesStreamMapper('o4-mini', new Set()), [
      { type: 'response.output_item.added', item: { id: 'rs', type: 'reasoning' } },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs', summary_index: 0, delta: 'First.' },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs', summary_index: 1, delta: 'Second.' },
      { type: 'response.output_item.done', item: { id: 'rs', type: 'reasoning', encrypted_content: 'enc' } },
      {
        type: 'response.incomplete',
        response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      },
    ]);
    expect(result.blocks).toEqual([
      {
        text: 'First.\n\nSecond.',
        providerData: { api: 'openai-responses', itemId: 'rs', encryptedContent: 'enc', after: 'start' },
      },
    ]);
    expect(result.finish).toMatchObject({ stopReason: 'length', rawStopReason: 'max_output_tokens' });
  });

  it('response.failed and a top-level error event carry the provider code', () => {
    const failed = () =>
      run(new ResponsesStreamMapper('m', new Set()), [
        { type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } },
      ]);
    expect(failed).toThrow(StreamFailure);
    try {
      failed();
    } catch (error) {
      expect((error as StreamFailure).facts).toEqual({ code: 'server_error', message: 'boom' });
    }
    const errorEvent = () =>
      run(new ResponsesStreamMapper('m', new Set()), [
        { type: 'error', code: 'rate_limit_exceeded', message: 'slow down' },
      ]);
    expect(errorEvent).toThrow('slow down');
  });

  it('ignores everything after the terminal event', () => {
    const mapper = new ResponsesStreamMapper('m', new Set());
    const out: ModelStreamEvent[] = [];
    mapper.handle({ type: 'response.completed', response: { status: 'completed' } }, out);
    expect(mapper.done).toBe(true);
    mapper.handle({ type: 'response.output_text.delta', delta: 'late' }, out);
    expect(out).toEqual([]);
  });
});
