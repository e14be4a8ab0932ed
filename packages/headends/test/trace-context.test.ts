import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAnthropicHeadend,
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type ServedHeadend,
  serve,
} from '../src/index.js';
import { echoAnswer, startAgents, type TestAgents } from './helpers/agents.js';

// Each face hands the request's traceparent to the run: the session span (made by the real
// runtime under a registered tracer provider) has the caller's trace id and span as parent.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let agents: TestAgents;
const servers: Record<string, ServedHeadend> = {};
const auth = { authorization: 'Bearer k' };

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  agents = await startAgents(echoAnswer, ['echo']);
  const options = { catalog: agents.catalog, tokens: ['k'] };
  servers.rest = await serve(createRestHeadend(options));
  servers.openai = await serve(createOpenAiHeadend(options));
  servers.anthropic = await serve(createAnthropicHeadend(options));
  servers.mcp = await serve(createMcpHeadend(options));
});

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()));
  await agents?.close();
  await provider.shutdown();
  trace.disable();
  context.disable();
});

let counter = 0;
/** A fresh remote parent: its ids and header. */
function parent() {
  counter++;
  const traceId = counter.toString(16).padStart(32, 'a');
  const spanId = counter.toString(16).padStart(16, 'b');
  return { traceId, spanId, header: `00-${traceId}-${spanId}-01` };
}

function sessionSpanOf(traceId: string): ReadableSpan | undefined {
  return exporter
    .getFinishedSpans()
    .find((s) => s.name === 'invoke_agent echo' && s.spanContext().traceId === traceId);
}

function expectContinued(p: ReturnType<typeof parent>) {
  const span = sessionSpanOf(p.traceId);
  expect(span, `no session span in trace ${p.traceId}`).toBeDefined();
  expect(span?.parentSpanContext?.spanId).toBe(p.spanId);
  expect(span?.parentSpanContext?.isRemote).toBe(true);
}

const json = (body: unknown, traceparent?: string) => ({
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json', ...(traceparent ? { traceparent } : {}) },
  body: JSON.stringify(body),
});

describe('traceparent through each face (in-process, in-memory exporter)', () => {
  it('REST run and /api/chat', async () => {
    const run = parent();
    expect(
      (await fetch(`${servers.rest!.url}/v1/agents/echo/run`, json({ prompt: 'hi' }, run.header))).status,
    ).toBe(200);
    expectContinued(run);
    const chat = parent();
    const response = await fetch(
      `${servers.rest!.url}/api/chat`,
      json(
        { agent: 'echo', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] },
        chat.header,
      ),
    );
    expect(response.status).toBe(200);
    await response.text();
    expectContinued(chat);
  });

  it('OpenAI chat completions and Anthropic messages', async () => {
    const openai = parent();
    const completion = await fetch(
      `${servers.openai!.url}/v1/chat/completions`,
      json({ model: 'echo', messages: [{ role: 'user', content: 'hi' }] }, openai.header),
    );
    expect(completion.status).toBe(200);
    expectContinued(openai);
    const anthropic = parent();
    const message = await fetch(
      `${servers.anthropic!.url}/v1/messages`,
      json({ model: 'echo', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }, anthropic.header),
    );
    expect(message.status).toBe(200);
    expectContinued(anthropic);
  });

  it('MCP: the HTTP header, or the call’s _meta.traceparent', async () => {
    const viaHeader = parent();
    const client = new Client({ name: 'trace-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${servers.mcp!.url}/mcp`), {
        requestInit: { headers: { ...auth, traceparent: viaHeader.header } },
      }),
    );
    await client.callTool({ name: 'echo', arguments: { prompt: 'hi' } });
    await client.close();
    expectContinued(viaHeader);

    const viaMeta = parent();
    const plain = new Client({ name: 'trace-test', version: '1.0.0' });
    await plain.connect(
      new StreamableHTTPClientTransport(new URL(`${servers.mcp!.url}/mcp`), {
        requestInit: { headers: auth },
      }),
    );
    await plain.callTool({
      name: 'echo',
      arguments: { prompt: 'hi' },
      _meta: { traceparent: viaMeta.header },
    });
    await plain.close();
    expectContinued(viaMeta);
  });

  it('a malformed traceparent is ignored: the run starts a trace of its own', async () => {
    const before = new Set(exporter.getFinishedSpans().map((s) => s.spanContext().traceId));
    const response = await fetch(
      `${servers.rest!.url}/v1/agents/echo/run`,
      json({ prompt: 'hi' }, '00-not-a-trace-01'),
    );
    expect(response.status).toBe(200);
    const fresh = exporter
      .getFinishedSpans()
      .filter((s) => s.name === 'invoke_agent echo' && !before.has(s.spanContext().traceId));
    expect(fresh).toHaveLength(1);
    expect(fresh[0]?.parentSpanContext).toBeUndefined();
  });
});
