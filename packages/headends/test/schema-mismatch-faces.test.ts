// A json report that misses its output schema on every attempt is still the model's answer
// (EXIT-FINAL-REPORT-SCHEMA-MISMATCH): every chat face hands it to its client, read with that
// API's official client, marked so the client can tell it from a success.

import { type FakeSlack, type ScriptedAnswer, startFakeSlack } from '@agent/testkit';
import Anthropic from '@anthropic-ai/sdk';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAnthropicHeadend,
  createCatalog,
  createOpenAiHeadend,
  createRestHeadend,
  createSlackHeadend,
  type ServedHeadend,
} from '../src/index.js';
import { finalReport, startAgents, type TestAgents, withHeadend } from './helpers/agents.js';
import { sendUiChat } from './helpers/ui-chat.js';

const TOKEN = 'secret';
const COUNT_SCHEMA = { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } };
/** What each face must carry besides the report. */
const MISMATCH = {
  success: false,
  exitCode: 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH',
  validationErrors: [{ instancePath: '/count', message: 'must be integer' }],
};

// Every attempt parses as JSON and misses the schema: `count` is no integer.
const answer = (): ScriptedAnswer => ({
  text: [finalReport('{"count": "never"}', 'json')],
  usage: { inputTokens: 5, outputTokens: 5 },
});

let agents: TestAgents;
beforeAll(async () => {
  agents = await startAgents(answer, ['counter'], {
    counter: `output:\n  format: json\n  schema: ${JSON.stringify(COUNT_SCHEMA)}\n`,
  });
});
afterAll(async () => {
  await agents.close();
});

const withServer = <T>(make: typeof createOpenAiHeadend, use: (server: ServedHeadend) => Promise<T>) =>
  withHeadend(make, agents.catalog, TOKEN, use);

describe('OpenAI chat completions (official client)', () => {
  const client = (server: ServedHeadend) =>
    new OpenAI({ baseURL: `${server.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
  const request = {
    model: 'counter',
    messages: [{ role: 'user' as const, content: 'count' }],
    response_format: { type: 'json_schema' as const, json_schema: { name: 'count', schema: COUNT_SCHEMA } },
  };

  it('answers the report as the message, with the mismatch in the `agent` field', async () => {
    await withServer(createOpenAiHeadend, async (server) => {
      const completion = await client(server).chat.completions.create(request);
      expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ count: 'never' });
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect((completion as unknown as { agent: unknown }).agent).toEqual(MISMATCH);
    });
  });

  it('streams the report, then a last chunk carrying the mismatch', async () => {
    await withServer(createOpenAiHeadend, async (server) => {
      const stream = await client(server).chat.completions.create({ ...request, stream: true });
      let content = '';
      const chunks: unknown[] = [];
      for await (const chunk of stream) {
        chunks.push(chunk);
        content += chunk.choices[0]?.delta?.content ?? '';
      }
      expect(JSON.parse(content)).toEqual({ count: 'never' });
      const last = chunks.at(-1) as { agent?: unknown; choices: { finish_reason: string | null }[] };
      expect(last.choices[0]?.finish_reason).toBe('stop');
      expect(last.agent).toEqual(MISMATCH);
    });
  });
});

describe('Anthropic messages (official client)', () => {
  const client = (server: ServedHeadend) =>
    new Anthropic({ baseURL: server.url, apiKey: TOKEN, maxRetries: 0 });
  const request = {
    model: 'counter',
    max_tokens: 100,
    messages: [{ role: 'user' as const, content: 'count' }],
  };
  const textOf = (message: Anthropic.Message) =>
    message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

  it('answers the report as the text, with the mismatch in the `agent` field', async () => {
    await withServer(createAnthropicHeadend, async (server) => {
      const message = await client(server).messages.create(request);
      expect(JSON.parse(textOf(message))).toEqual({ count: 'never' });
      expect(message.stop_reason).toBe('end_turn');
      expect((message as unknown as { agent: unknown }).agent).toEqual(MISMATCH);
    });
  });

  it('streams the report; message_delta carries the mismatch', async () => {
    await withServer(createAnthropicHeadend, async (server) => {
      const stream = client(server).messages.stream(request);
      const deltas: unknown[] = [];
      stream.on('streamEvent', (event) => {
        if (event.type === 'message_delta') deltas.push(event);
      });
      const message = await stream.finalMessage();
      expect(JSON.parse(textOf(message))).toEqual({ count: 'never' });
      expect(message.stop_reason).toBe('end_turn');
      expect(deltas).toHaveLength(1);
      expect((deltas[0] as { agent?: unknown }).agent).toEqual(MISMATCH);
    });
  });
});

describe('POST /api/chat (AI SDK client)', () => {
  it('streams the report as text, then a data-schema-mismatch part with the errors', async () => {
    await withServer(createRestHeadend, async (server) => {
      const stream = await sendUiChat(server.url, TOKEN, 'count');
      const [forChunks, forMessage] = stream.tee();
      const chunks: UIMessageChunk[] = [];
      const collecting = (async () => {
        for await (const chunk of forChunks) chunks.push(chunk);
      })();
      const errors: unknown[] = [];
      let message: UIMessage | undefined;
      for await (const snapshot of readUIMessageStream({
        stream: forMessage,
        onError: (e) => errors.push(e),
      }))
        message = snapshot;
      await collecting;
      expect(errors).toEqual([]);
      expect(chunks.some((chunk) => chunk.type === 'error')).toBe(false);
      const parts = message?.parts ?? [];
      const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
      expect(JSON.parse(text)).toEqual({ count: 'never' });
      const mismatch = parts.find((part) => part.type === 'data-schema-mismatch');
      expect(mismatch?.type === 'data-schema-mismatch' && mismatch.data).toEqual(MISMATCH);
      expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    });
  });
});

describe('Slack', () => {
  let fake: FakeSlack | undefined;
  afterAll(async () => {
    await fake?.close();
  });

  it('posts the report, then a note in the thread naming the errors', async () => {
    fake = await startFakeSlack();
    // Slack asks every run for slack-block-kit; this agent keeps its own json contract (as a
    // catalog agent may), so its run can end with a schema-mismatched json report.
    const counter = agents.catalog.get('counter')!;
    const catalog = createCatalog([
      { info: counter.info, run: (input, options) => counter.run(input, { ...options, format: 'json' }) },
    ]);
    const headend = createSlackHeadend({
      catalog,
      botToken: 'xoxb-test-bot-token-1234',
      appToken: 'xapp-test-app-token-5678',
      signingSecret: 'signing-secret-abcdef',
      env: {},
      apiUrl: fake.apiUrl,
      defaultAgent: 'counter',
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
        text: 'count',
        ts: '1.1',
      });
      const [update] = await fake.waitForCalls('chat.update', 1);
      expect(String(update!.args.text)).toContain('"count"');
      expect(String(update!.args.text)).toContain('never');
      expect(String(update!.args.text)).not.toContain(':warning:');
      const posts = await fake.waitForCalls('chat.postMessage', 2);
      const note = posts.at(-1)!;
      expect(note.args.thread_ts).toBe('1.1');
      expect(note.args.text).toBe(
        ':warning: This answer does not match the output schema (EXIT-FINAL-REPORT-SCHEMA-MISMATCH): /count: must be integer',
      );
    } finally {
      await headend.dispose();
    }
  });
});
