import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  isModelError,
  type ModelError,
  type ModelStreamEvent,
  type ReasoningPart,
  type TokenUsage,
  type ToolCall,
} from '@agent/protocol';
import { defaultFixturesDir, type ModelServer, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll } from 'vitest';
import { createModelClient, type ModelClientConfig, type ProviderType } from '../src/index.js';

/** The recorded provider streams, which the testkit holds (or `$AGENT_FIXTURES_DIR`). */
export const FIXTURES_DIR = defaultFixturesDir();

/** The recordings of one folder, sorted (tables must cover every one of them). */
export function recordingsIn(folder: string): string[] {
  return readdirSync(join(FIXTURES_DIR, folder)).sort();
}

/**
 * A testkit server replaying the recordings, for the `describe` block it is called in; every
 * step a test plans must have been used when the block ends.
 */
export function replayServer(): () => ModelServer {
  let server: ModelServer | undefined;
  beforeAll(async () => {
    server = await startModelServer({ fixturesDir: FIXTURES_DIR, strict: true });
  });
  afterAll(async () => {
    server?.assertAllConsumed();
    await server?.close();
  });
  return () => {
    if (server === undefined) throw new Error('replayServer() is used before its beforeAll ran');
    return server;
  };
}

export const API_KEY = 'sk-test-SECRET-0123456789abcdef';

/** Everything one call yielded, folded the way the session folds it. */
export interface Collected {
  events: ModelStreamEvent[];
  text: string;
  reasoning: string;
  /** Reasoning blocks, closed by a delta that carries a signature, redacted data or provider data. */
  blocks: ReasoningPart[];
  toolCalls: ToolCall[];
  usage?: TokenUsage;
  finish?: Extract<ModelStreamEvent, { type: 'finish' }>;
}

export function fold(events: ModelStreamEvent[]): Collected {
  const out: Collected = { events, text: '', reasoning: '', blocks: [], toolCalls: [] };
  let open: ReasoningPart | undefined;
  for (const event of events) {
    if (event.type === 'text-delta') out.text += event.text;
    else if (event.type === 'reasoning-delta') {
      out.reasoning += event.text;
      open ??= { text: '' };
      open.text += event.text;
      const closes = event.signature ?? event.redactedData ?? event.providerData;
      if (event.signature !== undefined) open.signature = event.signature;
      if (event.redactedData !== undefined) open.redactedData = event.redactedData;
      if (event.providerData !== undefined) open.providerData = event.providerData;
      if (closes !== undefined) {
        out.blocks.push(open);
        open = undefined;
      }
    } else if (event.type === 'tool-call') out.toolCalls.push(event.call);
    else if (event.type === 'usage') out.usage = event.usage;
    else if (event.type === 'finish') out.finish = event;
  }
  if (open) out.blocks.push(open);
  return out;
}

export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<Collected> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return fold(events);
}

/** Runs a call that must fail; returns its ModelError and the events that came before. */
export async function collectError(
  stream: AsyncIterable<ModelStreamEvent>,
): Promise<{ error: ModelError; events: ModelStreamEvent[] }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    if (isModelError(error)) return { error, events };
    throw error;
  }
  throw new Error(`expected the call to fail; it yielded ${events.length} events`);
}

export const WIRE_TYPES: readonly ProviderType[] = [
  'openai',
  'openai-compatible',
  'openai-responses',
  'anthropic',
];

/** A client of the given type pointed at the testkit server. */
export function clientFor(
  server: ModelServer,
  type: ProviderType,
  overrides: Partial<ModelClientConfig> = {},
): ReturnType<typeof createModelClient> {
  const baseURL = type === 'anthropic' ? server.url : `${server.url}/v1`;
  return createModelClient({
    type,
    provider: type === 'openai-compatible' ? 'local' : type,
    model: type === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1-mini',
    apiKey: API_KEY,
    baseURL,
    ...overrides,
  });
}

/** Expected text: exact, or (for long recordings) its length in code points, start and end. */
export type TextSpec = string | { length: number; start: string; end: string };

export function matchesText(actual: string, spec: TextSpec): { actual: unknown; expected: unknown } {
  if (typeof spec === 'string') return { actual, expected: spec };
  const points = Array.from(actual);
  return {
    actual: {
      length: points.length,
      start: points.slice(0, Array.from(spec.start).length).join(''),
      end: points.slice(points.length - Array.from(spec.end).length).join(''),
    },
    expected: spec,
  };
}
