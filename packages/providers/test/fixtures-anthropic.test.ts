// Every recorded Anthropic Messages stream (and the non-streamed answers) replayed through the
// official `@anthropic-ai/sdk` into the adapter. Expected values were read off each recording.

import type { ReasoningPart, StopReason, TokenUsage, ToolCall } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import {
  clientFor,
  collect,
  collectError,
  fold,
  matchesText,
  recordingsIn,
  replayServer,
  type TextSpec,
} from './helpers.js';

interface Row {
  file: string;
  model: string;
  text: TextSpec;
  blocks: ReasoningPart[];
  toolCalls: ToolCall[];
  usage: TokenUsage;
  stopReason: StopReason;
  rawStopReason: string;
  responseId: string;
  actualModel?: string;
}

const CLEAR_THINKING_SIGNATURE =
  'EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3B6Ptl3b0dcQv/VeJBNbejNWIWRBn+KPNEgz6HWtKx7p+QRgKsEoaDGjsiqfht7gTRFYHiyIwD1VSmNqHxv3wy8KEMP+LYb/TC4UH3H97tuoaADARFFcA0phdfxnzKQxFnc9lwY+dKlzUsaKSUAFeu1bDL5ikZJ1vL0Fkz6JjoFke0L/wOJRIUDUlDUOFJ1tZ3ea7g6LGE/5hwuvWgLwewdcm64d+43l7F57XrOmqNd6flI2K/oPr/4yzNgvi/EhT6Ca17BgB';

const jsonToolCall: ToolCall = {
  id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
  name: 'json',
  arguments: { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] },
  rawArguments: '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}',
};

// Costs: list prices per million (Sonnet 4.5 $3/$15, Haiku 4.5 $1/$5, Opus 4.5 $5/$25, Haiku 3 $0.25/$1.25).
export const ANTHROPIC_ROWS: Row[] = [
  {
    file: 'anthropic-clear-thinking.1.chunks.txt',
    model: 'claude-sonnet-4-5',
    text: '925 ÷ 5 = 185',
    blocks: [
      {
        text: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
        signature: CLEAR_THINKING_SIGNATURE,
      },
    ],
    toolCalls: [],
    usage: {
      inputTokens: 69,
      outputTokens: 53,
      totalTokens: 122,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.001002,
    },
    stopReason: 'stop',
    rawStopReason: 'end_turn',
    responseId: 'msg_01Y6V41gqPaKWEw7iPouH7iW',
    actualModel: 'claude-sonnet-4-5-20250929',
  },
  {
    file: 'anthropic-clear-tool-uses.1.chunks.txt',
    model: 'claude-haiku-4-5',
    text: {
      length: 440,
      start: "\n\nHere's a comparison of the weather in ",
      end: 'Francisco is the better choice right now.',
    },
    blocks: [],
    toolCalls: [],
    usage: {
      inputTokens: 859,
      outputTokens: 122,
      totalTokens: 981,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.001469,
    },
    stopReason: 'stop',
    rawStopReason: 'end_turn',
    responseId: 'msg_01YJG5jvxYUWfhVa6MSqT6qk',
    actualModel: 'claude-haiku-4-5-20251001',
  },
  {
    file: 'anthropic-json-other-tool.1.chunks.txt',
    model: 'claude-haiku-4-5',
    text: '',
    blocks: [],
    toolCalls: [
      {
        id: 'toolu_019Zvehfe1XQWweT1pm7okyt',
        name: 'weather',
        arguments: { location: 'San Francisco' },
        rawArguments: '{"location": "San Francisco"}',
      },
    ],
    usage: {
      inputTokens: 843,
      outputTokens: 28,
      totalTokens: 871,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.000983,
    },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_use',
    responseId: 'msg_01CD3XaZfhNabxRt1SG5ybtK',
    actualModel: 'claude-haiku-4-5-20251001',
  },
  {
    file: 'anthropic-json-tool.1.chunks.txt',
    model: 'claude-haiku-4-5',
    text: '',
    blocks: [],
    toolCalls: [jsonToolCall],
    usage: {
      inputTokens: 849,
      outputTokens: 47,
      totalTokens: 896,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.001084,
    },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_use',
    responseId: 'msg_01K2JbSUMYhez5RHoK9ZCj9U',
    actualModel: 'claude-haiku-4-5-20251001',
  },
  {
    file: 'anthropic-json-tool.2.chunks.txt',
    model: 'claude-haiku-4-5',
    text: "I'll invoke the JSON response tool.",
    blocks: [],
    toolCalls: [jsonToolCall],
    usage: {
      inputTokens: 849,
      outputTokens: 47,
      totalTokens: 896,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.001084,
    },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_use',
    responseId: 'msg_01K2JbSUMYhez5RHoK9ZCj9U',
    actualModel: 'claude-haiku-4-5-20251001',
  },
  {
    // message_delta reports input_tokens again (61, not 43): the later figure wins.
    file: 'anthropic-message-delta-input-tokens.chunks.txt',
    model: 'claude-opus-4-5',
    text: 'pong',
    blocks: [],
    toolCalls: [],
    usage: { inputTokens: 61, outputTokens: 2, totalTokens: 63, costUsd: 0.000355 },
    stopReason: 'stop',
    rawStopReason: 'end_turn',
    responseId: 'msg_3196a1cc08de4d76b85b8f5777c0d42b',
    actualModel: 'claude-opus-4-5-20251101',
  },
  {
    file: 'anthropic-refusal.chunks.txt',
    model: 'claude-fable-5',
    text: '',
    blocks: [],
    toolCalls: [],
    usage: { inputTokens: 18, outputTokens: 5, totalTokens: 23, cachedTokens: 0, cacheWriteTokens: 0 },
    stopReason: 'refusal',
    rawStopReason: 'refusal',
    responseId: 'msg_01RefusalStreamAbcdefghijk',
  },
  {
    file: 'anthropic-refusal.json',
    model: 'claude-fable-5',
    text: '',
    blocks: [],
    toolCalls: [],
    usage: { inputTokens: 18, outputTokens: 5, totalTokens: 23, cachedTokens: 0, cacheWriteTokens: 0 },
    stopReason: 'refusal',
    rawStopReason: 'refusal',
    responseId: 'msg_01RefusalExampleAbcdefghijk',
  },
  {
    file: 'anthropic-text.chunks.txt',
    model: 'claude-sonnet-4-5',
    text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    blocks: [],
    toolCalls: [],
    usage: {
      inputTokens: 12,
      outputTokens: 30,
      totalTokens: 42,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.000486,
    },
    stopReason: 'stop',
    rawStopReason: 'end_turn',
    responseId: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
    actualModel: 'claude-sonnet-4-5-20250929',
  },
  {
    file: 'anthropic-text.json',
    model: 'claude-sonnet-4-5',
    text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
    blocks: [],
    toolCalls: [],
    usage: {
      inputTokens: 12,
      outputTokens: 29,
      totalTokens: 41,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.000471,
    },
    stopReason: 'stop',
    rawStopReason: 'end_turn',
    responseId: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
    actualModel: 'claude-sonnet-4-5-20250929',
  },
  {
    file: 'anthropic-tool-no-args.chunks.txt',
    model: 'claude-sonnet-4-5',
    text: "I'll update the issue list for you.",
    blocks: [],
    toolCalls: [
      { id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: {}, rawArguments: '' },
    ],
    usage: {
      inputTokens: 565,
      outputTokens: 48,
      totalTokens: 613,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.002415,
    },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_use',
    responseId: 'msg_01GE2RKp1VYsPzdFs3sS9z5S',
    actualModel: 'claude-sonnet-4-5-20250929',
  },
  {
    // A whole message carries the input as an object: no raw string. No list price for Opus 3.
    file: 'anthropic-tool-no-args.json',
    model: 'claude-3-opus',
    text: '<thinking>\nThe updateIssueList tool was provided in the list of available functions. The tool has no required parameters, so it can be called without any additional information needed from the user.\n</thinking>\n\nOkay, I will update the current issue list:',
    blocks: [],
    toolCalls: [{ id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1', name: 'updateIssueList', arguments: {} }],
    usage: { inputTokens: 602, outputTokens: 93, totalTokens: 695, cachedTokens: 0, cacheWriteTokens: 0 },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_use',
    responseId: 'msg_01GCBaV8gyWAYgMVggRqZbuQ',
    actualModel: 'claude-3-opus-20240229',
  },
  {
    // The same message_start twice: the repeat is ignored.
    file: 'duplicate-message-start.chunks.txt',
    model: 'claude-3-haiku',
    text: 'Hello, World!',
    blocks: [],
    toolCalls: [],
    usage: { inputTokens: 17, outputTokens: 227, totalTokens: 244, costUsd: 0.000288 },
    stopReason: 'stop',
    rawStopReason: 'end_turn',
    responseId: 'msg_dup',
    actualModel: 'claude-3-haiku-20240307',
  },
];

describe('anthropic recordings through the Anthropic SDK', () => {
  const server = replayServer();

  it('covers every recording in anthropic/', () => {
    const files = recordingsIn('anthropic');
    expect([...ANTHROPIC_ROWS.map((row) => row.file), 'spliced-message-start.chunks.txt'].sort()).toEqual(
      files,
    );
  });

  it.each(ANTHROPIC_ROWS)('$file', async (row) => {
    server().push({ replay: `anthropic/${row.file}` });
    const client = clientFor(server(), 'anthropic', { model: row.model });
    const stream = !row.file.endsWith('.json');
    const events = await collect(client.stream({ messages: [{ role: 'user', content: 'hi' }], stream }));
    const text = matchesText(events.text, row.text);
    expect(text.actual).toEqual(text.expected);
    expect(events.blocks).toEqual(row.blocks);
    expect(events.toolCalls).toEqual(row.toolCalls);
    expect(events.usage).toEqual(row.usage);
    expect(events.finish).toEqual({
      type: 'finish',
      stopReason: row.stopReason,
      rawStopReason: row.rawStopReason,
      responseId: row.responseId,
      ...(row.actualModel ? { actualModel: row.actualModel } : {}),
    });
  });

  it('spliced-message-start.chunks.txt: a second message inside the first is an invalid response', async () => {
    server().push({ replay: 'anthropic/spliced-message-start.chunks.txt' });
    const client = clientFor(server(), 'anthropic', { model: 'claude-3-haiku' });
    const { error, events } = await collectError(
      client.stream({ messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.kind).toBe('invalid_response');
    expect(error.retryable).toBe(true);
    expect(error.providerMessage).toBe('message msg_second started inside unfinished message msg_first');
    // What came before the splice is the first message's signed thinking; no tool call escapes.
    const seen = fold(events);
    expect(seen.blocks).toEqual([{ text: 'I will call the tool.', signature: 'sig-first' }]);
    expect(seen.toolCalls).toEqual([]);
    expect(seen.finish).toBeUndefined();
  });
});
