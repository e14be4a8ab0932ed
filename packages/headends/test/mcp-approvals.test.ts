import { finalReport } from '@agent/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHeadend, type ServedHeadend, serve } from '../src/index.js';
import {
  type ApprovalAgents,
  deployCall,
  lastToolMessages,
  startApprovalAgents,
} from './helpers/approvals.js';

// Issue 16 over MCP (Streamable HTTP, the official SDK client): a client that declared the
// elicitation capability is asked about each call that needs approval and the run goes on in
// the same tools/call; one that did not gets the pending state and the session id, and decides
// with the `resume_session` tool. Real runners, a real stdio MCP tool, real HTTP.
let agents: ApprovalAgents;
let server: ServedHeadend;
const clients: Client[] = [];
const TIMEOUT_MS = 400;

beforeAll(async () => {
  agents = await startApprovalAgents();
  server = await serve(
    createMcpHeadend({ catalog: agents.catalog, tokens: ['mcp-token'], approvalTimeoutMs: TIMEOUT_MS }),
  );
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

type Elicit = Parameters<Parameters<Client['setRequestHandler']>[1]>[1];

/** `received`: every message the client's transport gets from the server, as it arrives. */
async function connect(
  answer?: (message: string, extra: Elicit) => Promise<ElicitResult>,
  received?: JSONRPCMessage[],
): Promise<Client> {
  const client = new Client(
    { name: 'approvals-test', version: '1.0.0' },
    answer === undefined ? {} : { capabilities: { elicitation: {} } },
  );
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => answer(request.params.message, extra));
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: 'Bearer mcp-token' } },
  });
  await client.connect(transport);
  if (received !== undefined) {
    const deliver = transport.onmessage;
    transport.onmessage = (message) => {
      received.push(message);
      deliver?.(message);
    };
  }
  clients.push(client);
  return client;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('MCP approvals with elicitation', () => {
  it('asks the client about the call and, approved, runs it and answers the report in the same call', async () => {
    const questions: string[] = [];
    const client = await connect(async (message) => {
      questions.push(message);
      return { action: 'accept', content: { approve: true } };
    });
    agents.model.push(deployCall('call_e1'), finalReport('Deployed to prod.'));
    const result = await client.callTool({ name: 'deployer', arguments: { prompt: 'Deploy to prod.' } });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe('Deployed to prod.');
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatch(
      /wants to call ops__deploy \{"env":"prod"\} \(call call_e1, session .+\)\. Allow it\?$/,
    );
    expect(lastToolMessages(agents.model)).toEqual(['deployed to prod']);
    expect(agents.deployments().at(-1)?.meta['agent/callId']).toBe('call_e1');
  });

  it('a denial with a reason reaches the model as a tool failure; the tool does not run', async () => {
    const before = agents.deployments().length;
    const client = await connect(async () => ({
      action: 'accept',
      content: { approve: false, reason: 'not today' },
    }));
    agents.model.push(deployCall('call_e2'), finalReport('Not deployed.'));
    const result = await client.callTool({ name: 'deployer', arguments: { prompt: 'Deploy to prod.' } });
    expect(textOf(result)).toBe('Not deployed.');
    expect(lastToolMessages(agents.model)).toEqual(['(tool failed: a person denied this call: not today)']);
    expect(agents.deployments()).toHaveLength(before);
  });

  it('a client that never answers: the question is withdrawn (notifications/cancelled) and the call denied after the approval timeout, saying so', async () => {
    const before = agents.deployments().length;
    const received: JSONRPCMessage[] = [];
    const aborted: (string | number)[] = [];
    const client = await connect(
      (_message, extra) =>
        new Promise<ElicitResult>((_resolve, reject) => {
          extra.signal.addEventListener('abort', () => {
            aborted.push(extra.requestId);
            reject(new Error('cancelled'));
          });
        }),
      received,
    );
    agents.model.push(deployCall('call_e3'), finalReport('Nobody answered.'));
    const result = await client.callTool({ name: 'deployer', arguments: { prompt: 'Deploy to prod.' } });
    expect(textOf(result)).toBe('Nobody answered.');
    expect(lastToolMessages(agents.model)).toEqual([
      `(tool failed: a person denied this call: no decision within ${TIMEOUT_MS} ms)`,
    ]);
    expect(agents.deployments()).toHaveLength(before);
    // The question, then its withdrawal, on the tool call's stream before the tool's result.
    const methods = received.map((m) => ('method' in m ? m.method : 'result' in m ? 'result' : 'error'));
    const asked = received.find((m) => 'method' in m && m.method === 'elicitation/create') as
      | { id: string | number }
      | undefined;
    expect(asked).toBeDefined();
    const cancelled = received.filter((m) => 'method' in m && m.method === 'notifications/cancelled');
    expect(cancelled).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: asked!.id, reason: expect.stringContaining('Request timed out') },
      },
    ]);
    expect(methods.indexOf('elicitation/create')).toBeLessThan(methods.indexOf('notifications/cancelled'));
    expect(methods.indexOf('notifications/cancelled')).toBeLessThan(methods.lastIndexOf('result'));

    // The SDK's client (1.32) drops a cancellation of request id 0, the first question of an MCP
    // session; the next one (id 1) it withdraws: the handler's signal is aborted.
    agents.model.push(deployCall('call_e4'), finalReport('Nobody answered again.'));
    const again = await client.callTool({ name: 'deployer', arguments: { prompt: 'Deploy to prod.' } });
    expect(textOf(again)).toBe('Nobody answered again.');
    expect(asked!.id).toBe(0);
    expect(aborted).toEqual([1]);
  });
});

describe('MCP approvals without elicitation', () => {
  it('answers the pending state and session id; resume_session decides and continues the session', async () => {
    const client = await connect();
    agents.model.push(deployCall('call_r1', 'staging'));
    const paused = (await client.callTool({
      name: 'deployer',
      arguments: { prompt: 'Deploy to staging.' },
    })) as CallToolResult;
    expect(paused.isError).toBeFalsy();
    const state = paused.structuredContent as { sessionId: string };
    expect(state).toMatchObject({
      status: 'awaiting_approval',
      exitCode: 'EXIT-AWAITING-APPROVAL',
      pendingApprovals: [{ callId: 'call_r1', tool: 'ops__deploy', arguments: { env: 'staging' } }],
    });
    expect(textOf(paused)).toContain(`Session ${state.sessionId} is waiting for approval of this call:`);
    expect(textOf(paused)).toContain('- call_r1: ops__deploy {"env":"staging"}');
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(['deployer', 'lead', 'resume_session']);

    const wrongCall = await client.callTool({
      name: 'resume_session',
      arguments: { sessionId: state.sessionId, decisions: { call_nope: { approved: true } } },
    });
    expect(wrongCall.isError).toBe(true);
    expect(textOf(wrongCall)).toBe(
      `"call_nope" is not a pending call of session "${state.sessionId}"; it waits for call_r1`,
    );
    const wrongSession = await client.callTool({
      name: 'resume_session',
      arguments: { sessionId: 'no-such-session', decisions: { call_r1: { approved: true } } },
    });
    expect(wrongSession.isError).toBe(true);
    expect(textOf(wrongSession)).toBe(
      'no session "no-such-session" (never stored, or expired: a finished session is kept for sessions.ttl, an unfinished one at least 30 days)',
    );

    agents.model.push(finalReport('Deployed to staging.'));
    const resumed = await client.callTool({
      name: 'resume_session',
      arguments: { sessionId: state.sessionId, decisions: { call_r1: { approved: true } } },
    });
    expect(resumed.isError).toBe(false);
    expect(textOf(resumed)).toBe('Deployed to staging.');
    expect(agents.deployments().at(-1)).toMatchObject({
      arguments: { env: 'staging' },
      meta: { 'agent/callId': 'call_r1' },
    });
    const twice = await client.callTool({
      name: 'resume_session',
      arguments: { sessionId: state.sessionId, decisions: { call_r1: { approved: true } } },
    });
    expect(textOf(twice)).toMatch(/waits for no approval: it finished/);
  });
});

it('refuses an approval timeout that is not a positive number of milliseconds', () => {
  expect(() => createMcpHeadend({ catalog: agents.catalog, tokens: ['t'], approvalTimeoutMs: 0 })).toThrow(
    'mcp headend: approvalTimeoutMs must be a positive number of milliseconds, not 0',
  );
});
