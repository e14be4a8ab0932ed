import type { SessionSnapshot } from '@agent/protocol';
import { finalReport } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { argumentsHash, defineAgent, resume, run, tool } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';
import { DEPLOY_STEPS, deployAgent } from './deploy-agent.js';
import { agentOn, NONCE, sent, serve, servers } from './five-turns.js';

// Issue 16: tool calls a person decides. With an approver the call waits for the answer;
// without one the session pauses (EXIT-AWAITING-APPROVAL) and resumes with the decision.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const STEPS = DEPLOY_STEPS;

const toolMessage = (messages: readonly { role: string; content: string }[]) =>
  messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('with an approver', () => {
  test('an approved call runs; the approver saw the tool, its arguments and the session', async () => {
    const server = await serve(STEPS);
    const ran: string[] = [];
    const asked: unknown[] = [];
    const result = await run(deployAgent(server, ran), 'Deploy it.', {
      internal: { nonce: NONCE },
      sessionId: 'sess-approve',
      approver: (request) => {
        asked.push(request);
        return { approved: true };
      },
    });
    expect(result.success).toBe(true);
    expect(ran).toEqual(['prod']);
    expect(asked).toEqual([
      {
        callId: 'call_d1',
        tool: 'deploy',
        arguments: { env: 'prod' },
        argumentsHash: argumentsHash({ env: 'prod' }),
        sessionId: 'sess-approve',
        agentPath: 'main',
      },
    ]);
    expect(toolMessage(server.requests[1]!.messages)).toEqual(['deployed to prod']);
  });

  test('a denied call never runs; the model gets a tool failure with the reason', async () => {
    const server = await serve(STEPS);
    const ran: string[] = [];
    const result = await run(deployAgent(server, ran), 'Deploy it.', {
      internal: { nonce: NONCE },
      approver: () => ({ approved: false, reason: 'not on a Friday' }),
    });
    expect(ran).toEqual([]);
    expect(toolMessage(server.requests[1]!.messages)).toEqual([
      '(tool failed: a person denied this call: not on a Friday)',
    ]);
    expect(result.logs.some((l) => l.message === 'call call_d1 (deploy) denied: not on a Friday')).toBe(true);
    expect(result.accounting.find((e) => e.type === 'tool' && e.command === 'deploy')).toMatchObject({
      status: 'failed',
      error: 'denied',
    });
  });

  test('an approver that does not answer in time denies the call, saying so', async () => {
    const server = await serve(STEPS);
    const ran: string[] = [];
    await run(deployAgent(server, ran), 'Deploy it.', {
      internal: { nonce: NONCE },
      approvalTimeoutMs: 20,
      approver: () => new Promise(() => {}),
    });
    expect(ran).toEqual([]);
    expect(toolMessage(server.requests[1]!.messages)).toEqual([
      '(tool failed: a person denied this call: no decision within 20 ms)',
    ]);
  });

  test('an approvalTimeoutMs that is not a positive integer a timer can wait is refused before any model call', async () => {
    const server = await serve(STEPS);
    for (const bad of [0, 2.5, 3_000_000_000]) {
      const result = await run(deployAgent(server, []), 'Deploy it.', {
        internal: { nonce: NONCE },
        approvalTimeoutMs: bad,
        approver: () => ({ approved: true }),
      });
      expect(result.exitCode).toBe('EXIT-CONFIGURATION');
      expect(result.error).toContain(
        `approvalTimeoutMs must be a positive integer of milliseconds up to 2147483647, got ${bad}`,
      );
    }
    expect(server.requests).toHaveLength(0);
  });

  test('a call the rule does not pick runs without asking', async () => {
    const server = await serve([
      { text: 'Staging.', toolCalls: [{ id: 'c1', name: 'deploy', arguments: { env: 'staging' } }] },
      finalReport('Done.'),
    ]);
    const ran: string[] = [];
    let asked = 0;
    await run(deployAgent(server, ran), 'Deploy to staging.', {
      internal: { nonce: NONCE },
      approver: () => {
        asked++;
        return { approved: false };
      },
    });
    expect(ran).toEqual(['staging']);
    expect(asked).toBe(0);
  });
});

describe('without an approver the session pauses', () => {
  test('paused, then resumed with an approval: the calls run once and the model gets what a live approval gives', async () => {
    const live = await serve(STEPS);
    await run(deployAgent(live, []), 'Deploy it.', {
      internal: { nonce: NONCE },
      approver: () => ({ approved: true }),
    });

    const first = await serve(STEPS.slice(0, 1));
    const ran: string[] = [];
    const stored: SessionSnapshot[] = [];
    const paused = await run(deployAgent(first, ran), 'Deploy it.', {
      internal: { nonce: NONCE },
      onCheckpoint: (snapshot) => {
        stored.push(JSON.parse(JSON.stringify(snapshot)));
      },
    });
    expect(paused.success).toBe(false);
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    expect(paused.error).toBe('awaiting approval of 1 tool call: call_d1 (deploy)');
    expect(paused.success ? undefined : paused.pendingApprovals).toEqual([
      {
        callId: 'call_d1',
        tool: 'deploy',
        arguments: { env: 'prod' },
        argumentsHash: argumentsHash({ env: 'prod' }),
      },
    ]);
    expect(ran).toEqual([]);
    expect(stored.at(-1)?.status).toBe('awaiting_approval');
    const snapshot = paused.success ? undefined : paused.snapshot;
    expect(snapshot?.sessionId).toBe(paused.sessionId);

    const second = await serve(STEPS.slice(1));
    const resumed = await resume(deployAgent(second, ran), stored.at(-1)!, {
      approvals: { call_d1: { approved: true } },
    });
    expect(resumed.success, resumed.error).toBe(true);
    expect(ran).toEqual(['prod']);
    expect(second.requests.map(sent)).toEqual(live.requests.slice(1).map(sent));
  });

  test('needsApproval: true (the boolean form): the call waits for a decision and nothing of its answer runs; approved, it runs once', async () => {
    const first = await serve([
      {
        text: 'Both.',
        toolCalls: [
          { id: 'call_r1', name: 'restart', arguments: { service: 'api' } },
          { id: 'call_w1', name: 'weather', arguments: { city: 'Oslo' } },
        ],
      },
    ]);
    const restarted: string[] = [];
    const agent = (server: Parameters<typeof agentOn>[0]) => {
      const base = agentOn(server);
      return defineAgent({
        ...base,
        tools: [
          ...(base.tools ?? []),
          tool({
            name: 'restart',
            description: 'Restarts a service',
            parameters: { type: 'object', properties: { service: { type: 'string' } } },
            needsApproval: true,
            execute: ({ service }) => {
              restarted.push(String(service));
              return `restarted ${String(service)}`;
            },
          }),
        ],
      });
    };
    const paused = await run(agent(first), 'Restart the api.', { internal: { nonce: NONCE } });
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    // Only the tool that needs approval waits; nothing of that answer ran.
    expect(paused.success ? [] : paused.pendingApprovals).toEqual([
      {
        callId: 'call_r1',
        tool: 'restart',
        arguments: { service: 'api' },
        argumentsHash: argumentsHash({ service: 'api' }),
      },
    ]);
    expect(restarted).toEqual([]);

    const second = await serve([finalReport('Restarted.')]);
    const resumed = await resume(agent(second), (paused.success ? undefined : paused.snapshot)!, {
      approvals: { call_r1: { approved: true } },
    });
    expect(resumed.success, resumed.error).toBe(true);
    expect(restarted).toEqual(['api']);
    expect(toolMessage(second.requests[0]!.messages)).toEqual(['restarted api', 'Oslo: 21C']);
  });

  test('resumed with a denial: the model gets the reason; a decision for a call that is not pending is refused', async () => {
    const first = await serve(STEPS.slice(0, 1));
    const ran: string[] = [];
    const paused = await run(deployAgent(first, ran), 'Deploy it.', { internal: { nonce: NONCE } });
    const snapshot = (paused.success ? undefined : paused.snapshot)!;

    const wrong = await resume(deployAgent(first, ran), snapshot, {
      approvals: { call_zz: { approved: true } },
    });
    expect(wrong.exitCode).toBe('EXIT-CONFIGURATION');
    expect(wrong.error).toContain(
      `approvals: "call_zz" is not a pending call; session ${snapshot.sessionId} waits for call_d1`,
    );

    const second = await serve(STEPS.slice(1));
    const denied = await resume(deployAgent(second, ran), snapshot, {
      approvals: { call_d1: { approved: false, reason: 'change freeze' } },
    });
    expect(denied.success).toBe(true);
    expect(ran).toEqual([]);
    expect(toolMessage(second.requests[0]!.messages)).toEqual([
      '(tool failed: a person denied this call: change freeze)',
    ]);
  });

  test('approval.tools globs pick provider tools; a batch hiding such a call needs approval too', async () => {
    const fs = memoryTools('fs', { fs__Write: () => 'written', fs__Read: () => 'read' });
    const batch = {
      toolCalls: [
        {
          id: 'b1',
          name: 'agent__batch',
          arguments: {
            calls: [
              { id: '1', tool: 'fs__Read', parameters: {} },
              { id: '2', tool: 'fs__Write', parameters: { p: 'x' } },
            ],
          },
        },
      ],
    };
    const server = await serve([batch]);
    const base = agentOn(server);
    const paused = await run({ ...base, tools: [fs], approval: { tools: ['fs__Write*'] } }, 'Write it.', {
      internal: { nonce: NONCE },
    });
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    expect(paused.success ? undefined : paused.pendingApprovals?.map((p) => p.tool)).toEqual([
      'agent__batch',
    ]);
    expect(fs.calls).toEqual([]);
  });
});
