import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestHeadend, type ServedHeadend, serve } from '../src/index.js';
import { echoAnswer, startAgents, type TestAgents } from './helpers/agents.js';

let agents: TestAgents;
let server: ServedHeadend;
const auth = { authorization: 'Bearer t1', 'content-type': 'application/json' };

beforeAll(async () => {
  agents = await startAgents(echoAnswer, ['echo', 'other']);
  server = await serve(createRestHeadend({ catalog: agents.catalog, tokens: ['t1', 't2'] }));
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

describe('REST headend', () => {
  it('answers health without a token and lists agents with one', async () => {
    const health = await fetch(`${server.url}/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', active: 0 });
    const list = await fetch(`${server.url}/v1/agents`, { headers: auth });
    const body = (await list.json()) as { agents: { name: string; description: string }[] };
    expect(body.agents.map((agent) => agent.name)).toEqual(['echo', 'other']);
    expect(body.agents[0]?.description).toBe('The echo test agent.');
  });

  it('runs an agent and answers the report, success and usage totals', async () => {
    const response = await fetch(`${server.url}/v1/agents/echo/run`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ prompt: 'ping' }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      success: true,
      finalReport: { status: 'success', content: 'Echo: ping' },
      usage: { inputTokens: 10, outputTokens: 5, llmCalls: 1 },
    });
  });

  it('streams the session events as SSE when asked', async () => {
    const response = await fetch(`${server.url}/v1/agents/echo/run`, {
      method: 'POST',
      headers: { ...auth, accept: 'text/event-stream' },
      body: JSON.stringify({ prompt: 'events' }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    const names = [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(names).toContain('turn_started');
    expect(names).toContain('output');
    expect(names).toContain('final_report');
    expect(names.at(-1)).toBe('result');
    expect(text).toContain('Echo: events');
  });

  it('explains a bad format and an unknown agent', async () => {
    const bad = await fetch(`${server.url}/v1/agents/echo/run`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ prompt: 'x', format: 'yaml' }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(
      /"format" must be one of/,
    );
    const missing = await fetch(`${server.url}/v1/agents/ghost/run`, {
      method: 'POST',
      headers: auth,
      body: '{}',
    });
    expect(missing.status).toBe(404);
  });
});
