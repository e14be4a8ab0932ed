import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LATEST_PROTOCOL_VERSION,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHeadend, type ServedHeadend, serve } from '../src/index.js';
import { echoAnswer, type RecordedRun, recording, startAgents, type TestAgents } from './helpers/agents.js';
import { rawInitialize } from './helpers/mcp-raw.js';

let agents: TestAgents;
let server: ServedHeadend;
const runs: RecordedRun[] = [];
/** Resolved by a test to let the model answer the held request. */
let release: (() => void) | undefined;
const released = (): (() => void) => release as () => void;

beforeAll(async () => {
  agents = await startAgents(async (request) => {
    if (JSON.stringify(request.messages).includes('hold')) await new Promise<void>((go) => (release = go));
    return echoAnswer(request);
  });
  server = await serve(createMcpHeadend({ catalog: recording(agents.catalog, runs), allowNoAuth: true }));
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

async function connect(): Promise<Client> {
  const client = new Client({ name: 'streams-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  return client;
}

describe('MCP headend logging capability', () => {
  it('sends the run log as notifications/message at the level the client set, none before', async () => {
    const quiet = await connect();
    const heard: LoggingMessageNotification['params'][] = [];
    quiet.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.push(n.params));
    await quiet.callTool({ name: 'echo', arguments: { prompt: 'one' } });
    expect(heard).toEqual([]);
    await quiet.close();

    const client = await connect();
    expect(client.getServerCapabilities()?.logging).toEqual({});
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.push(n.params));
    expect(await client.setLoggingLevel('debug')).toEqual({});
    await client.callTool({ name: 'echo', arguments: { prompt: 'two' } });
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.some((line) => line.level === 'debug')).toBe(true);
    for (const line of heard) {
      expect(line.logger).toBe('echo');
      expect(typeof (line.data as { message: unknown }).message).toBe('string');
    }

    heard.length = 0;
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'echo', arguments: { prompt: 'three' } });
    const levels = new Set(heard.map((line) => line.level));
    for (const below of ['debug', 'info', 'notice']) expect(levels.has(below as never)).toBe(false);
    await client.close();
  });
});

/** Reads SSE frames from a response body until `until` says stop; returns the frames. */
async function readFrames(response: Response, until: (frame: string) => boolean): Promise<string[]> {
  const reader = (response.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream())
    .getReader();
  const frames: string[] = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return frames;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      frames.push(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (until(frames.at(-1) as string)) {
        await reader.cancel();
        return frames;
      }
      end = buffer.indexOf('\n\n');
    }
  }
}

describe('MCP headend resumable streams (2025-11-25)', () => {
  it('a dropped tool-call stream resumes with Last-Event-ID and the run goes on', async () => {
    const mcpUrl = `${server.url}/mcp`;
    const init = await rawInitialize(mcpUrl);
    const sessionId = init.sessionId as string;
    const headers = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      'mcp-session-id': sessionId,
    };
    await fetch(mcpUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const dropped = new AbortController();
    const before = runs.length;
    const post = await fetch(mcpUrl, {
      method: 'POST',
      headers,
      signal: dropped.signal,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'echo', arguments: { prompt: 'hold on' } },
      }),
    });
    const [priming] = await readFrames(post, () => true);
    expect(priming).toMatch(/^id: \S+\nretry: 1000\ndata: $/m);
    const lastEventId = /^id: (\S+)$/m.exec(priming as string)?.[1] as string;
    dropped.abort();
    while (release === undefined) await new Promise((tick) => setTimeout(tick, 10));
    released()();

    // Until the server has seen the drop, the stream is still taken (409); a client retries.
    let resumed = await fetch(mcpUrl, { headers: { ...headers, 'last-event-id': lastEventId } });
    for (let attempt = 0; resumed.status === 409 && attempt < 50; attempt++) {
      await resumed.text();
      await new Promise((tick) => setTimeout(tick, 20));
      resumed = await fetch(mcpUrl, { headers: { ...headers, 'last-event-id': lastEventId } });
    }
    expect(resumed.status).toBe(200);
    const frames = await readFrames(resumed, (frame) => frame.includes('"id":7'));
    const answer = JSON.parse((frames.at(-1) as string).replace(/^[\s\S]*?data: /, ''));
    expect(answer.result.isError).toBe(false);
    expect(answer.result.content[0].text).toContain('Echo: hold on');
    expect(runs.length).toBe(before + 1);
    expect(runs.at(-1)?.signal?.aborted).toBe(false);
    await fetch(mcpUrl, { method: 'DELETE', headers });
  });

  it('a client of an older revision gets no priming event and its dropped call is cancelled', async () => {
    const mcpUrl = `${server.url}/mcp`;
    const init = await fetch(mcpUrl, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'old', version: '1' },
        },
      }),
    });
    const sessionId = init.headers.get('mcp-session-id') as string;
    await init.text();
    const headers = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
      'mcp-session-id': sessionId,
    };
    release = undefined;
    const before = runs.length;
    const dropped = new AbortController();
    const post = await fetch(mcpUrl, {
      method: 'POST',
      headers,
      signal: dropped.signal,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'echo', arguments: { prompt: 'hold old' } },
      }),
    });
    expect(post.headers.get('content-type')).toContain('text/event-stream');
    while (release === undefined) await new Promise((tick) => setTimeout(tick, 10));
    expect(runs.length).toBe(before + 1);
    dropped.abort();
    const run = runs.at(-1) as RecordedRun;
    const result = await run.result;
    expect(run.signal?.aborted).toBe(true);
    expect(result.success).toBe(false);
    released()();
    await fetch(mcpUrl, { method: 'DELETE', headers });
  });
});
