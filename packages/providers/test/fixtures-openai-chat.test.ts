// Every recorded Chat Completions stream (and the non-streamed answer) replayed through the
// official `openai` SDK into the adapter. Expected values were read off each recording.

import type { StopReason, TokenUsage, ToolCall } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import type { ProviderType } from '../src/index.js';
import { clientFor, collect, matchesText, recordingsIn, replayServer, type TextSpec } from './helpers.js';

interface Row {
  file: string;
  type: ProviderType;
  model: string;
  text: TextSpec;
  reasoning: TextSpec;
  toolCalls: ToolCall[];
  usage: TokenUsage | undefined;
  stopReason: StopReason;
  rawStopReason: string;
  responseId: string;
  actualModel?: string;
}

const weatherSF = (id: string, raw: string): ToolCall => ({
  id,
  name: 'weather',
  arguments: { location: 'San Francisco' },
  rawArguments: raw,
});

export const CHAT_ROWS: Row[] = [
  {
    file: 'alibaba-reasoning.chunks.txt',
    type: 'openai-compatible',
    model: 'qwen3-max',
    text: { length: 816, start: 'The word **"strawberry"** contains **3**', end: '**Answer: 3**' },
    reasoning: {
      length: 3301,
      start: "We are asked: \"How many 'r's are in the ",
      end: 'So final answer: 3.',
    },
    toolCalls: [],
    usage: { inputTokens: 24, outputTokens: 1355, totalTokens: 1379, cachedTokens: 0, reasoningTokens: 1084 },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: 'chatcmpl-3792851e-8f1b-9182-a1dc-b84603c81344',
  },
  {
    file: 'alibaba-tool-call.chunks.txt',
    type: 'openai-compatible',
    model: 'qwen3-max',
    text: '',
    reasoning: '',
    toolCalls: [weatherSF('call_eee11723464a4b9eb8cee71d', '{"location": "San Francisco"}')],
    usage: { inputTokens: 295, outputTokens: 22, totalTokens: 317, cachedTokens: 0 },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_calls',
    responseId: 'chatcmpl-8e243c57-23b3-9db2-a02e-e3c53929c368',
  },
  {
    file: 'anthropic-fallback-tool-call.sse',
    type: 'openai-compatible',
    model: 'claude-haiku-4-5-20251001',
    text: 'Reading it.',
    reasoning: '',
    toolCalls: [
      {
        id: 'toolu_sanitized',
        name: 'read_file',
        arguments: { path: 'a.txt' },
        rawArguments: '{"path": "a.txt"}',
      },
    ],
    usage: undefined,
    stopReason: 'tool_calls',
    rawStopReason: 'tool_calls',
    responseId: 'msg_sanitized',
  },
  {
    file: 'azure-model-router.1.chunks.txt',
    type: 'openai',
    model: 'model-router',
    text: 'Capital of Denmark.',
    reasoning: '',
    toolCalls: [],
    usage: { inputTokens: 15, outputTokens: 78, totalTokens: 93, cachedTokens: 0, reasoningTokens: 64 },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt',
    actualModel: 'gpt-5-nano-2025-08-07',
  },
  {
    file: 'deepseek-reasoning.chunks.txt',
    type: 'openai-compatible',
    model: 'deepseek-reasoner',
    text: 'The word "strawberry" contains three "r"s.',
    reasoning: {
      length: 606,
      start: 'We need to count the number of the lette',
      end: 'Thus, the answer is 3.',
    },
    toolCalls: [],
    usage: { inputTokens: 18, outputTokens: 219, totalTokens: 237, cachedTokens: 0, reasoningTokens: 205 },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: 'cac7192e-e619-40c6-96b0-ed4276bc03ac',
  },
  {
    file: 'deepseek-text.chunks.txt',
    type: 'openai-compatible',
    model: 'deepseek-chat',
    text: {
      length: 1855,
      start: '## **Holiday Name:** Starlight Remembran',
      end: 'observe 15 minutes of silent looking at',
    },
    reasoning: '',
    toolCalls: [],
    usage: { inputTokens: 13, outputTokens: 400, totalTokens: 413, cachedTokens: 0 },
    stopReason: 'length',
    rawStopReason: 'length',
    responseId: 'f6117a0b-129d-46fa-b239-78f01c2c5df9',
  },
  {
    file: 'deepseek-tool-call.chunks.txt',
    type: 'openai-compatible',
    model: 'deepseek-reasoner',
    text: '',
    reasoning: {
      length: 191,
      start: 'The user is asking for the weather in Sa',
      end: 'parameter set to "San Francisco".',
    },
    toolCalls: [weatherSF('call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', '{"location": "San Francisco"}')],
    usage: { inputTokens: 339, outputTokens: 83, totalTokens: 422, cachedTokens: 320, reasoningTokens: 39 },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_calls',
    responseId: 'cca85624-4056-401f-b220-d77601d1f70d',
  },
  {
    file: 'groq-reasoning.chunks.txt',
    type: 'openai-compatible',
    model: 'qwen/qwen3-32b',
    text: {
      length: 347,
      start: 'The word **"strawberry"** is spelled as ',
      end: '**Final Answer**: $\\boxed{3}$',
    },
    reasoning: {
      length: 2952,
      start: 'Okay, let me try to figure out how many ',
      end: 'in "strawberry" is three.\n',
    },
    toolCalls: [],
    usage: { inputTokens: 17, outputTokens: 1107, totalTokens: 1124, reasoningTokens: 963 },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: 'chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f',
  },
  {
    file: 'groq-text.chunks.txt',
    type: 'openai-compatible',
    model: 'llama-3.3-70b-versatile',
    text: {
      length: 3189,
      start: 'Introducing "Luminaria" - a new holiday ',
      end: 'appreciation for the magic of light.',
    },
    reasoning: '',
    toolCalls: [],
    usage: { inputTokens: 45, outputTokens: 662, totalTokens: 707 },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: 'chatcmpl-7eb08824-fb8d-47af-a1f0-3aa786f2d1f3',
  },
  {
    file: 'groq-tool-call.chunks.txt',
    type: 'openai-compatible',
    model: 'llama-3.3-70b-versatile',
    text: '',
    reasoning: '',
    toolCalls: [{ id: 'tk85n1k4m', name: 'weather', arguments: {}, rawArguments: '{}' }],
    usage: { inputTokens: 210, outputTokens: 15, totalTokens: 225 },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_calls',
    responseId: 'chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f',
  },
  {
    file: 'mistral-incremental-tool-call.chunks.txt',
    type: 'openai-compatible',
    model: 'zai-glm-5-2',
    text: '',
    reasoning: '',
    toolCalls: [
      {
        id: 'chatcmpl-tool-9f149c74c42f265b',
        name: 'webSearchTool',
        arguments: { query: 'current Berlin weather' },
        rawArguments: '{"query": "current Berlin weather"}',
      },
    ],
    usage: { inputTokens: 171, outputTokens: 14, totalTokens: 185, cachedTokens: 128 },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_calls',
    responseId: '735e434874a24f68a2390b3cab149242',
  },
  {
    file: 'mistral-reasoning.chunks.txt',
    type: 'openai-compatible',
    model: 'magistral-medium-2507',
    text: '2 + 2 = 4',
    reasoning: 'The user is asking for 2+2. This is basic arithmetic. 2+2=4.',
    toolCalls: [],
    usage: { inputTokens: 10, outputTokens: 46, totalTokens: 56 },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: 'a4e29c5b82f94d67b23e108a7c9df6e1',
  },
  {
    file: 'mistral-tool-call.chunks.txt',
    type: 'openai-compatible',
    model: 'mistral-small-latest',
    text: '',
    reasoning: '',
    toolCalls: [weatherSF('gSIMJiOkT', '{"location": "San Francisco"}')],
    usage: { inputTokens: 124, outputTokens: 22, totalTokens: 146 },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_calls',
    responseId: 'b3999b8c93e04e11bcbff7bcab829667',
  },
  {
    file: 'moonshotai-stream.chunks.txt',
    type: 'openai-compatible',
    model: 'kimi-k3',
    text: 'Hello!',
    reasoning: 'Thinking aloud. ',
    toolCalls: [],
    usage: { inputTokens: 9, outputTokens: 12, totalTokens: 21, reasoningTokens: 7 },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: 'chatcmpl-stream',
  },
  {
    file: 'openai-text.chunks.txt',
    type: 'openai',
    model: 'gpt-4.1-nano',
    text: {
      length: 1724,
      start: '**Holiday Name:** Harmony Day\n\n**Date:**',
      end: 'human experiences and mutual respect.',
    },
    reasoning: '',
    toolCalls: [],
    // List price of gpt-4.1-nano: 16 x $0.10 + 300 x $0.40 per million.
    usage: {
      inputTokens: 16,
      outputTokens: 300,
      totalTokens: 316,
      cachedTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.0001216,
    },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0',
    actualModel: 'gpt-4.1-nano-2025-04-14',
  },
  {
    file: 'openai-text.json',
    type: 'openai',
    model: 'gpt-4.1-nano',
    text: {
      length: 1842,
      start: '**Holiday Name:** Galaxy Day  \n\n**Date:*',
      end: 'to look up and dream beyond our world.',
    },
    reasoning: '',
    toolCalls: [],
    usage: {
      inputTokens: 16,
      outputTokens: 363,
      totalTokens: 379,
      cachedTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.0001468,
    },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: 'chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU',
    actualModel: 'gpt-4.1-nano-2025-04-14',
  },
  {
    file: 'xai-text.chunks.txt',
    type: 'openai-compatible',
    model: 'grok-3-mini',
    text: 'Hello',
    reasoning: 'First, the user said',
    toolCalls: [],
    // xAI counts the 290 reasoning tokens outside completion_tokens (1); cost in 1e-10 USD ticks.
    usage: {
      inputTokens: 12,
      outputTokens: 291,
      totalTokens: 303,
      cachedTokens: 11,
      reasoningTokens: 290,
      costUsd: 0.000146625,
    },
    stopReason: 'stop',
    rawStopReason: 'stop',
    responseId: '7327b9f5-1c2f-0a15-3fef-c14a71c460d3',
  },
  {
    file: 'xai-tool-call.chunks.txt',
    type: 'openai-compatible',
    model: 'grok-3-mini',
    text: '',
    reasoning: 'First, the user is',
    toolCalls: [weatherSF('call_55117580', '{"location":"San Francisco"}')],
    usage: {
      inputTokens: 291,
      outputTokens: 222,
      totalTokens: 513,
      cachedTokens: 290,
      reasoningTokens: 196,
      costUsd: 0.00013305,
    },
    stopReason: 'tool_calls',
    rawStopReason: 'tool_calls',
    responseId: 'de9d896d-e946-b3a7-bb14-75ab33326930',
  },
];

describe('openai-chat recordings through the openai SDK', () => {
  const server = replayServer();

  it('covers every recording in openai-chat/', () => {
    const files = recordingsIn('openai-chat');
    expect(CHAT_ROWS.map((row) => row.file).sort()).toEqual(files);
  });

  it.each(CHAT_ROWS)('$file', async (row) => {
    server().push({ replay: `openai-chat/${row.file}` });
    const client = clientFor(server(), row.type, { model: row.model });
    const stream = !row.file.endsWith('.json');
    const events = await collect(client.stream({ messages: [{ role: 'user', content: 'hi' }], stream }));
    const text = matchesText(events.text, row.text);
    expect(text.actual).toEqual(text.expected);
    const reasoning = matchesText(events.reasoning, row.reasoning);
    expect(reasoning.actual).toEqual(reasoning.expected);
    expect(events.toolCalls).toEqual(row.toolCalls);
    expect(events.usage).toEqual(row.usage);
    expect(events.finish).toEqual({
      type: 'finish',
      stopReason: row.stopReason,
      rawStopReason: row.rawStopReason,
      responseId: row.responseId,
      ...(row.actualModel ? { actualModel: row.actualModel } : {}),
    });
    const last = server().requests[server().requests.length - 1];
    expect((last?.body as { stream?: boolean } | undefined)?.stream).toBe(stream);
  });
});
