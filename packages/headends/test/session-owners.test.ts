import { finalReport } from '@agent/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type ServedHeadend,
  serve,
} from '../src/index.js';
import { type ApprovalAgents, deployCall, startApprovalAgents } from './helpers/approvals.js';

// Issue 35: Alice's run pauses on an approval-gated deploy; Bob, with another valid token, must
// not read it, decide it or continue her conversations, on any face. Unknown ids and other
// clients' ids get the same 404, so ids cannot be probed. An operator token sees and decides all.
let agents: ApprovalAgents;
let rest: ServedHeadend;
let mcp: ServedHeadend;
let openai: ServedHeadend;
const clients: Client[] = [];
const tokens = { tokens: ['alice-token', 'bob-token'], operatorTokens: ['ops-token'] };

beforeAll(async () => {
  agents = await startApprovalAgents();
  rest = await serve(createRestHeadend({ catalog: agents.catalog, ...tokens }));
  mcp = await serve(createMcpHeadend({ catalog: agents.catalog, ...tokens }));
  openai = await serve(createOpenAiHeadend({ catalog: agents.catalog, ...tokens }));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  await Promise.all([rest.close(), mcp.close(), openai.close()]);
  await agents.close();
});

const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

function post(token: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${rest.url}${path}`, { method: 'POST', headers: headers(token), body: JSON.stringify(body) });
}

function getSession(token: string, id: string): Promise<Response> {
  return fetch(`${rest.url}/v1/sessions/${encodeURIComponent(id)}`, { headers: headers(token) });
}

/** Alice's deploy to prod, paused for approval: its session id. */
async function alicePaused(callId: string): Promise<string> {
  agents.model.push(deployCall(callId, 'prod'));
  const response = await post('alice-token', '/v1/agents/deployer/run', { prompt: 'Deploy to prod.' });
  const body = (await response.json()) as { exitCode: string; sessionId: string };
  expect(body.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  return body.sessionId;
}

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'owners-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${mcp.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

/** What a 404 says without the session id in it: Bob's answer must be this, word for word. */
async function unknownAnswer(response: Response, id: string): Promise<string> {
  expect(response.status).toBe(404);
  return JSON.stringify(await response.json())
    .split(id)
    .join('<id>');
}

describe('sessions belong to the token that started them', () => {
  it('Bob gets the same 404 as for an unknown id on GET and on approvals; the deploy never runs', async () => {
    const id = await alicePaused('call_o1');
    const unknown = await unknownAnswer(await getSession('bob-token', 'no-such-session'), 'no-such-session');

    expect(await unknownAnswer(await getSession('bob-token', id), id)).toBe(unknown);
    const decided = await post('bob-token', `/v1/sessions/${id}/approvals`, {
      decisions: { call_o1: { approved: true } },
    });
    expect(await unknownAnswer(decided, id)).toBe(unknown);
    expect(agents.deployments()).toEqual([]);

    // Alice still sees and decides her own session.
    const own = await getSession('alice-token', id);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({
      status: 'awaiting_approval',
      pendingApprovals: [{ callId: 'call_o1', arguments: { env: 'prod' } }],
    });
    agents.model.push(finalReport('Deployed.'));
    const approved = await post('alice-token', `/v1/sessions/${id}/approvals`, {
      decisions: { call_o1: { approved: true } },
    });
    expect(approved.status).toBe(200);
    expect(agents.deployments().map((call) => call.arguments)).toEqual([{ env: 'prod' }]);
  });

  it("Bob's MCP resume_session answers like an unknown session and runs nothing", async () => {
    const before = agents.deployments().length;
    const id = await alicePaused('call_o2');
    const bob = await mcpClient('bob-token');
    const unknown = await bob.callTool({
      name: 'resume_session',
      arguments: { sessionId: 'no-such-session', decisions: { call_o2: { approved: true } } },
    });
    const taken = await bob.callTool({
      name: 'resume_session',
      arguments: { sessionId: id, decisions: { call_o2: { approved: true } } },
    });
    expect(taken.isError).toBe(true);
    expect(textOf(taken).split(id).join('<id>')).toBe(textOf(unknown).split('no-such-session').join('<id>'));
    expect(agents.deployments().length).toBe(before);
  });

  it('a session started over MCP is hidden from another token over REST', async () => {
    const alice = await mcpClient('alice-token');
    agents.model.push(deployCall('call_o3', 'staging'));
    const paused = (await alice.callTool({
      name: 'deployer',
      arguments: { prompt: 'Deploy to staging.' },
    })) as CallToolResult;
    const id = (paused.structuredContent as { sessionId: string }).sessionId;
    expect((await getSession('bob-token', id)).status).toBe(404);
    expect((await getSession('alice-token', id)).status).toBe(200);
  });

  it('an operator token reads and decides any session', async () => {
    const before = agents.deployments().length;
    const id = await alicePaused('call_o4');
    const shown = await getSession('ops-token', id);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({ status: 'awaiting_approval' });
    agents.model.push(finalReport('Deployed by ops.'));
    const approved = await post('ops-token', `/v1/sessions/${id}/approvals`, {
      decisions: { call_o4: { approved: true } },
    });
    expect(approved.status).toBe(200);
    expect(agents.deployments().length).toBe(before + 1);
    // The session stays Alice's: Bob still cannot read it.
    expect((await getSession('bob-token', id)).status).toBe(404);
    expect((await getSession('alice-token', id)).status).toBe(200);
  });
});

describe('conversations belong to the token that started them', () => {
  const lastPrompt = () => JSON.stringify(agents.model.requests.at(-1)?.messages ?? []);

  it("Bob naming Alice's conversation id starts his own: her history never reaches his run", async () => {
    agents.model.push(finalReport('Noted: the launch code is 4242.'));
    const first = await post('alice-token', '/v1/agents/deployer/run', {
      prompt: 'Remember the launch code 4242.',
      conversationId: 'plans',
    });
    expect(first.status).toBe(200);
    agents.model.push(finalReport('Nothing known.'));
    await post('bob-token', '/v1/agents/deployer/run', {
      prompt: 'What is the code?',
      conversationId: 'plans',
    });
    expect(lastPrompt()).toContain('What is the code?');
    expect(lastPrompt()).not.toContain('4242');
    // Over the OpenAI face too (`metadata.conversation_id`).
    agents.model.push(finalReport('Nothing known.'));
    await fetch(`${openai.url}/v1/chat/completions`, {
      method: 'POST',
      headers: headers('bob-token'),
      body: JSON.stringify({
        model: 'deployer',
        metadata: { conversation_id: 'plans' },
        messages: [{ role: 'user', content: 'The code?' }],
      }),
    });
    expect(lastPrompt()).toContain('The code?');
    expect(lastPrompt()).not.toContain('4242');
    // Alice continues hers.
    agents.model.push(finalReport('It is 4242.'));
    await post('alice-token', '/v1/agents/deployer/run', { prompt: 'The code?', conversationId: 'plans' });
    expect(lastPrompt()).toContain('4242');
  });
});
