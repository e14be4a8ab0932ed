// A run a guardrail ended (EXIT-GUARDRAIL) answers every face with that protocol's error, read
// with the protocol's official client: 422 and `guardrail_tripped` on the HTTP faces, the
// stream's error event when streaming (after the text that passed, never the blocked text),
// `isError` on MCP, an error part on the UI stream, a short message on Slack. The agent here
// plays the core's side of the contract (events, then the result); guardrail-e2e.test.ts runs
// the real core.

import type { AgentEvent, AgentEventMeta, AgentResult, GuardrailTrip } from '@agent/protocol';
import { type FakeSlack, startFakeSlack } from '@agent/testkit';
import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { UIMessageChunk } from 'ai';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createAnthropicHeadend,
  createCatalog,
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  createSlackHeadend,
  type ServedAgent,
  type ServedHeadend,
} from '../src/index.js';
import { withHeadend } from './helpers/agents.js';
import { sendUiChat } from './helpers/ui-chat.js';

const TOKEN = 'secret';
const SHOWN = 'The account summary: ';
/** What the guardrail blocked: the agent never emits it (the core holds unchecked text). */
const BLOCKED = 'card 4111 1111 1111 1111';
const TRIP: GuardrailTrip = {
  name: 'no-cards',
  on: 'output',
  phase: 'stream',
  reason: 'rule pii.card matched',
};
const MESSAGE = 'guardrail no-cards blocked the report: rule pii.card matched';

const meta = (source?: AgentEventMeta['source']): AgentEventMeta => ({
  isMaster: true,
  isFinal: false,
  sessionId: 'sess-1',
  agentPath: 'guarded',
  ...(source === undefined ? {} : { source }),
});

/** Whether each run's signal was aborted when it ended (a face must not cancel a tripping run). */
const abortedAtEnd: boolean[] = [];

/** The core's side: the text that passed streams, the rest is retracted, the run ends tripped. */
const tripped: ServedAgent = {
  info: { name: 'guarded', description: 'A guarded agent.', outputFormat: 'markdown' },
  run: async (_input, options) => {
    const emit = (event: AgentEvent, m = meta()) => options.onEvent?.(event, m);
    emit({ type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: false });
    emit({ type: 'output', text: SHOWN }, meta('stream'));
    emit({
      type: 'guardrail',
      run: {
        name: 'no-cards',
        on: 'output',
        phase: 'stream',
        outcome: 'block',
        reason: TRIP.reason,
        latencyMs: 1,
      },
    });
    emit({ type: 'output_retracted', characters: SHOWN.length, slug: 'guardrail', reason: TRIP.reason });
    abortedAtEnd.push(options.signal?.aborted === true);
    const result: AgentResult = {
      success: false,
      exitCode: 'EXIT-GUARDRAIL',
      error: MESSAGE,
      guardrail: TRIP,
      conversation: [],
      logs: [],
      accounting: [],
      sessionId: 'sess-1',
    };
    return result;
  },
};
const catalog = createCatalog([tripped]);
const withServer = <T>(make: typeof createOpenAiHeadend, use: (server: ServedHeadend) => Promise<T>) =>
  withHeadend(make, catalog, TOKEN, use);

describe('OpenAI chat completions (official client)', () => {
  const client = (server: ServedHeadend) =>
    new OpenAI({ baseURL: `${server.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
  const request = { model: 'guarded', messages: [{ role: 'user' as const, content: 'summary' }] };

  it('answers 422 with type guardrail_tripped and the guardrail as code', async () => {
    await withServer(createOpenAiHeadend, async (server) => {
      const error = await client(server)
        .chat.completions.create(request)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.status).toBe(422);
      expect(apiError.type).toBe('guardrail_tripped');
      expect(apiError.code).toBe('no-cards');
      expect(apiError.message).toContain(MESSAGE);
    });
  });

  it('streams what passed, then the guardrail error chunk, and nothing blocked', async () => {
    await withServer(createOpenAiHeadend, async (server) => {
      const stream = await client(server).chat.completions.create({ ...request, stream: true });
      let content = '';
      const failure = await (async () => {
        for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
      })().catch((e: unknown) => e);
      expect(content).toBe(SHOWN);
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain(MESSAGE);
      expect(content).not.toContain(BLOCKED);
      // The retraction did not cancel the run: it ends by itself, tripped.
      expect(abortedAtEnd.at(-1)).toBe(false);
    });
  });

  it('the raw stream: the error chunk has the trip, then [DONE]', async () => {
    await withServer(createOpenAiHeadend, async (server) => {
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...request, stream: true }),
      });
      const data = (await response.text())
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6));
      expect(data.at(-1)).toBe('[DONE]');
      expect(JSON.parse(data.at(-2)!)).toEqual({
        error: { message: MESSAGE, type: 'guardrail_tripped', param: null, code: 'no-cards' },
      });
    });
  });
});

describe('Anthropic messages (official client)', () => {
  const client = (server: ServedHeadend) =>
    new Anthropic({ baseURL: server.url, apiKey: TOKEN, maxRetries: 0 });
  const request = {
    model: 'guarded',
    max_tokens: 100,
    messages: [{ role: 'user' as const, content: 'summary' }],
  };

  it('answers 422 with error type guardrail_tripped', async () => {
    await withServer(createAnthropicHeadend, async (server) => {
      const error = await client(server)
        .messages.create(request)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.APIError);
      const apiError = error as InstanceType<typeof Anthropic.APIError>;
      expect(apiError.status).toBe(422);
      expect(apiError.error).toEqual({
        type: 'error',
        error: { type: 'guardrail_tripped', message: MESSAGE },
      });
    });
  });

  it('streams what passed, then an error event, and nothing blocked', async () => {
    await withServer(createAnthropicHeadend, async (server) => {
      const stream = client(server).messages.stream(request);
      let text = '';
      stream.on('text', (delta) => {
        text += delta;
      });
      const failure = await stream.finalMessage().catch((e: unknown) => e);
      expect(text).toBe(SHOWN);
      expect(failure).toBeInstanceOf(Anthropic.APIError);
      expect(String((failure as Error).message)).toContain('guardrail_tripped');
      expect(String((failure as Error).message)).toContain(MESSAGE);
    });
  });
});

describe('REST', () => {
  it('answers 422 with the run body and the trip in `guardrail`', async () => {
    await withServer(createRestHeadend, async (server) => {
      const response = await fetch(`${server.url}/v1/agents/guarded/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'summary' }),
      });
      expect(response.status).toBe(422);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        success: false,
        exitCode: 'EXIT-GUARDRAIL',
        error: MESSAGE,
        guardrail: TRIP,
      });
      expect(JSON.stringify(body)).not.toContain(BLOCKED);
    });
  });
});

describe('POST /api/chat (AI SDK client)', () => {
  it('streams what passed, then an error part naming the guardrail, then finish: error', async () => {
    await withServer(createRestHeadend, async (server) => {
      const stream = await sendUiChat(server.url, TOKEN, 'summary');
      const chunks: UIMessageChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const text = chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join('');
      expect(text).toBe(SHOWN);
      expect(chunks.filter((chunk) => chunk.type === 'error')).toEqual([
        { type: 'error', errorText: MESSAGE },
      ]);
      expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
    });
  });
});

describe('MCP (SDK client)', () => {
  it('answers an isError tool result with the message and the trip', async () => {
    await withServer(createMcpHeadend, async (server) => {
      const client = new Client({ name: 'guardrail-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      try {
        const result = await client.callTool({ name: 'guarded', arguments: { prompt: 'summary' } });
        expect(result.isError).toBe(true);
        expect(result.content).toEqual([{ type: 'text', text: MESSAGE }]);
        expect(result.structuredContent).toEqual({ status: 'guardrail_tripped', guardrail: TRIP });
      } finally {
        await client.close();
      }
    });
  });
});

describe('Slack', () => {
  let fake: FakeSlack | undefined;
  afterAll(async () => {
    await fake?.close();
  });

  it('replaces the opener with a short message naming the guardrail and its reason', async () => {
    fake = await startFakeSlack();
    const headend = createSlackHeadend({
      catalog,
      botToken: 'xoxb-test-bot-token-1234',
      appToken: 'xapp-test-app-token-5678',
      signingSecret: 'signing-secret-abcdef',
      env: {},
      apiUrl: fake.apiUrl,
      defaultAgent: 'guarded',
      updateIntervalMs: 60_000,
      log: () => undefined,
    });
    await headend.start();
    try {
      await fake.event({
        type: 'message',
        channel: 'D1',
        channel_type: 'im',
        user: 'U1',
        text: 'summary',
        ts: '1.1',
      });
      const [update] = await fake.waitForCalls('chat.update', 1);
      expect(update!.args.text).toBe(`:no_entry: ${MESSAGE}`);
    } finally {
      await headend.dispose();
    }
  });
});
