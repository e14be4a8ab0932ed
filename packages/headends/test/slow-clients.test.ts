import type { Socket } from 'node:net';
import { streamedFinalReport } from '@agent/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAnthropicHeadend,
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type Headend,
  type HeadendOptions,
  type ServedHeadend,
  serve,
} from '../src/index.js';
import { finalReport, lastUserText, startAgents, type TestAgents } from './helpers/agents.js';
import { dripRequest, heldConnection, rawRequest } from './helpers/raw-tcp.js';

let agents: TestAgents;

beforeAll(async () => {
  agents = await startAgents((request) => {
    const prompt = lastUserText(request.messages);
    if (prompt === 'long') {
      // About 4 s of streamed tokens: twice the request timeout below.
      return streamedFinalReport(Array<string>(40).fill('tick '), { answer: { tokenDelayMs: 100 } });
    }
    return { text: finalReport(`Echo: ${prompt}`) };
  });
});

afterAll(async () => {
  await agents.close();
});

const TIMEOUTS = { headersTimeoutMs: 1000, requestTimeoutMs: 2000 };

const FACES: { kind: string; path: string; make: (options: HeadendOptions) => Headend }[] = [
  { kind: 'REST', path: '/v1/agents/echo/run', make: createRestHeadend },
  { kind: 'OpenAI-compatible', path: '/v1/chat/completions', make: createOpenAiHeadend },
  { kind: 'Anthropic-compatible', path: '/v1/messages', make: createAnthropicHeadend },
  { kind: 'MCP', path: '/mcp', make: createMcpHeadend },
];

describe.each(FACES)('the $kind headend with slow clients', ({ path, make }) => {
  let server: ServedHeadend;
  beforeAll(async () => {
    server = await serve(make({ catalog: agents.catalog, tokens: ['t'] }), TIMEOUTS);
  });
  afterAll(async () => {
    await server.close();
  });

  it('disconnects a client sending its headers byte by byte once the headers timeout passes', async () => {
    const seen = await dripRequest(server.port, {
      head: `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`,
      drip: `X-Slow: ${'a'.repeat(500)}`,
      gapMs: 100,
      maxMs: 12_000,
    });
    expect(seen.closedAfterMs).toBeDefined();
    expect(seen.closedAfterMs).toBeGreaterThanOrEqual(500);
    expect(seen.closedAfterMs).toBeLessThan(10_000);
    expect(seen.received).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  }, 20_000);

  it('cuts an authenticated client sending its body slowly with 408 once the request timeout passes', async () => {
    const seen = await dripRequest(server.port, {
      head: [
        `POST ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${server.port}`,
        'Authorization: Bearer t',
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        'Content-Length: 1000',
        '',
        '',
      ].join('\r\n'),
      drip: `{"prompt": "${'a'.repeat(990)}`,
      gapMs: 100,
      maxMs: 12_000,
    });
    expect(seen.closedAfterMs).toBeDefined();
    expect(seen.closedAfterMs).toBeGreaterThanOrEqual(1500);
    expect(seen.closedAfterMs).toBeLessThan(10_000);
    expect(seen.received).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  }, 20_000);
});

describe('connection cap', () => {
  it('closes connection N+1 at once, and takes new ones again when one closes', async () => {
    const server = await serve(createRestHeadend({ catalog: agents.catalog, tokens: ['t'] }), {
      maxConnections: 3,
      keepAliveTimeoutMs: 20_000,
    });
    const health = `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`;
    const closing = `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`;
    const held: Socket[] = [];
    try {
      for (let n = 0; n < 3; n += 1) held.push(await heldConnection(server.port, health));
      expect(await rawRequest(server.port, closing)).toBe('');

      held.shift()!.destroy();
      let answer = '';
      const deadline = Date.now() + 10_000;
      while (!answer.startsWith('HTTP/1.1 200') && Date.now() < deadline) {
        answer = await rawRequest(server.port, closing);
        if (answer === '') await new Promise((r) => setTimeout(r, 50));
      }
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(answer).toContain('"status":"ok"');
    } finally {
      for (const socket of held) socket.destroy();
      await server.close();
    }
  }, 30_000);
});

describe('streaming past the request timeout', () => {
  it('completes a REST SSE run and an OpenAI stream that last longer than the request timeout', async () => {
    const rest = await serve(createRestHeadend({ catalog: agents.catalog, tokens: ['t'] }), TIMEOUTS);
    const openai = await serve(createOpenAiHeadend({ catalog: agents.catalog, tokens: ['t'] }), TIMEOUTS);
    try {
      const started = performance.now();
      const restRun = (async () => {
        const response = await fetch(`${rest.url}/v1/agents/echo/run`, {
          method: 'POST',
          headers: {
            authorization: 'Bearer t',
            accept: 'text/event-stream',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ prompt: 'long' }),
        });
        return response.text();
      })();
      const client = new OpenAI({ baseURL: `${openai.url}/v1`, apiKey: 't', maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: 'echo',
        stream: true,
        messages: [{ role: 'user', content: 'long' }],
      });
      let streamed = '';
      for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';

      const events = await restRun;
      expect(performance.now() - started).toBeGreaterThan(TIMEOUTS.requestTimeoutMs);
      expect(streamed).toBe('tick '.repeat(40));
      const result = /event: result\ndata: (.*)\n/.exec(events)?.[1];
      expect(JSON.parse(result ?? '{}')).toMatchObject({
        success: true,
        finalReport: { content: 'tick '.repeat(40) },
      });
    } finally {
      await rest.close();
      await openai.close();
    }
  }, 30_000);
});
