import { streamedFinalReport } from '@agent/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAnthropicHeadend,
  createMcpHeadend,
  createRestHeadend,
  type Headend,
  type ServedHeadend,
  serve,
} from '../src/index.js';
import { type RecordedRun, recording, startAgents, type TestAgents } from './helpers/agents.js';

let agents: TestAgents;
const runs: RecordedRun[] = [];

beforeAll(async () => {
  agents = await startAgents(() =>
    streamedFinalReport(Array<string>(100).fill('tick '), { unclosed: true, answer: { tokenDelayMs: 50 } }),
  );
});

afterAll(async () => {
  await agents.close();
});

async function disconnectMidStream(
  headend: Headend,
  path: string,
  body: object,
  headers: Record<string, string>,
) {
  const server: ServedHeadend = await serve(headend);
  try {
    const controller = new AbortController();
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    const run = runs.at(-1)!;
    const result = await run.result;
    expect(run.signal?.aborted).toBe(true);
    expect(result.success).toBe(false);
    await headend.admission.idle();
    expect(headend.admission.active).toBe(0);
  } finally {
    await server.close();
  }
}

describe('a client that disconnects mid-stream aborts its session', () => {
  it('on the Anthropic headend', async () => {
    const headend = createAnthropicHeadend({ catalog: recording(agents.catalog, runs), tokens: ['k'] });
    await disconnectMidStream(
      headend,
      '/v1/messages',
      { model: 'echo', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'long' }] },
      { 'x-api-key': 'k' },
    );
  });

  it('on the REST headend (SSE)', async () => {
    const headend = createRestHeadend({ catalog: recording(agents.catalog, runs), tokens: ['k'] });
    await disconnectMidStream(
      headend,
      '/v1/agents/echo/run',
      { prompt: 'long' },
      { authorization: 'Bearer k' },
    );
  });

  it('on the MCP headend (the client cancels the tool call)', async () => {
    const headend = createMcpHeadend({ catalog: recording(agents.catalog, runs), tokens: ['k'] });
    const server = await serve(headend);
    const client = new Client({ name: 'cancel-test', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: 'Bearer k' } },
        }),
      );
      const earlier = runs.length;
      const controller = new AbortController();
      const call = client
        .callTool({ name: 'echo', arguments: { prompt: 'long' } }, undefined, { signal: controller.signal })
        .catch((error: Error) => error);
      while (runs.length === earlier) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 200));
      controller.abort();
      expect(await call).toBeInstanceOf(Error);
      const run = runs.at(-1)!;
      const result = await run.result;
      expect(run.signal?.aborted).toBe(true);
      expect(result.success).toBe(false);
      await headend.admission.idle();
    } finally {
      await client.close();
      await server.close();
    }
  });
});
