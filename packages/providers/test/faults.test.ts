// Every fault the testkit server can play, per provider, through the official SDKs over HTTP:
// the kind, the retryable flag, the status and the wait the provider asked for.
import type { ModelErrorKind, ModelRequest } from '@agent/protocol';
import { type ModelServer, type ScriptedAnswer, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderType } from '../src/index.js';
import { clientFor, collect, collectError, WIRE_TYPES } from './helpers.js';

interface FaultRow {
  name: string;
  step: ScriptedAnswer;
  kind: ModelErrorKind;
  retryable: boolean;
  /** Expected HTTP status per API family, when there is one. */
  status?: { openai?: number; anthropic?: number };
  retryAfterMs?: { openai?: number; anthropic?: number };
  stream?: boolean;
  only?: ProviderType[];
  timeoutMs?: number;
}

const slowText = ['one ', 'two ', 'three ', 'four ', 'five ', 'six ', 'seven ', 'eight '];

const FAULTS: FaultRow[] = [
  {
    name: '401 bad key',
    step: { error: { kind: 'auth' } },
    kind: 'auth',
    retryable: false,
    status: { openai: 401, anthropic: 401 },
  },
  // OpenAI: 429 insufficient_quota. Anthropic: 400 "Your credit balance is too low".
  {
    name: 'quota exhausted',
    step: { error: { kind: 'quota' } },
    kind: 'quota',
    retryable: false,
    status: { openai: 429, anthropic: 400 },
  },
  {
    name: '402 payment required',
    step: { error: { kind: 'quota', status: 402 } },
    kind: 'quota',
    retryable: false,
    status: { openai: 402, anthropic: 402 },
  },
  {
    name: '404 unknown model',
    step: { error: { kind: 'model_not_found' } },
    kind: 'model_not_found',
    retryable: false,
    status: { openai: 404, anthropic: 404 },
  },
  {
    name: '400 context length',
    step: { error: { kind: 'context_length' } },
    kind: 'context_length',
    retryable: false,
    status: { openai: 400, anthropic: 400 },
  },
  {
    name: '400 bad request',
    step: { error: { kind: 'bad_request' } },
    kind: 'bad_request',
    retryable: false,
    status: { openai: 400, anthropic: 400 },
  },
  {
    name: '400 content filter',
    step: { error: { kind: 'content_filter' } },
    kind: 'content_filter',
    retryable: false,
    status: { openai: 400, anthropic: 400 },
  },
  {
    // OpenAI sends retry-after-ms (wins) and retry-after; Anthropic sends retry-after in seconds.
    name: '429 rate limit with retry-after and retry-after-ms',
    step: { error: { kind: 'rate_limit', retryAfterMs: 2500 } },
    kind: 'rate_limit',
    retryable: true,
    status: { openai: 429, anthropic: 429 },
    retryAfterMs: { openai: 2500, anthropic: 3000 },
  },
  {
    name: '500 server error',
    step: { error: { kind: 'server' } },
    kind: 'server',
    retryable: true,
    status: { openai: 500, anthropic: 500 },
  },
  {
    name: '503 unavailable',
    step: { error: { kind: 'server', status: 503 } },
    kind: 'server',
    retryable: true,
    status: { openai: 503, anthropic: 503 },
  },
  {
    name: '529 overloaded',
    step: { error: { kind: 'server', status: 529 } },
    kind: 'server',
    retryable: true,
    status: { anthropic: 529 },
    only: ['anthropic'],
  },
  {
    name: '504 gateway timeout',
    step: { error: { kind: 'timeout' } },
    kind: 'timeout',
    retryable: true,
    status: { openai: 504, anthropic: 504 },
  },
  { name: 'connection dropped', step: { error: { kind: 'network' } }, kind: 'network', retryable: true },
  {
    name: 'hang after headers',
    step: { text: 'never sent', fault: 'hang-after-headers' },
    kind: 'timeout',
    retryable: true,
    timeoutMs: 300,
  },
  {
    name: 'hang before headers',
    step: { text: 'never sent', fault: 'hang' },
    kind: 'timeout',
    retryable: true,
    timeoutMs: 300,
  },
  {
    name: 'stream cut halfway',
    step: { text: slowText, fault: 'cut-stream' },
    kind: 'network',
    retryable: true,
  },
  {
    name: 'malformed SSE event',
    step: { text: slowText, fault: 'malformed-sse' },
    kind: 'invalid_response',
    retryable: true,
  },
  {
    name: 'error event mid-stream (server)',
    step: { text: slowText, error: { kind: 'server', midStream: true } },
    kind: 'server',
    retryable: true,
  },
  {
    name: 'error event mid-stream (rate limit)',
    step: { text: slowText, error: { kind: 'rate_limit', midStream: true } },
    kind: 'rate_limit',
    retryable: true,
  },
  {
    name: 'error event mid-stream (529 overloaded)',
    step: { text: slowText, error: { kind: 'server', status: 529, midStream: true } },
    kind: 'server',
    retryable: true,
    only: ['anthropic'],
  },
  // Non-streamed calls fail the same way.
  {
    name: 'non-streamed 429',
    step: { error: { kind: 'rate_limit', retryAfterMs: 1000 } },
    kind: 'rate_limit',
    retryable: true,
    stream: false,
    status: { openai: 429, anthropic: 429 },
  },
  {
    name: 'non-streamed hang after headers',
    step: { text: 'x', fault: 'hang-after-headers' },
    kind: 'timeout',
    retryable: true,
    stream: false,
    timeoutMs: 300,
  },
  {
    name: 'non-streamed truncated body',
    step: { text: 'hello there', fault: 'malformed-sse' },
    kind: 'invalid_response',
    retryable: true,
    stream: false,
  },
  {
    name: 'non-streamed body cut',
    step: { text: 'hello there', fault: 'cut-stream' },
    kind: 'network',
    retryable: true,
    stream: false,
  },
];

const request = (stream = true): ModelRequest => ({ messages: [{ role: 'user', content: 'hello' }], stream });

const family = (type: ProviderType) => (type === 'anthropic' ? 'anthropic' : 'openai');

const cases = WIRE_TYPES.flatMap((type) =>
  FAULTS.filter((row) => !row.only || row.only.includes(type)).map((row) => ({ type, ...row })),
);

describe('faults become ModelErrors', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer({ strict: true });
  });
  afterAll(() => server.close());

  it.each(cases)('$type: $name -> $kind', async (row) => {
    server.push(row.step);
    const client = clientFor(server, row.type, row.timeoutMs ? { timeoutMs: row.timeoutMs } : {});
    const started = Date.now();
    const { error } = await collectError(client.stream(request(row.stream ?? true)));
    const elapsed = Date.now() - started;
    expect(error.name).toBe('ModelError');
    expect(error.kind).toBe(row.kind);
    expect(error.retryable).toBe(row.retryable);
    expect(error.provider).toBe(client.provider);
    expect(error.model).toBe(client.model);
    expect(error.message).toContain(`${client.provider}/${client.model}: `);
    const status = row.status?.[family(row.type)];
    if (status !== undefined) expect(error.status).toBe(status);
    const retryAfter = row.retryAfterMs?.[family(row.type)];
    if (row.retryAfterMs) expect(error.retryAfterMs).toBe(retryAfter);
    if (row.timeoutMs) {
      // Ends at the configured timeout, not at the SDK's 10-minute default.
      expect(elapsed).toBeGreaterThanOrEqual(row.timeoutMs - 20);
      expect(elapsed).toBeLessThan(row.timeoutMs + 1500);
      expect(error.message).toContain(`within ${row.timeoutMs} ms`);
    }
  });
});

describe('tool calls with invalid JSON arguments', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer({ strict: true });
  });
  afterAll(() => server.close());

  it.each(WIRE_TYPES)('%s: yields the call with {}, the raw text and the parse error', async (type) => {
    server.push({ toolCalls: [{ id: 'call_bad', name: 'search', arguments: '{"query": "cats",' }] });
    const client = clientFor(server, type);
    const { toolCalls, finish } = await collect(
      client.stream({
        ...request(),
        tools: [{ name: 'search', description: 'Search', inputSchema: { type: 'object' } }],
      }),
    );
    expect(toolCalls).toHaveLength(1);
    expect(toolCalls[0]).toMatchObject({
      name: 'search',
      arguments: {},
      rawArguments: '{"query": "cats",',
      parseError: expect.stringMatching(/^arguments are not valid JSON: /),
    });
    expect(finish?.stopReason).toBe('tool_calls');
  });
});
