import type { SessionSnapshot } from '@agent/protocol';
import type { ModelServer } from '@agent/testkit';
import { finalReport, type ScriptStep } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { type AgentConfig, guardrail, resume, tool } from '../../src/index.js';
import { agentOn, conversationText, NONCE, runGuarded, serve, servers } from './guard-session.js';

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const PAY: ScriptStep = {
  text: 'Paying.',
  toolCalls: [{ id: 'call_p1', name: 'pay', arguments: { to: 'bob', amount: 500 } }],
};

/** An agent with `pay` (recording what it ran) and `lookup` (answering with PII). */
function payAgent(server: ModelServer, paid: unknown[], extra: Partial<AgentConfig>): AgentConfig {
  return agentOn(server, {
    tools: [
      tool({
        name: 'pay',
        description: 'Pays someone',
        parameters: {
          type: 'object',
          properties: { to: { type: 'string' }, amount: { type: 'number' } },
          required: ['to', 'amount'],
        },
        execute: (args) => {
          paid.push(args);
          return `paid ${String(args.amount)} to ${String(args.to)}`;
        },
      }),
      tool({
        name: 'lookup',
        description: 'Looks a customer up',
        parameters: { type: 'object', properties: {} },
        execute: () => 'Bob, bob@example.com, +41 79 555 12 34',
      }),
    ],
    maxTurns: 5,
    ...extra,
  });
}

const toolMessages = (server: ModelServer, index: number) =>
  server.requests[index]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);

function onArguments(verdict: 'deny' | 'ask' | 'block') {
  return guardrail({
    name: 'big-payments',
    on: 'tool',
    tools: ['pay'],
    phases: ['arguments'],
    check: (subject) =>
      subject.phase === 'arguments' && Number(subject.arguments.amount) > 100
        ? { verdict, reason: 'rule: amount over 100' }
        : { verdict: 'pass' },
  });
}

describe('tool guardrails on arguments', () => {
  test('deny: the call does not run, the model is told why, the run goes on', async () => {
    const server = await serve([PAY, finalReport('Could not pay.')]);
    const paid: unknown[] = [];
    const run = await runGuarded(payAgent(server, paid, { guardrails: [onArguments('deny')] }), 'pay bob');
    expect(run.result.success, run.result.error).toBe(true);
    expect(paid).toEqual([]);
    expect(toolMessages(server, 1)).toEqual([
      '(tool failed: blocked by guardrail big-payments: rule: amount over 100)',
    ]);
    expect(run.runs()).toEqual([
      expect.objectContaining({ outcome: 'deny', callId: 'call_p1', tool: 'pay', phase: 'arguments' }),
    ]);
    expect(run.result.logs.find((l) => l.remoteIdentifier === 'agent:guardrail')?.severity).toBe('WRN');
  });

  test('block: the run ends before the call runs', async () => {
    const server = await serve([PAY]);
    const paid: unknown[] = [];
    const run = await runGuarded(payAgent(server, paid, { guardrails: [onArguments('block')] }), 'pay bob');
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(run.result.error).toBe(
      'guardrail big-payments blocked the tool call call_p1 (pay): rule: amount over 100',
    );
    expect(paid).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  test('rewrite: the call runs with the new arguments; the conversation keeps the model call', async () => {
    const server = await serve([PAY, finalReport('Paid.')]);
    const paid: unknown[] = [];
    const cap = guardrail({
      name: 'cap',
      on: 'tool',
      phases: ['arguments'],
      check: (subject) =>
        subject.phase === 'arguments' && Number(subject.arguments.amount) > 100
          ? { verdict: 'rewrite', value: { ...subject.arguments, amount: 100 }, reason: 'rule: cap at 100' }
          : { verdict: 'pass' },
    });
    const run = await runGuarded(payAgent(server, paid, { guardrails: [cap] }), 'pay bob');
    expect(run.result.success, run.result.error).toBe(true);
    expect(paid).toEqual([{ to: 'bob', amount: 100 }]);
    expect(toolMessages(server, 1)).toEqual(['paid 100 to bob']);
    const assistant = run.result.conversation.find(
      (m) => m.role === 'assistant' && m.toolCalls !== undefined,
    );
    expect(assistant?.role === 'assistant' ? assistant.toolCalls?.[0]?.arguments : undefined).toEqual({
      to: 'bob',
      amount: 500,
    });
  });

  test('ask with an approver: the person decides; approved, the call runs', async () => {
    const server = await serve([PAY, finalReport('Paid.')]);
    const paid: unknown[] = [];
    const asked: string[] = [];
    const run = await runGuarded(payAgent(server, paid, { guardrails: [onArguments('ask')] }), 'pay bob', {
      approver: (request) => {
        asked.push(request.callId);
        return { approved: true };
      },
    });
    expect(run.result.success, run.result.error).toBe(true);
    expect(asked).toEqual(['call_p1']);
    expect(paid).toEqual([{ to: 'bob', amount: 500 }]);
  });

  test('ask without an approver: the session pauses before the call; resumed with an approval, it runs once', async () => {
    const first = await serve([PAY]);
    const paid: unknown[] = [];
    const stored: SessionSnapshot[] = [];
    const agent = (server: ModelServer) => payAgent(server, paid, { guardrails: [onArguments('ask')] });
    const paused = await runGuarded(agent(first), 'pay bob', {
      onCheckpoint: (snapshot) => {
        stored.push(JSON.parse(JSON.stringify(snapshot)) as SessionSnapshot);
      },
    });
    expect(paused.result.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    expect(paused.result.success ? [] : paused.result.pendingApprovals?.map((p) => p.callId)).toEqual([
      'call_p1',
    ]);
    expect(paid).toEqual([]);
    const second = await serve([finalReport('Paid.')]);
    const resumed = await resume(agent(second), stored.at(-1)!, {
      approvals: { call_p1: { approved: true } },
      internal: { nonce: NONCE },
    });
    expect(resumed.success, resumed.error).toBe(true);
    expect(paid).toEqual([{ to: 'bob', amount: 500 }]);
    expect(toolMessages(second, 0)).toEqual(['paid 500 to bob']);
  });
});

describe('tool guardrails on calls inside agent__batch', () => {
  const batch = (calls: { id: string; tool: string; parameters: Record<string, unknown> }[]): ScriptStep => ({
    toolCalls: [{ id: 'b1', name: 'agent__batch', arguments: { calls } }],
  });

  test('deny: the batched call over the limit is refused, the other batched call runs', async () => {
    const server = await serve([
      batch([
        { id: '1', tool: 'pay', parameters: { to: 'ann', amount: 50 } },
        { id: '2', tool: 'pay', parameters: { to: 'bob', amount: 500 } },
      ]),
      finalReport('Half paid.'),
    ]);
    const paid: unknown[] = [];
    const run = await runGuarded(
      payAgent(server, paid, { guardrails: [onArguments('deny')], internalTools: { batch: true } }),
      'pay both',
    );
    expect(run.result.success, run.result.error).toBe(true);
    expect(paid).toEqual([{ to: 'ann', amount: 50 }]);
    const text = toolMessages(server, 1)[0]!;
    expect(text).toContain(
      '--- result of call 2 (pay) [failed] ---\n(tool failed: blocked by guardrail big-payments',
    );
    expect(run.runs().map((r) => [r.callId, r.outcome])).toEqual([
      ['b1:1', 'pass'],
      ['b1:2', 'deny'],
    ]);
  });

  test('block: a batched call trips the run before any call of the batch runs', async () => {
    const server = await serve([
      batch([
        { id: '1', tool: 'pay', parameters: { to: 'ann', amount: 50 } },
        { id: '2', tool: 'pay', parameters: { to: 'bob', amount: 500 } },
      ]),
    ]);
    const paid: unknown[] = [];
    const run = await runGuarded(
      payAgent(server, paid, { guardrails: [onArguments('block')], internalTools: { batch: true } }),
      'pay both',
    );
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(paid).toEqual([]);
    expect(run.result.success ? undefined : run.result.guardrail?.callId).toBe('b1:2');
  });
});

describe('tool guardrails on results', () => {
  const redactPii = guardrail({
    name: 'pii',
    on: 'tool',
    phases: ['result'],
    check: (subject) => {
      const text = subject.text.replace(/\S+@\S+\.\w+/g, '[email]').replace(/\+?\d[\d ]{8,}\d/g, '[phone]');
      return text === subject.text
        ? { verdict: 'pass' }
        : { verdict: 'rewrite', value: text, reason: 'rule: pii' };
    },
  });

  test('rewrite: PII is redacted before the model sees the result; the next request has none of it', async () => {
    const server = await serve([
      { toolCalls: [{ id: 'call_l1', name: 'lookup', arguments: {} }] },
      finalReport('Found Bob.'),
    ]);
    const run = await runGuarded(payAgent(server, [], { guardrails: [redactPii] }), 'find bob');
    expect(run.result.success, run.result.error).toBe(true);
    const next = JSON.stringify(server.requests[1]!.messages);
    expect(next).not.toContain('bob@example.com');
    expect(next).not.toContain('555 12 34');
    expect(toolMessages(server, 1)).toEqual(['Bob, [email], [phone]']);
    expect(conversationText(run.result)).not.toContain('bob@example.com');
  });

  test('block: the run ends and the result text is nowhere in the result', async () => {
    const server = await serve([{ toolCalls: [{ id: 'call_l1', name: 'lookup', arguments: {} }] }]);
    const stop = guardrail({
      name: 'no-email',
      on: 'tool',
      phases: ['result'],
      check: (subject) =>
        subject.text.includes('@') ? { verdict: 'block', reason: 'rule: e-mail' } : { verdict: 'pass' },
    });
    const run = await runGuarded(payAgent(server, [], { guardrails: [stop] }), 'find bob');
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(run.result.error).toBe(
      "guardrail no-email blocked the tool call call_l1 (lookup)'s result: rule: e-mail",
    );
    expect(server.requests).toHaveLength(1);
    expect(conversationText(run.result)).not.toContain('bob@example.com');
    expect(JSON.stringify(run.events.filter((e) => e.event.type !== 'log'))).not.toContain('bob@example.com');
  });
});
