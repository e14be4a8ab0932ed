// Issue 39: a compaction's summary message carries `cacheBreakpoint`; Anthropic gets a
// `cache_control` mark after it (within its limit of 4 per request), so the prefix up to the
// summary stays cached between compactions. The OpenAI shapes ignore the flag.
import type { ConversationMessage, ModelRequest, ToolDefinition } from '@agent/protocol';
import { type ModelServer, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelClientConfig, ProviderType } from '../src/index.js';
import { clientFor, collect } from './helpers.js';

const SUMMARY =
  '[Context compacted] Turns 1–6 of this session were replaced by this summary to keep the context window free. ' +
  'The full transcript is stored: call tool_output with handle "0f8fad5b-d9cb-469f-a165-70867728950e" and say what to extract.\n\n' +
  'The export fails on a disk quota on /var/export; the volume is 98% full.';

const tools: ToolDefinition[] = [
  {
    name: 'shell',
    description: 'Run a shell command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
  {
    name: 'tool_output',
    description: 'Extract from a stored output',
    inputSchema: { type: 'object', properties: { handle: { type: 'string' } } },
  },
];

/** Turn `n`: the model runs a command, the tool answers. */
function turn(n: number): ConversationMessage[] {
  return [
    {
      role: 'assistant',
      content: `Step ${n}.`,
      toolCalls: [{ id: `call_${n}`, name: 'shell', arguments: { command: `df -h # ${n}` } }],
    },
    { role: 'tool', toolCallId: `call_${n}`, toolName: 'shell', content: `/var/export 98% (${n})` },
  ];
}

const compacted: ConversationMessage[] = [
  { role: 'system', content: 'You are an operator.' },
  { role: 'user', content: 'Find why the nightly export fails.' },
  { role: 'user', content: SUMMARY, cacheBreakpoint: true },
  ...turn(7),
  ...turn(8),
];

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ strict: true });
});
afterAll(() => server.close());

/** The body the server received, serialized again (the SDKs send `JSON.stringify` output). */
async function bodyOf(type: ProviderType, req: ModelRequest, overrides: Partial<ModelClientConfig> = {}) {
  const before = server.requests.length;
  server.push({ text: 'ok' });
  await collect(clientFor(server, type, overrides).stream(req));
  expect(server.requests.length).toBe(before + 1);
  const body = server.requests[before]?.body as Record<string, unknown>;
  return { body, json: JSON.stringify(body) };
}

const marks = (json: string) => json.split('"cache_control"').length - 1;
const EPHEMERAL = { type: 'ephemeral' };

describe('anthropic', () => {
  it('marks the summary block, with the system prompt, the last tool and the history: 4 marks', async () => {
    const { body, json } = await bodyOf('anthropic', { messages: compacted, tools });
    const messages = body.messages as { role: string; content: Record<string, unknown>[] }[];
    // The user's request and the summary merge into one user message; the mark ends the summary.
    expect(messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Find why the nightly export fails.' },
        { type: 'text', text: SUMMARY, cache_control: EPHEMERAL },
      ],
    });
    // The history breakpoint: the end of the history, the newest tool result.
    expect(messages[4]?.content.at(-1)).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'call_8',
      cache_control: EPHEMERAL,
    });
    expect(marks(JSON.stringify(messages))).toBe(2);
    expect(marks(json)).toBe(4);
  });

  it('never more than 4 marks: with two flagged messages only the newest one is marked', async () => {
    const earlier: ConversationMessage = {
      role: 'user',
      content: 'An earlier summary.',
      cacheBreakpoint: true,
    };
    const { body, json } = await bodyOf('anthropic', {
      messages: [compacted[0]!, compacted[1]!, earlier, ...turn(5), ...compacted.slice(2)],
      tools,
    });
    expect(marks(json)).toBe(4);
    const texts = (body.messages as { content: Record<string, unknown>[] }[]).flatMap((m) => m.content);
    expect(texts.find((b) => b.text === 'An earlier summary.')).not.toHaveProperty('cache_control');
    expect(texts.find((b) => b.text === SUMMARY)).toHaveProperty('cache_control', EPHEMERAL);
  });

  it('without tools the summary is still marked; nothing is marked when caching is off', async () => {
    const { json } = await bodyOf('anthropic', { messages: compacted });
    expect(marks(json)).toBe(3);
    expect(json).toContain(`${JSON.stringify(SUMMARY)},"cache_control":{"type":"ephemeral"}}`);
    const off = await bodyOf('anthropic', { messages: compacted, tools }, { promptCaching: false });
    expect(off.json).not.toContain('cache_control');
    expect(off.json).not.toContain('cacheBreakpoint');
  });

  it('two successive requests after a compaction have identical bytes up to and including the summary block', async () => {
    const first = await bodyOf('anthropic', { messages: compacted, tools });
    const second = await bodyOf('anthropic', { messages: [...compacted, ...turn(9)], tools });
    const summaryBlock = `${JSON.stringify(SUMMARY)},"cache_control":{"type":"ephemeral"}}`;
    const end = first.json.indexOf(summaryBlock) + summaryBlock.length;
    expect(end).toBeGreaterThan(summaryBlock.length);
    expect(second.json.slice(0, end)).toBe(first.json.slice(0, end));
    // The system prompt and the tools (sent before the messages in Anthropic's cache order) too.
    expect(JSON.stringify(second.body.system)).toBe(JSON.stringify(first.body.system));
    expect(JSON.stringify(second.body.tools)).toBe(JSON.stringify(first.body.tools));
    // The history breakpoint moved on with the new turn; the count stays 4.
    expect(second.json).not.toBe(first.json);
    expect(marks(second.json)).toBe(4);
  });
});

describe.each(['openai', 'openai-responses'] as const)('%s', (type) => {
  it('ignores the flag: the summary goes as a plain user message, nothing of the flag in the body', async () => {
    const { json } = await bodyOf(type, { messages: compacted, tools });
    expect(json).toContain(JSON.stringify(SUMMARY));
    expect(json).not.toContain('cacheBreakpoint');
    expect(json).not.toContain('cache_control');
  });
});
