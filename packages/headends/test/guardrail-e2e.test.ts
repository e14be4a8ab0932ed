// The real core's output guardrail stops a streamed report mid-stream; each face, read with its
// official client over HTTP, shows the text that passed, then its protocol's guardrail error, and
// never the offending text. The model is the testkit's scripted server, reached with the real
// OpenAI provider.

import type { AgentConfig } from '@agent/core';
import { guardrail, run } from '@agent/core';
import { createModelClient } from '@agent/providers';
import { type ModelServer, startModelServer, streamedFinalReport } from '@agent/testkit';
import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { UIMessageChunk } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentCatalog,
  createAnthropicHeadend,
  createCatalog,
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type ServedHeadend,
} from '../src/index.js';
import { withHeadend } from './helpers/agents.js';
import { sendUiChat } from './helpers/ui-chat.js';

const TOKEN = 'secret';
const SECRET = 'SECRET-7731';
const MESSAGE = 'guardrail no-secret blocked the report: rule: secret marker';
/** 60 pieces of 40 characters; the 31st has the secret (well past the first checked batch). */
const PIECES = Array.from({ length: 60 }, (_, i) =>
  i === 30
    ? `piece ${String(i).padStart(3, '0')} has ${SECRET} in it.... `
    : `piece ${String(i).padStart(3, '0')} is plain text, nothing else. `,
);

const noSecret = guardrail({
  name: 'no-secret',
  on: 'output',
  check: (subject) =>
    subject.text.includes(SECRET) ? { verdict: 'block', reason: 'rule: secret marker' } : { verdict: 'pass' },
});

let model: ModelServer;
let catalog: AgentCatalog;
beforeAll(async () => {
  model = await startModelServer({ handler: () => streamedFinalReport(PIECES) });
  const agent: AgentConfig = {
    models: [
      {
        client: createModelClient({
          type: 'openai',
          provider: 'openai',
          model: 'gpt-4.1-mini',
          apiKey: 'sk-test-key',
          baseURL: `${model.url}/v1`,
        }),
      },
    ],
    llmTimeoutMs: 20_000,
    guardrails: [noSecret],
  };
  catalog = createCatalog([
    {
      info: { name: 'guarded', description: 'A guarded agent.', outputFormat: 'markdown' },
      run: (input, options) =>
        run(agent, input, {
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
          ...(options.headendId === undefined ? {} : { headendId: options.headendId }),
        }),
    },
  ]);
});
afterAll(async () => {
  await model.close();
});

const withServer = <T>(make: typeof createOpenAiHeadend, use: (server: ServedHeadend) => Promise<T>) =>
  withHeadend(make, catalog, TOKEN, use);

/** What passed: the first pieces, whole, and none at or after the blocked one. */
function expectPassedOnly(shown: string): void {
  expect(shown).not.toContain(SECRET);
  expect(shown.length).toBeGreaterThan(0);
  expect(PIECES.slice(0, 30).join('').startsWith(shown)).toBe(true);
}

describe('a report stopped mid-stream by an output guardrail', () => {
  it('OpenAI chat completions: the text that passed, then the guardrail_tripped error', async () => {
    await withServer(createOpenAiHeadend, async (server) => {
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: 'guarded',
        messages: [{ role: 'user', content: 'report' }],
        stream: true,
      });
      let shown = '';
      const failure = await (async () => {
        for await (const chunk of stream) shown += chunk.choices[0]?.delta?.content ?? '';
      })().catch((e: unknown) => e);
      expectPassedOnly(shown);
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect((failure as Error).message).toContain(MESSAGE);
      // Not streamed: 422, the same error.
      const whole = await client.chat.completions
        .create({ model: 'guarded', messages: [{ role: 'user', content: 'report' }] })
        .catch((e: unknown) => e);
      expect(whole).toMatchObject({ status: 422, type: 'guardrail_tripped', code: 'no-secret' });
    });
  });

  it('Anthropic messages: the text that passed, then an error event', async () => {
    await withServer(createAnthropicHeadend, async (server) => {
      const client = new Anthropic({ baseURL: server.url, apiKey: TOKEN, maxRetries: 0 });
      const request = {
        model: 'guarded',
        max_tokens: 100,
        messages: [{ role: 'user' as const, content: 'report' }],
      };
      const stream = client.messages.stream(request);
      let shown = '';
      stream.on('text', (delta) => {
        shown += delta;
      });
      const failure = await stream.finalMessage().catch((e: unknown) => e);
      expectPassedOnly(shown);
      expect(String((failure as Error).message)).toContain('guardrail_tripped');
      const whole = await client.messages.create(request).catch((e: unknown) => e);
      expect(whole).toMatchObject({
        status: 422,
        error: { type: 'error', error: { type: 'guardrail_tripped', message: MESSAGE } },
      });
    });
  });

  it('AI SDK UI stream: the text that passed, then an error part', async () => {
    await withServer(createRestHeadend, async (server) => {
      const stream = await sendUiChat(server.url, TOKEN, 'report');
      const chunks: UIMessageChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expectPassedOnly(chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join(''));
      expect(chunks.filter((chunk) => chunk.type === 'error')).toEqual([
        { type: 'error', errorText: MESSAGE },
      ]);
      expect(JSON.stringify(chunks)).not.toContain(SECRET);
    });
  });

  it('REST: the SSE events carry no offending text, the result the trip; JSON answers 422', async () => {
    await withServer(createRestHeadend, async (server) => {
      const url = `${server.url}/v1/agents/guarded/run`;
      const init = (accept: string) => ({
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept },
        body: JSON.stringify({ prompt: 'report' }),
      });
      const events = await (await fetch(url, init('text/event-stream'))).text();
      expect(events).not.toContain(SECRET);
      expect(events).toContain('event: output_retracted');
      const result = events.split('event: result\ndata: ')[1]!.split('\n')[0]!;
      expect(JSON.parse(result)).toMatchObject({
        exitCode: 'EXIT-GUARDRAIL',
        guardrail: { name: 'no-secret', on: 'output', phase: 'stream' },
      });
      const response = await fetch(url, init('application/json'));
      expect(response.status).toBe(422);
      const body = await response.text();
      expect(body).not.toContain(SECRET);
      expect(JSON.parse(body)).toMatchObject({ error: MESSAGE, guardrail: { name: 'no-secret' } });
    });
  });

  it('MCP: an isError result naming the guardrail, without the report', async () => {
    await withServer(createMcpHeadend, async (server) => {
      const client = new Client({ name: 'guardrail-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      try {
        const result = await client.callTool({ name: 'guarded', arguments: { prompt: 'report' } });
        expect(result.isError).toBe(true);
        expect(result.content).toEqual([{ type: 'text', text: MESSAGE }]);
        expect(JSON.stringify(result)).not.toContain(SECRET);
      } finally {
        await client.close();
      }
    });
  });
});
