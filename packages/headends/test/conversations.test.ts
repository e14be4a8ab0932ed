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
  serve,
} from '../src/index.js';
import { echoAnswer, startAgents, type TestAgents } from './helpers/agents.js';

// Issue 16, conversations on every face: REST `conversationId`, OpenAI `metadata.conversation_id`,
// Anthropic's `x-agent-conversation-id` header, the MCP tool's `conversationId` argument. The
// second run of a conversation sends the model the first run's prompt and report.
let agents: TestAgents;
const servers: Record<'rest' | 'openai' | 'anthropic' | 'mcp', ServedHeadend> = {} as never;

beforeAll(async () => {
  agents = await startAgents(echoAnswer);
  const catalog = agents.catalog;
  servers.rest = await serve(createRestHeadend({ catalog, tokens: ['t'] }));
  servers.openai = await serve(createOpenAiHeadend({ catalog, tokens: ['t'] }));
  servers.anthropic = await serve(createAnthropicHeadend({ catalog, tokens: ['t'] }));
  servers.mcp = await serve(createMcpHeadend({ catalog, tokens: ['t'] }));
});

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()));
  await agents.close();
});

/** The user and assistant texts the model got in the last request, without the turn notice. */
function lastDialogue(): string[] {
  const request = agents.model.requests.at(-1)!;
  return request.messages
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => `${m.role}: ${String(m.content)}`)
    .filter((line) => !line.startsWith('user: # XML-NEXT'));
}

const restRun = (body: object) =>
  fetch(`${servers.rest.url}/v1/agents/echo/run`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('conversations on the headends', () => {
  it('REST: conversationId in the body brings back the earlier prompt and report', async () => {
    expect((await restRun({ prompt: 'first over rest', conversationId: 'rest-1' })).status).toBe(200);
    const second = await restRun({ prompt: 'second over rest', conversationId: 'rest-1' });
    expect(((await second.json()) as { success: boolean }).success).toBe(true);
    expect(lastDialogue()).toEqual([
      'user: first over rest',
      'assistant: Echo: first over rest',
      'user: second over rest',
    ]);
  });

  it('REST: a bad conversationId is a 400 that says what is allowed, and runs nothing', async () => {
    const before = agents.model.requests.length;
    const response = await restRun({ prompt: 'x', conversationId: '../../etc' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      '"conversationId": "../../etc" is not a conversation id (1-128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit)',
    );
    expect(agents.model.requests.length).toBe(before);
  });

  it('OpenAI face (official client): metadata.conversation_id', async () => {
    const client = new OpenAI({ baseURL: `${servers.openai.url}/v1`, apiKey: 't', maxRetries: 0 });
    const ask = (content: string) =>
      client.chat.completions.create({
        model: 'echo',
        messages: [{ role: 'user', content }],
        metadata: { conversation_id: 'openai-1' },
      });
    await ask('first over openai');
    const second = await ask('second over openai');
    expect(second.choices[0]?.message.content).toBe('Echo: second over openai');
    expect(lastDialogue()).toEqual([
      'user: first over openai',
      'assistant: Echo: first over openai',
      'user: second over openai',
    ]);
    const bad = await client.chat.completions
      .create({
        model: 'echo',
        messages: [{ role: 'user', content: 'x' }],
        metadata: { conversation_id: 'a b' },
      })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as Error).message).toContain('metadata.conversation_id: "a b" is not a conversation id');
  });

  it('Anthropic face (official client): the x-agent-conversation-id header', async () => {
    const client = new Anthropic({ baseURL: servers.anthropic.url, apiKey: 't', maxRetries: 0 });
    const ask = (content: string, conversation = 'anthropic-1') =>
      client.messages.create(
        { model: 'echo', max_tokens: 100, messages: [{ role: 'user', content }] },
        { headers: { 'x-agent-conversation-id': conversation } },
      );
    await ask('first over anthropic');
    await ask('second over anthropic');
    expect(lastDialogue()).toEqual([
      'user: first over anthropic',
      'assistant: Echo: first over anthropic',
      'user: second over anthropic',
    ]);
    const bad = await ask('x', 'x'.repeat(129)).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
    expect((bad as Error).message).toContain('x-agent-conversation-id: ');
    expect((bad as Error).message).toContain('is not a conversation id (1-128 letters');
  });

  it('MCP tool (SDK client): the optional conversationId argument', async () => {
    const client = new Client({ name: 'conversations-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${servers.mcp.url}/mcp`), {
        requestInit: { headers: { authorization: 'Bearer t' } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools[0]?.inputSchema.properties).toHaveProperty('conversationId');
      const call = (prompt: string, conversationId: string) =>
        client.callTool({ name: 'echo', arguments: { prompt, conversationId } });
      await call('first over mcp', 'mcp-1');
      const second = await call('second over mcp', 'mcp-1');
      expect(second.content).toEqual([{ type: 'text', text: 'Echo: second over mcp' }]);
      expect(lastDialogue()).toEqual([
        'user: first over mcp',
        'assistant: Echo: first over mcp',
        'user: second over mcp',
      ]);
      const bad = await call('x', 'no/slashes');
      expect(bad.isError).toBe(true);
      expect(bad.content).toEqual([
        {
          type: 'text',
          text: '"conversationId": "no/slashes" is not a conversation id (1-128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit)',
        },
      ]);
    } finally {
      await client.close();
    }
  });
});
