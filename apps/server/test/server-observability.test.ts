import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ModelServer,
  type ReceivedSpan,
  receivedTree,
  type ScriptedAnswer,
  startModelServer,
  startOtlpReceiver,
  toolCalls,
} from '@agent/testkit';
import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalReport, type RunningServer, sample, startServer } from './helpers.js';

// @agent/mcp's stdio fault fixture: its `hang` tool never answers, so the agent's toolTimeout fails it.
const FAULT_SERVER = fileURLToPath(
  new URL('../../../packages/mcp/test/fixtures/fault-server.mjs', import.meta.url),
);

const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
const TRACE = {
  rest: ['11111111111111111111111111111111', '1111111111111111'],
  openai: ['22222222222222222222222222222222', '2222222222222222'],
  anthropic: ['33333333333333333333333333333333', '3333333333333333'],
  mcp: ['44444444444444444444444444444444', '4444444444444444'],
} as const;

/** Each model name is one role with its own queue of answers. */
function roleHandler(roles: Record<string, ScriptedAnswer[]>) {
  return async (request: { model: string }) => {
    const answer = roles[request.model]?.shift();
    if (answer === undefined) throw new Error(`no answer planned for ${request.model}`);
    return answer;
  };
}

const usage = { inputTokens: 10, outputTokens: 5, cachedTokens: 4 };
const final = (text: string): ScriptedAnswer => ({ text: finalReport(text), usage });

let dir: string;
let model: ModelServer;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let server: RunningServer;
let metricsUrl: string;
let spans: ReceivedSpan[];
let metricsText: string;

beforeAll(async () => {
  model = await startModelServer({
    handler: roleHandler({
      'parent-model': [
        { ...toolCalls(['agent__counter', { prompt: 'Count: a, b, c.' }], ['f__hang']), usage },
        final('There are 3.'),
      ],
      'child-model': [final('3')],
      'echo-model': [final('one'), final('two'), final('three')],
    }),
  });
  receiver = await startOtlpReceiver();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-server-otel-')));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } },
      mcpServers: { f: { type: 'stdio', command: process.execPath, args: [FAULT_SERVER] } },
      telemetry: { otlp: { endpoint: receiver.url, headers: { 'x-collector-key': 'collector-secret-1' } } },
    }),
  );
  const agent = (name: string, frontmatter: string) =>
    writeFileSync(join(dir, `${name}.ai`), `---\n${frontmatter}\n---\nYou are ${name}.\n`);
  agent(
    'parent',
    'description: Delegates.\nmodels: [local/parent-model]\ntools: [f]\nagents: [./counter.ai]\ntoolTimeout: 500',
  );
  agent('counter', 'description: Counts.\nmodels: [local/child-model]');
  agent('echo', 'description: Echoes.\nmodels: [local/echo-model]');
  server = await startServer(
    [
      '--agent',
      join(dir, 'parent.ai'),
      '--agent',
      join(dir, 'echo.ai'),
      '--api',
      '0',
      '--openai',
      '0',
      '--anthropic',
      '0',
      '--mcp',
      'http:0',
      '--metrics',
      '0',
      '--token',
      'tok',
    ],
    dir,
    5,
  );
  metricsUrl = server.urls.metrics ?? '';

  // One run through each face, each continuing a trace of its own.
  const rest = await fetch(`${server.urls.rest}/parent/run`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer tok',
      'content-type': 'application/json',
      traceparent: traceparent(...TRACE.rest),
    },
    body: JSON.stringify({ prompt: 'How many?' }),
  });
  expect(rest.status).toBe(200);
  const openai = new OpenAI({ baseURL: server.urls.openai, apiKey: 'tok', maxRetries: 0 });
  await openai.chat.completions.create(
    { model: 'echo', messages: [{ role: 'user', content: 'one' }] },
    { headers: { traceparent: traceparent(...TRACE.openai) } },
  );
  const anthropic = new Anthropic({ baseURL: server.urls.anthropic, apiKey: 'tok', maxRetries: 0 });
  await anthropic.messages.create(
    { model: 'echo', max_tokens: 100, messages: [{ role: 'user', content: 'two' }] },
    { headers: { traceparent: traceparent(...TRACE.anthropic) } },
  );
  const mcp = new Client({ name: 'test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(server.urls.mcp!), {
      requestInit: { headers: { authorization: 'Bearer tok', traceparent: traceparent(...TRACE.mcp) } },
    }),
  );
  await mcp.callTool({ name: 'echo', arguments: { prompt: 'three' } });
  await mcp.close();

  metricsText = await (await fetch(metricsUrl)).text();
  // SIGTERM: the server drains, then exports the spans it still holds before it exits.
  server.child.kill('SIGTERM');
  await server.exited;
  spans = receiver.spans;
}, 120_000);

afterAll(async () => {
  if (server !== undefined && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  await receiver?.close();
  await model?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function sessionSpan(traceId: string, agent: string): ReceivedSpan {
  const span = spans.find((s) => s.traceId === traceId && s.name === `invoke_agent ${agent}`);
  if (span === undefined) throw new Error(`no invoke_agent ${agent} span in trace ${traceId}`);
  return span;
}

describe('agent-server: OTLP/HTTP export (a loopback receiver) and traceparent through each face', () => {
  it('says where traces go without the header values, and the receiver got them with the configured header', () => {
    expect(server.stderr()).toContain(`agent-server: traces go to ${receiver.url}/v1/traces (OTLP/HTTP)`);
    expect(server.stderr()).not.toContain('collector-secret-1');
    expect(receiver.headers.length).toBeGreaterThan(0);
    expect(receiver.headers.every((h) => h['x-collector-key'] === 'collector-secret-1')).toBe(true);
    expect(new Set(spans.map((s) => s.serviceName))).toEqual(new Set(['agent-server']));
  });

  it('the REST run: session -> turn -> LLM / tool calls -> the sub-agent session, the failed tool an error', () => {
    expect(receivedTree(spans, TRACE.rest[0])).toEqual([
      'invoke_agent parent',
      '  turn 1',
      '    chat parent-model',
      '    execute_tool agent__counter',
      '      invoke_agent counter',
      '        turn 1',
      '          chat child-model',
      '    execute_tool f__hang [ERROR]',
      '  turn 2',
      '    chat parent-model',
    ]);
    const failed = spans.find((s) => s.traceId === TRACE.rest[0] && s.name === 'execute_tool f__hang');
    expect(failed?.attributes).toMatchObject({ 'error.type': 'timeout', 'gen_ai.tool.name': 'f__hang' });
    expect(failed?.events).toEqual(['exception']);
    const chat = spans.find((s) => s.traceId === TRACE.rest[0] && s.name === 'chat child-model');
    expect(chat?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'local',
      'gen_ai.request.model': 'child-model',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
    });
  });

  it.each(Object.entries(TRACE))(
    '%s: the session span continues the incoming trace under its span',
    (face, [traceId, spanId]) => {
      const agent = face === 'rest' ? 'parent' : 'echo';
      const session = sessionSpan(traceId, agent);
      expect(session.parentSpanId).toBe(spanId);
      expect(session.attributes['gen_ai.agent.name']).toBe(agent);
    },
  );
});

/** The value of one sample of the exposition text, by metric name and labels. */
describe('agent-server --metrics: a scrape of /metrics after the runs', () => {
  it('counts LLM requests, tokens, tool calls and errors by label', () => {
    const m = (name: string, labels: Record<string, string>) => sample(metricsText, name, labels);
    expect(m('agent_llm_requests_total', { provider: 'local', model: 'parent-model', status: 'ok' })).toBe(2);
    expect(m('agent_llm_requests_total', { provider: 'local', model: 'child-model', status: 'ok' })).toBe(1);
    expect(m('agent_llm_requests_total', { provider: 'local', model: 'echo-model', status: 'ok' })).toBe(3);
    expect(m('agent_llm_tokens_total', { provider: 'local', model: 'echo-model', type: 'input' })).toBe(30);
    expect(m('agent_llm_tokens_total', { provider: 'local', model: 'echo-model', type: 'output' })).toBe(15);
    expect(m('agent_llm_tokens_total', { provider: 'local', model: 'echo-model', type: 'cached' })).toBe(12);
    expect(m('agent_llm_request_duration_seconds_count', { provider: 'local', model: 'parent-model' })).toBe(
      2,
    );
    expect(m('agent_tool_calls_total', { server: 'f', tool: 'f__hang', status: 'failed' })).toBe(1);
    expect(m('agent_tool_errors_total', { server: 'f', tool: 'f__hang', error: 'timeout' })).toBe(1);
    expect(m('agent_tool_calls_total', { server: 'counter', tool: 'agent__counter', status: 'ok' })).toBe(1);
    expect(m('agent_tool_call_duration_seconds_count', { server: 'f', tool: 'f__hang' })).toBe(1);
  });

  it('counts final reports, finished sessions, queue waits, and shows nothing in flight or waiting after them', () => {
    const m = (name: string, labels: Record<string, string>) => sample(metricsText, name, labels);
    expect(
      m('agent_final_reports_total', { status: 'success', format: 'markdown', source: 'declared' }),
    ).toBe(4);
    expect(m('agent_sessions_total', { agent: 'echo', exit_code: 'EXIT-FINAL-ANSWER' })).toBe(3);
    expect(m('agent_sessions_total', { agent: 'parent', exit_code: 'EXIT-FINAL-ANSWER' })).toBe(1);
    expect(m('agent_sessions_in_flight', { agent: 'echo' })).toBe(0);
    expect(m('agent_queue_in_use', { headend: 'rest' })).toBe(0);
    expect(m('agent_queue_depth', { headend: 'openai' })).toBe(0);
    // One admitted request per face: each waited (0 s or more) once.
    for (const headend of ['rest', 'openai', 'anthropic', 'mcp'])
      expect(m('agent_queue_wait_seconds_count', { headend })).toBe(1);
    expect(metricsText).toContain('# TYPE agent_context_guard_events_total counter');
  });
});
