// Issue 24: a conversation with tool calls and reasoning built on each provider type, continued
// on each other type (what a fallback does), with the same session settings, against the strict
// server: every request must be accepted.
import type { ConversationMessage, ModelRequest } from '@agent/protocol';
import type { ScriptedAnswer } from '@agent/testkit';
import { describe, expect, it } from 'vitest';
import { afterTools, clientAt, collect, strictServers, type Target, weatherTool } from './strict-targets.js';

interface Row extends Target {
  label: string;
  /** How this server answers with reasoning and two tool calls. */
  toolTurn: ScriptedAnswer;
}

const calls = [
  { name: 'get_weather', arguments: { city: 'Paris' } },
  { name: 'get_weather', arguments: { city: 'Rome' } },
];

const ROWS: Row[] = [
  { label: 'openai', type: 'openai', model: 'gpt-5-mini', toolTurn: { toolCalls: calls } },
  {
    label: 'openai-responses',
    type: 'openai-responses',
    model: 'gpt-5-mini',
    toolTurn: { reasoning: { text: 'Two cities.', signature: 'encrypted-1' }, toolCalls: calls },
  },
  {
    label: 'anthropic',
    type: 'anthropic',
    model: 'claude-sonnet-4-5',
    toolTurn: { reasoning: { text: 'Two cities.', signature: 'signed-1' }, toolCalls: calls },
  },
  {
    label: 'openai-compatible',
    type: 'openai-compatible',
    model: 'Qwen/Qwen3-8B',
    toolTurn: { reasoning: { text: 'Two cities.' }, toolCalls: calls },
  },
  {
    label: 'mistral',
    type: 'openai-compatible',
    model: 'mistral-large-latest',
    flavour: 'mistral',
    config: { streamUsage: false },
    toolTurn: { toolCalls: calls },
  },
  {
    label: 'deepseek',
    type: 'openai-compatible',
    model: 'deepseek-reasoner',
    flavour: 'deepseek',
    toolTurn: { reasoning: { text: 'Two cities.' }, toolCalls: calls },
  },
  {
    label: 'openrouter-gemini',
    type: 'openai-compatible',
    model: 'google/gemini-3-pro-preview',
    flavour: 'openrouter',
    toolTurn: {
      reasoning: { text: 'Two cities.', signature: 'thought-signature-1' },
      toolCalls: calls,
      chatReasoningField: 'reasoning_details',
    },
  },
];

/** What one session sends every target: its sampling, effort and output settings, and tools. */
const session = (messages: ConversationMessage[]): ModelRequest => ({
  messages,
  tools: [weatherTool],
  toolChoice: 'auto',
  temperature: 0.3,
  topP: 0.9,
  maxOutputTokens: 2000,
  reasoning: { effort: 'minimal' },
});

const start: ConversationMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Paris and Rome?' },
];

// Gemini needs its own thought signature on the last tool turn, which no other model can give:
// a tool turn made elsewhere cannot be continued there (documented in docs/providers.md).
const pairs = ROWS.flatMap((from) =>
  ROWS.filter((to) => to !== from && (to.label !== 'openrouter-gemini' || from.label === to.label)).map(
    (to) => [from.label, to.label, from, to] as const,
  ),
).concat(ROWS.map((row) => [row.label, row.label, row, row] as const));

const server = strictServers();

describe('fallback matrix', () => {
  it.each(pairs)('built on %s, continued on %s', async (_, __, from, to) => {
    const s = await server();
    s.push(from.toolTurn, { text: 'Paris 18C, Rome 25C.' });
    const first = await collect(clientAt(s, from).stream(session(start)));
    expect(first.toolCalls).toHaveLength(2);
    const messages = [...start, ...afterTools(first)];
    const answer = await collect(clientAt(s, to).stream(session(messages)));
    expect(s.requests.map((request) => request.rejected?.message)).toEqual([undefined, undefined]);
    expect(answer.text).toBe('Paris 18C, Rome 25C.');
  });
});
