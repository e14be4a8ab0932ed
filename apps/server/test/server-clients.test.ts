import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentDir,
  agentDir,
  finalReport,
  lastUserText,
  type RunningServer,
  startServer,
} from './helpers.js';

let agents: AgentDir;
let server: RunningServer;

beforeAll(async () => {
  agents = await agentDir((request) => ({
    reasoning: { text: 'Hmm.' },
    text: finalReport(`Echo: ${lastUserText(request.messages)}`),
    usage: { inputTokens: 4, outputTokens: 2 },
  }));
  server = await startServer(
    [
      '--agent',
      agents.files[0]!,
      '--api',
      '0',
      '--openai',
      '0',
      '--anthropic',
      '0',
      '--mcp',
      'http:0',
      '--token',
      'tok',
    ],
    agents.dir,
    4,
  );
});

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await agents?.close();
});

describe('agent-server with the official clients', () => {
  it('prints one listening line per headend', () => {
    expect(Object.keys(server.urls).sort()).toEqual(['anthropic', 'mcp', 'openai', 'rest']);
  });

  it('serves OpenAI chat completions, streaming and not', async () => {
    const client = new OpenAI({ baseURL: server.urls.openai, apiKey: 'tok', maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: 'one' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: one');
    const stream = await client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: 'two' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Echo: two');
  });

  it('serves Anthropic messages, streaming and not', async () => {
    const base = server.urls.anthropic!;
    const client = new Anthropic({ baseURL: base, apiKey: 'tok', maxRetries: 0 });
    const message = await client.messages.create({
      model: 'echo',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'three' }],
    });
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Echo: three' });
    const streamed = await client.messages
      .stream({ model: 'echo', max_tokens: 100, messages: [{ role: 'user', content: 'four' }] })
      .finalMessage();
    expect(streamed.content.map((block) => block.type)).toEqual(['thinking', 'text']);
  });

  it('serves the agent as an MCP tool with progress', async () => {
    const client = new Client({ name: 'server-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.urls.mcp!), {
        requestInit: { headers: { authorization: 'Bearer tok' } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'resume_session']);
    let updates = 0;
    const result = await client.callTool({ name: 'echo', arguments: { prompt: 'five' } }, undefined, {
      onprogress: () => {
        updates += 1;
      },
    });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: five' }]);
    expect(updates).toBeGreaterThan(0);
    await client.close();
  });

  it('answers REST runs and refuses a missing token', async () => {
    const run = await fetch(`${server.urls.rest}/echo/run`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'six' }),
    });
    expect(await run.json()).toMatchObject({ success: true, finalReport: { content: 'Echo: six' } });
    const anonymous = await fetch(`${server.urls.rest}`);
    expect(anonymous.status).toBe(401);
  });
});
