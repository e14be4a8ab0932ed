// Stop reasons, as each API words them, normalised; the provider's word is kept.
import type { StopReason } from '@agent/protocol';
import { type ModelServer, type ScriptedAnswer, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderType } from '../src/index.js';
import { clientFor, collect } from './helpers.js';

type Family = 'chat' | 'responses' | 'anthropic';
const familyOf = (type: ProviderType): Family =>
  type === 'anthropic' ? 'anthropic' : type === 'openai-responses' ? 'responses' : 'chat';

interface Row {
  name: string;
  answer: ScriptedAnswer;
  expected: Record<Family, { stopReason: StopReason; raw: string }>;
}

const ROWS: Row[] = [
  {
    name: 'end of turn',
    answer: { text: 'Done.' },
    expected: {
      chat: { stopReason: 'stop', raw: 'stop' },
      responses: { stopReason: 'stop', raw: 'completed' },
      anthropic: { stopReason: 'stop', raw: 'end_turn' },
    },
  },
  {
    name: 'output limit',
    answer: { text: 'Truncat', stopReason: 'length' },
    expected: {
      chat: { stopReason: 'length', raw: 'length' },
      responses: { stopReason: 'length', raw: 'max_output_tokens' },
      anthropic: { stopReason: 'length', raw: 'max_tokens' },
    },
  },
  {
    name: 'tool calls',
    answer: { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] },
    expected: {
      chat: { stopReason: 'tool_calls', raw: 'tool_calls' },
      responses: { stopReason: 'tool_calls', raw: 'completed' },
      anthropic: { stopReason: 'tool_calls', raw: 'tool_use' },
    },
  },
  {
    name: 'refusal',
    answer: { text: "I can't help with that.", stopReason: 'refusal' },
    expected: {
      chat: { stopReason: 'refusal', raw: 'stop' },
      responses: { stopReason: 'refusal', raw: 'completed' },
      anthropic: { stopReason: 'refusal', raw: 'refusal' },
    },
  },
  {
    name: 'content filter',
    answer: { text: 'Partial', stopReason: 'content_filter' },
    expected: {
      chat: { stopReason: 'content_filter', raw: 'content_filter' },
      responses: { stopReason: 'content_filter', raw: 'content_filter' },
      // Anthropic has no such word: its refusal is what it sends.
      anthropic: { stopReason: 'refusal', raw: 'refusal' },
    },
  },
  {
    name: 'a word the protocol does not know',
    answer: { text: 'Paused', rawStopReason: 'pause_turn' },
    expected: {
      chat: { stopReason: 'other', raw: 'pause_turn' },
      responses: { stopReason: 'stop', raw: 'completed' },
      anthropic: { stopReason: 'other', raw: 'pause_turn' },
    },
  },
];

const TYPES: ProviderType[] = ['openai-compatible', 'openai-responses', 'anthropic'];
const cases = TYPES.flatMap((type) => ROWS.map((row) => ({ type, ...row })));

describe('stop reasons', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer({ strict: true });
  });
  afterAll(() => server.close());

  it.each(cases)('$type: $name', async ({ type, answer, expected }) => {
    server.push(answer);
    const tools = [{ name: 'lookup', description: 'Look up', inputSchema: { type: 'object' } }];
    const { finish, text } = await collect(
      clientFor(server, type).stream({ messages: [{ role: 'user', content: 'hi' }], tools }),
    );
    const want = expected[familyOf(type)];
    expect(finish?.stopReason).toBe(want.stopReason);
    expect(finish?.rawStopReason).toBe(want.raw);
    if (answer.stopReason === 'refusal') expect(text).toBe("I can't help with that.");
  });
});
