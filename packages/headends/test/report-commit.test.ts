// What a client of each headend sees of a report attempt that is refused, or that breaks off
// after part of it was streamed: never the refused text glued to the accepted report.

import { type ScriptedAnswer, streamedFinalReport } from '@agent/testkit';
import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAnthropicHeadend,
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type ServedHeadend,
} from '../src/index.js';
import { finalReport, lastUserText, startAgents, type TestAgents, withHeadend } from './helpers/agents.js';

const TAG = 'ai-agent-{{NONCE}}-FINAL';
const TOKEN = 'secret';
const COUNT_SCHEMA = { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } };

/** Answers by prompt; `attempts` counts the calls per prompt (a prompt is used by one test only). */
const attempts = new Map<string, number>();
function answer(prompt: string, attempt: number): ScriptedAnswer {
  const kind = prompt.split(' ')[0];
  switch (kind) {
    case 'breaks':
      // The first answer streams part of a report, then the provider fails mid-stream.
      return attempt === 1
        ? streamedFinalReport(['The ans', 'wer is 4'], {
            unclosed: true,
            answer: { error: { kind: 'server', message: 'upstream reset', midStream: true } },
          })
        : { text: [finalReport('The answer is 42.')] };
    case 'json':
      return {
        text: [
          finalReport(attempt === 1 ? '{"count": "three"}' : attempt === 2 ? '{"count": 3}' : 'x', 'json'),
        ],
      };
    case 'status':
      return attempt === 1
        ? // Deliberately by hand: `done` is no status the builders can write.
          {
            text: [`<${TAG} tool="agent__final_report" status="done" format="markdown">Looks done.</${TAG}>`],
          }
        : { text: [finalReport('Not found.', 'markdown', 'failure')] };
    case 'invalid':
      return { text: [finalReport('{"count": "never"}', 'json')] };
    case 'garbage':
      return { text: [finalReport('not json at all', 'json')] };
    default:
      return { text: [finalReport('ok')] };
  }
}

let agents: TestAgents;
beforeAll(async () => {
  agents = await startAgents((request) => {
    const prompt = lastUserText(request.messages);
    const attempt = (attempts.get(prompt) ?? 0) + 1;
    attempts.set(prompt, attempt);
    return { ...answer(prompt, attempt), usage: { inputTokens: 5, outputTokens: 5 } };
  });
});
afterAll(async () => {
  await agents.close();
});

const withServer = <T>(make: typeof createOpenAiHeadend, use: (server: ServedHeadend) => Promise<T>) =>
  withHeadend(make, agents.catalog, TOKEN, use);

describe('OpenAI chat completions (official client, streaming)', () => {
  const client = (server: ServedHeadend) =>
    new OpenAI({ baseURL: `${server.url}/v1`, apiKey: TOKEN, maxRetries: 0 });

  it('ends the stream with an error when streamed report text is withdrawn, and stops the run', async () => {
    await withServer(createOpenAiHeadend, async (server) => {
      const stream = await client(server).chat.completions.create({
        model: 'echo',
        messages: [{ role: 'user', content: 'breaks openai' }],
        stream: true,
      });
      let content = '';
      const read = async () => {
        for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
      };
      await expect(read()).rejects.toThrow(/withdrawn before it became the report \(server: /);
      expect(content).toBe('The answer is 4');
      expect(content).not.toContain('42');
      // The run was stopped instead of retrying into a stream that cannot take text back.
      expect(attempts.get('breaks openai')).toBe(1);
    });
  });

  it('never streams a json report that is then refused: only the committed JSON', async () => {
    await withServer(createOpenAiHeadend, async (server) => {
      const stream = await client(server).chat.completions.create({
        model: 'echo',
        messages: [{ role: 'user', content: 'json openai' }],
        response_format: { type: 'json_schema', json_schema: { name: 'count', schema: COUNT_SCHEMA } },
        stream: true,
      });
      let content = '';
      for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
      expect(content).not.toContain('three');
      expect(JSON.parse(content)).toEqual({ count: 3 });
      expect(attempts.get('json openai')).toBe(2);
    });
  });

  it('retries an unknown status; a failure report is still the answer', async () => {
    await withServer(createOpenAiHeadend, async (server) => {
      const stream = await client(server).chat.completions.create({
        model: 'echo',
        messages: [{ role: 'user', content: 'status openai' }],
        stream: true,
      });
      let content = '';
      for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
      expect(content).toBe('Not found.');
    });
  });
});

describe('Anthropic messages (official client, streaming)', () => {
  const client = (server: ServedHeadend) =>
    new Anthropic({ baseURL: server.url, apiKey: TOKEN, maxRetries: 0 });

  it('ends the stream with an error event when streamed report text is withdrawn', async () => {
    await withServer(createAnthropicHeadend, async (server) => {
      const stream = client(server).messages.stream({
        model: 'echo',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'breaks anthropic' }],
      });
      let text = '';
      stream.on('text', (delta) => {
        text += delta;
      });
      await expect(stream.finalMessage()).rejects.toThrow(/withdrawn before it became the report/);
      expect(text).toBe('The answer is 4');
      expect(attempts.get('breaks anthropic')).toBe(1);
    });
  });

  it('never streams a json report that is then refused', async () => {
    await withServer(createAnthropicHeadend, async (server) => {
      const stream = client(server).messages.stream({
        model: 'echo',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'json anthropic' }],
        // The headend's way to ask for json (messages-request.ts): output_format with a schema.
        ...({ output_format: { type: 'json_schema', schema: COUNT_SCHEMA } } as object),
      });
      const message = await stream.finalMessage();
      const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      expect(text).not.toContain('three');
      expect(JSON.parse(text)).toEqual({ count: 3 });
    });
  });

  it('retries an unknown status; a failure report is still the answer', async () => {
    await withServer(createAnthropicHeadend, async (server) => {
      const message = await client(server)
        .messages.stream({
          model: 'echo',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'status anthropic' }],
        })
        .finalMessage();
      const text = message.content.find((block) => block.type === 'text');
      expect(text?.type === 'text' && text.text).toBe('Not found.');
    });
  });
});

describe('REST', () => {
  async function sseEvents(server: ServedHeadend, body: object) {
    const response = await fetch(`${server.url}/v1/agents/echo/run`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${TOKEN}`,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return text
      .split('\n\n')
      .filter((block) => block.includes('data: '))
      .map((block) => {
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as Record<string, unknown>;
        return { event, data };
      });
  }

  it('streams output_retracted after the withdrawn text; the retry commits the report', async () => {
    await withServer(createRestHeadend, async (server) => {
      const events = await sseEvents(server, { prompt: 'breaks rest' });
      const names = events
        .map((e) => e.event)
        .filter((name) => ['output', 'output_retracted'].includes(name));
      expect(names).toEqual(['output', 'output', 'output_retracted', 'output']);
      const retracted = events.find((e) => e.event === 'output_retracted')!.data.event as Record<
        string,
        unknown
      >;
      expect(retracted).toMatchObject({ type: 'output_retracted', characters: 15, slug: 'server' });
      // A consumer that drops the retracted characters shows exactly the report.
      let shown = '';
      for (const { data } of events) {
        const event = data.event as { type?: string; text?: string; characters?: number } | undefined;
        if (event?.type === 'output') shown += event.text;
        if (event?.type === 'output_retracted')
          shown = shown.slice(0, shown.length - (event.characters ?? 0));
      }
      expect(shown).toBe('The answer is 42.');
      const result = events.at(-1)!;
      expect(result.event).toBe('result');
      expect(result.data).toMatchObject({ success: true, finalReport: { content: 'The answer is 42.' } });
    });
  });

  it('answers a report that missed the schema on every attempt with 200, the report and its errors', async () => {
    await withServer(createRestHeadend, async (server) => {
      const response = await fetch(`${server.url}/v1/agents/echo/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ prompt: 'invalid rest', format: 'json', schema: COUNT_SCHEMA }),
      });
      // The model's answer, not a failed run: 200, but `success: false` and its own exit code.
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        success: false,
        exitCode: 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH',
        finalReport: {
          status: 'success',
          content_json: { count: 'never' },
          validationErrors: [{ instancePath: '/count', message: 'must be integer' }],
        },
      });
      expect(body.error).toContain('does not match the output schema');
    });
  });

  it('answers a run where no attempt parsed as JSON with 500 and the last attempt kept as a rejected report', async () => {
    await withServer(createRestHeadend, async (server) => {
      const response = await fetch(`${server.url}/v1/agents/echo/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ prompt: 'garbage rest', format: 'json', schema: COUNT_SCHEMA }),
      });
      // A failed run is an error on every face (docs/headends.md); REST keeps its run body.
      expect(response.status).toBe(500);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        success: false,
        exitCode: 'EXIT-INVALID-FINAL-REPORT',
        finalReport: {
          status: 'failure',
          origin: 'rejected',
          content: 'not json at all',
          rejection: { slug: 'final_report_json_invalid' },
        },
      });
      expect(body.error).toContain('the last one (final_report_json_invalid)');
    });
  });
});

describe('MCP', () => {
  it('answers a run whose every attempt was invalid with an error naming the last reason, not the refused payload', async () => {
    await withServer(createMcpHeadend, async (server) => {
      const client = new Client({ name: 'report-commit-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      try {
        const result = await client.callTool({
          name: 'echo',
          arguments: { prompt: 'garbage mcp', format: 'json', schema: COUNT_SCHEMA },
        });
        expect(result.isError).toBe(true);
        const text = (result.content as { type: string; text: string }[])[0]!.text;
        expect(text).toMatch(
          /^the agent run failed \(EXIT-INVALID-FINAL-REPORT\): the final report was invalid on every attempt; the last one \(final_report_json_invalid\)/,
        );
        expect(text).not.toContain('not json at all');
      } finally {
        await client.close();
      }
    });
  });

  it('answers a report that missed the schema with the report and its errors, marked as an error', async () => {
    await withServer(createMcpHeadend, async (server) => {
      const client = new Client({ name: 'report-commit-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      try {
        const result = await client.callTool({
          name: 'echo',
          arguments: { prompt: 'invalid mcp', format: 'json', schema: COUNT_SCHEMA },
        });
        expect(result.isError).toBe(true);
        const [report, errors] = result.content as { type: string; text: string }[];
        expect(JSON.parse(report!.text)).toEqual({ count: 'never' });
        expect(errors!.text).toBe(
          'the report does not match the output schema (EXIT-FINAL-REPORT-SCHEMA-MISMATCH): /count: must be integer',
        );
      } finally {
        await client.close();
      }
    });
  });
});
