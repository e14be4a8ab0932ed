// Every recorded Responses API stream (and the non-streamed answer) replayed through the official
// `openai` SDK into the adapter. Expected values were read off each recording.

import type { ModelErrorKind, ReasoningPart, StopReason, TokenUsage, ToolCall } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import {
  clientFor,
  collect,
  collectError,
  matchesText,
  recordingsIn,
  replayServer,
  type TextSpec,
} from './helpers.js';

interface Row {
  file: string;
  model: string;
  text: TextSpec;
  reasoning: TextSpec;
  /** Reasoning blocks without their text (checked above): what the next turn must send back. */
  blocks: Omit<ReasoningPart, 'text'>[];
  toolCalls: ToolCall[];
  usage: TokenUsage;
  stopReason: StopReason;
  rawStopReason: string;
  responseId: string;
  actualModel?: string;
}

const encrypted = (start: string, length: number) =>
  expect.stringMatching(new RegExp(`^${start}[A-Za-z0-9_=-]{${length - start.length}}$`));

export const RESPONSES_ROWS: Row[] = [
  {
    file: 'azure-text.1.chunks.txt',
    model: 'gpt-5.1',
    text: 'Hello',
    reasoning: '',
    blocks: [],
    toolCalls: [],
    // List price of gpt-5.1: 11 x $1.25 + 11 x $10 per million.
    usage: {
      inputTokens: 11,
      outputTokens: 11,
      totalTokens: 22,
      cachedTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.00012375,
    },
    stopReason: 'stop',
    rawStopReason: 'completed',
    responseId: 'resp_02ce8deeb6197db200698c5196e9588197a572bbea62d38cd1',
  },
  {
    file: 'azure-tool-call.1.chunks.txt',
    model: 'gpt-5.1',
    text: '',
    reasoning: '',
    blocks: [],
    toolCalls: [
      {
        id: 'call_H5DxLSFnsGhiROnUiDHmgyc8',
        name: 'weather',
        arguments: { location: 'San Francisco' },
        rawArguments: '{"location":"San Francisco"}',
      },
    ],
    usage: {
      inputTokens: 45,
      outputTokens: 24,
      totalTokens: 69,
      cachedTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.00029625,
    },
    stopReason: 'tool_calls',
    rawStopReason: 'completed',
    responseId: 'resp_04041325ab8ae30400698c519fb7fc81979972618138fc336d',
  },
  {
    file: 'lmstudio-basic.1.chunks.txt',
    model: 'gemma-7b-it',
    text: {
      length: 1384,
      start: '## The Festival of Whispering Leaves (Fe',
      end: 'roots through storytelling around fire',
    },
    reasoning: '',
    blocks: [],
    toolCalls: [],
    // No list price for a local model: cost absent, not zero.
    usage: { inputTokens: 31, outputTokens: 282, totalTokens: 313, cachedTokens: 30, reasoningTokens: 0 },
    stopReason: 'stop',
    rawStopReason: 'completed',
    responseId: 'resp_604f426346767f2cd7f98c793d9cfd27cba9ef834509019c',
  },
  {
    // The recording holds four responses of a tool loop back to back; one call reads the first
    // and stops at its response.completed.
    file: 'openai-reasoning-encrypted-content.1.chunks.txt',
    model: 'gpt-5.1-codex-max',
    text: '',
    reasoning:
      "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
    blocks: [
      {
        providerData: {
          api: 'openai-responses',
          itemId: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
          encryptedContent: encrypted('gAAAAABpPDIVOKrs', 1060),
          after: 'start',
        },
      },
    ],
    toolCalls: [
      {
        id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
        name: 'calculator',
        arguments: { a: 12, b: 7, op: 'add' },
        rawArguments: '{"a":12,"b":7,"op":"add"}',
      },
    ],
    usage: { inputTokens: 134, outputTokens: 28, totalTokens: 162, cachedTokens: 0, reasoningTokens: 0 },
    stopReason: 'tool_calls',
    rawStopReason: 'completed',
    responseId: 'resp_01830d662ab3856501693c321345c88190b0de00f3b9975691',
  },
  {
    file: 'openai-reasoning-encrypted-content.1.json',
    model: 'gpt-5-mini',
    text: '12 + 7 = 19\n19 × 3 = 57\n57 × 10 = 570\n\nFinal result: 570',
    reasoning: {
      length: 399,
      start: '**Reporting final result**\n\nThe tool ret',
      end: "without heavy formatting. Let's finalize that!",
    },
    blocks: [
      {
        providerData: {
          api: 'openai-responses',
          itemId: 'rs_0f35ed53160b395301693cc95817ac8190b978637daea4987e',
          encryptedContent: encrypted('gAAAAABpPMlcH0HH', 1572),
          after: 'start',
        },
      },
    ],
    toolCalls: [],
    // gpt-5-mini list price: 865 x $0.25 + 163 x $2 per million.
    usage: {
      inputTokens: 865,
      outputTokens: 163,
      totalTokens: 1028,
      cachedTokens: 0,
      reasoningTokens: 128,
      costUsd: 0.00054225,
    },
    stopReason: 'stop',
    rawStopReason: 'completed',
    responseId: 'resp_0f35ed53160b395301693cc957829881909359e7f80cdd20b5',
    actualModel: 'gpt-5-mini-2025-08-07',
  },
  {
    file: 'xai-text-with-reasoning-streaming.1.chunks.txt',
    model: 'grok-code-fast-1',
    text: {
      length: 2849,
      start: '### Overview of Sonoran Cuisine\nSonoran ',
      end: 'trucks in Tucson or markets in Hermosillo.',
    },
    reasoning: {
      length: 766,
      start: 'First, the question is: "What is specifi',
      end: 'organize notable features systematically.',
    },
    // xAI sends no encrypted content: the block is closed, but there is nothing to replay.
    blocks: [
      {
        providerData: {
          api: 'openai-responses',
          itemId: 'rs_bf3b2b34-79d4-a45c-7be8-d1e5f96386c2',
          after: 'start',
        },
      },
    ],
    toolCalls: [],
    usage: {
      inputTokens: 216,
      outputTokens: 923,
      totalTokens: 1139,
      cachedTokens: 192,
      reasoningTokens: 323,
    },
    stopReason: 'stop',
    rawStopReason: 'completed',
    responseId: 'bf3b2b34-79d4-a45c-7be8-d1e5f96386c2',
  },
];

interface ErrorRow {
  file: string;
  kind: ModelErrorKind;
  retryable: boolean;
  providerMessage: RegExp;
}

export const RESPONSES_ERROR_ROWS: ErrorRow[] = [
  {
    // An `error` event after response.created, then response.failed.
    file: 'openai-error.1.chunks.txt',
    kind: 'quota',
    retryable: false,
    providerMessage: /^You exceeded your current quota, please check your plan and billing details\./,
  },
  {
    // Lines 1 and 6 of this recording are not valid JSON (truncated objects): the SDK cannot
    // read the first event, which is an invalid response, not a crash or a silent success.
    file: 'parallel-tool-call-wrapper.1.chunks.txt',
    kind: 'invalid_response',
    retryable: true,
    providerMessage: /^unreadable stream data: /,
  },
];

describe('openai-responses recordings through the openai SDK', () => {
  const server = replayServer();

  it('covers every recording in openai-responses/', () => {
    const files = recordingsIn('openai-responses');
    expect([...RESPONSES_ROWS, ...RESPONSES_ERROR_ROWS].map((row) => row.file).sort()).toEqual(files);
  });

  it.each(RESPONSES_ROWS)('$file', async (row) => {
    server().push({ replay: `openai-responses/${row.file}` });
    const client = clientFor(server(), 'openai-responses', { model: row.model });
    const stream = !row.file.endsWith('.json');
    const events = await collect(client.stream({ messages: [{ role: 'user', content: 'hi' }], stream }));
    const text = matchesText(events.text, row.text);
    expect(text.actual).toEqual(text.expected);
    const reasoning = matchesText(events.reasoning, row.reasoning);
    expect(reasoning.actual).toEqual(reasoning.expected);
    expect(events.blocks.map(({ text: _, ...rest }) => rest)).toEqual(row.blocks);
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

  it.each(RESPONSES_ERROR_ROWS)('$file fails with $kind', async (row) => {
    server().push({ replay: `openai-responses/${row.file}` });
    const client = clientFor(server(), 'openai-responses', { model: 'gpt-5-nano' });
    const { error, events } = await collectError(
      client.stream({ messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.kind).toBe(row.kind);
    expect(error.retryable).toBe(row.retryable);
    expect(error.providerMessage).toMatch(row.providerMessage);
    expect(error.provider).toBe('openai-responses');
    expect(error.model).toBe('gpt-5-nano');
    expect(events.filter((e) => e.type === 'finish')).toEqual([]);
  });
});
