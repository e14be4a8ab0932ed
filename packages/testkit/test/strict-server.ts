// The strict model server the strict-mode tests share: one server per test, closed after it,
// reached through the official SDKs.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, expect } from 'vitest';
import { type ModelServer, type StrictOptions, startModelServer } from '../src/index.js';

let current: ModelServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** The server of the test under way. */
export function server(): ModelServer {
  if (current === undefined) throw new Error('no model server: call strict() first');
  return current;
}

export async function strict(options: StrictOptions | true = true): Promise<void> {
  current = await startModelServer({ strict: options, steps: [{ text: 'ok' }] });
}

/** The same server without strict mode. */
export async function lenient(): Promise<void> {
  current = await startModelServer({ steps: [{ text: 'ok' }] });
}

export const openai = (prefix = '') =>
  new OpenAI({ baseURL: `${server().url}${prefix}/v1`, apiKey: 'test', maxRetries: 0, logLevel: 'off' });
export const anthropic = () =>
  new Anthropic({ baseURL: server().url, apiKey: 'test', maxRetries: 0, logLevel: 'off' });

export type Json = Record<string, unknown>;

/** The SDK error a request got (the test fails when it was accepted). */
export async function refusal(call: () => Promise<unknown>): Promise<{ status?: number; error: Json }> {
  try {
    await call();
  } catch (error) {
    if (error instanceof OpenAI.APIError || error instanceof Anthropic.APIError) {
      return { status: error.status, error: error.error as Json };
    }
    throw error;
  }
  throw new Error('expected the request to be refused');
}

/** The request was refused, recorded with the reason, and no step was used. */
export function expectRecordedRefusal(status: number, message: string): void {
  expect(server().requests.at(-1)?.rejected).toEqual({ status, message });
  expect(server().remaining).toBe(1);
}

/**
 * The body as sent: the openai SDK keeps only an `error` field, so Mistral's own shape reaches
 * an SDK user as "422 status code (no body)" (the providers' client keeps it whole).
 */
export async function rawChat(prefix: string, body: Json): Promise<{ status: number; error: Json }> {
  const response = await fetch(`${server().url}${prefix}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, error: (await response.json()) as Json };
}

export const chat = (body: Json, prefix = '') =>
  openai(prefix).chat.completions.create(
    body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
  );
export const responses = (body: Json) =>
  openai().responses.create(body as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming);
// `post` rather than `messages.create`, which prints deprecation warnings for some model names.
export const messages = (body: Json) => anthropic().post('/v1/messages', { body });

export const toolTurn = (id: string, extra: Json = {}) => [
  { role: 'user', content: 'weather?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name: 'w', arguments: '{}' } }],
    ...extra,
  },
  { role: 'tool', tool_call_id: id, content: 'sunny' },
];
