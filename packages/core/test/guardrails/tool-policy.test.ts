import type { AgentEvent, OpNode, ToolPolicy, ToolPolicyVerdict } from '@agent/protocol';
import { finalReport, type ModelServer, type ScriptStep } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import {
  type AgentConfig,
  argumentsHash,
  defineAgent,
  type RunOptions,
  resume,
  run,
} from '../../src/index.js';
import { agentOn, NONCE, serve, servers } from '../checkpoint/five-turns.js';
import { memoryTools } from '../helpers/memory-tools.js';

// Issue 38: tool policy rules decide allow / deny / ask per call from its name and arguments,
// in order, the first match deciding; the model, the approver, the events and the op tree see it.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const PAYMENTS: ToolPolicy = {
  rules: [
    {
      name: 'big payments',
      tools: 'http__post',
      when: 'amount > `100`',
      decision: 'ask',
      reason: 'payments over 100 need a person',
    },
    { tools: ['http__delete*'], decision: 'deny', reason: 'nothing is deleted' },
    { tools: 'http__*', decision: 'allow' },
  ],
  default: 'deny',
};

function paymentsAgent(server: ModelServer, policy: ToolPolicy = PAYMENTS) {
  const http = memoryTools('http', {
    http__post: (args) => `posted ${String(args.amount)}`,
    http__delete: () => 'deleted',
    http__get: () => 'got',
  });
  const base = agentOn(server);
  const agent: AgentConfig = defineAgent({
    ...base,
    tools: [...(base.tools ?? []), http],
    toolPolicy: policy,
  });
  return { agent, http };
}

const call = (id: string, name: string, args: Record<string, unknown>): ScriptStep => ({
  text: 'Calling.',
  toolCalls: [{ id, name, arguments: args }],
});

const toolMessages = (server: ModelServer, index: number) =>
  server.requests[index]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);

async function runCollecting(agent: AgentConfig, options: RunOptions = {}) {
  const events: AgentEvent[] = [];
  const result = await run(agent, 'Pay the bills.', {
    internal: { nonce: NONCE },
    onEvent: (event) => {
      events.push(event);
    },
    ...options,
  });
  const verdicts = events.flatMap((e) => (e.type === 'tool_policy' ? [e.verdict] : []));
  return { result, events, verdicts };
}

function toolNodes(node: OpNode | undefined): OpNode[] {
  const found: OpNode[] = [];
  const stack = node === undefined ? [] : [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.kind === 'tool') found.push(next);
    stack.push(...next.children);
  }
  return found;
}

describe('deciding calls', () => {
  test('a denied call never runs; the model is told the rule and its reason; the run goes on', async () => {
    const server = await serve([call('c1', 'http__delete', { id: 7 }), finalReport('Could not delete.')]);
    const { agent, http } = paymentsAgent(server);
    const { result, verdicts } = await runCollecting(agent);
    expect(result.success, result.error).toBe(true);
    expect(http.calls).toEqual([]);
    expect(toolMessages(server, 1)).toEqual([
      '(tool failed: denied by policy rule rule 1: nothing is deleted)',
    ]);
    const expected: ToolPolicyVerdict = {
      callId: 'c1',
      tool: 'http__delete',
      decision: 'deny',
      rule: 1,
      ruleName: 'rule 1',
      reason: 'nothing is deleted',
    };
    expect(verdicts).toEqual([expected]);
    const node = toolNodes(result.opTree).find((n) => n.toolCallId === 'c1');
    expect(node?.policy).toEqual(expected);
    expect(node?.status).toBe('failed');
    const line = result.logs.find((l) => l.remoteIdentifier === 'agent:policy');
    expect(line).toMatchObject({
      severity: 'WRN',
      message: 'call c1 (http__delete): deny by policy rule rule 1: nothing is deleted',
    });
  });

  test('the condition decides: a small payment falls through to the allow rule, a big one is asked', async () => {
    const server = await serve([
      call('c1', 'http__post', { amount: 40 }),
      call('c2', 'http__post', { amount: 400 }),
      finalReport('Paid.'),
    ]);
    const { agent, http } = paymentsAgent(server);
    const asked: unknown[] = [];
    const { result, verdicts } = await runCollecting(agent, {
      approver: (request) => {
        asked.push(request);
        return { approved: true };
      },
    });
    expect(result.success, result.error).toBe(true);
    expect(http.calls.map((c) => c.arguments)).toEqual([{ amount: 40 }, { amount: 400 }]);
    expect(verdicts.map((v) => [v.callId, v.decision, v.rule])).toEqual([
      ['c1', 'allow', 2],
      ['c2', 'ask', 0],
    ]);
    // Only the big payment went to the approver, with the rule's reason.
    expect(asked).toEqual([
      {
        callId: 'c2',
        tool: 'http__post',
        arguments: { amount: 400 },
        argumentsHash: argumentsHash({ amount: 400 }),
        sessionId: result.sessionId,
        agentPath: 'main',
        reason: 'policy rule big payments: payments over 100 need a person',
      },
    ]);
    expect(result.logs.find((l) => l.remoteIdentifier === 'agent:policy')).toMatchObject({
      severity: 'VRB',
      message: 'call c1 (http__post): allow by policy rule rule 2',
    });
  });

  test('the approver denies an asked call: it does not run and the model gets the reason', async () => {
    const server = await serve([call('c1', 'http__post', { amount: 500 }), finalReport('Not paid.')]);
    const { agent, http } = paymentsAgent(server);
    const { result } = await runCollecting(agent, {
      approver: () => ({ approved: false, reason: 'over budget' }),
    });
    expect(result.success).toBe(true);
    expect(http.calls).toEqual([]);
    expect(toolMessages(server, 1)).toEqual(['(tool failed: a person denied this call: over budget)']);
  });

  test('no rule matches: the default decides (deny here), for tools of other providers too', async () => {
    const server = await serve([call('c1', 'weather', { city: 'Oslo' }), finalReport('No weather.')]);
    const { agent } = paymentsAgent(server);
    const { verdicts } = await runCollecting(agent);
    expect(verdicts).toEqual([
      { callId: 'c1', tool: 'weather', decision: 'deny', rule: 'default', ruleName: 'default' },
    ]);
    expect(toolMessages(server, 1)).toEqual([
      '(tool failed: denied by policy rule default: the tool policy does not allow this call)',
    ]);
  });

  test('first match wins: an earlier allow shadows a later deny of the same tool', async () => {
    const server = await serve([call('c1', 'http__delete', { id: 1 }), finalReport('Deleted.')]);
    const { agent, http } = paymentsAgent(server, {
      rules: [
        { tools: 'http__delete', when: 'id == `1`', decision: 'allow' },
        { tools: 'http__delete', decision: 'deny' },
      ],
    });
    const { verdicts } = await runCollecting(agent);
    expect(http.calls).toHaveLength(1);
    expect(verdicts.map((v) => v.rule)).toEqual([0]);
  });

  test('an absent default allows; allowed calls carry their verdict on the tool node', async () => {
    const server = await serve([call('c1', 'weather', { city: 'Rome' }), finalReport('Sunny.')]);
    const { agent } = paymentsAgent(server, { rules: [{ tools: 'http__*', decision: 'deny' }] });
    const { result } = await runCollecting(agent);
    expect(toolMessages(server, 1)).toEqual(['Rome: 21C']);
    expect(toolNodes(result.opTree).find((n) => n.toolCallId === 'c1')?.policy).toEqual({
      callId: 'c1',
      tool: 'weather',
      decision: 'allow',
      rule: 'default',
      ruleName: 'default',
    });
  });

  test('a condition that cannot be evaluated on the arguments fails closed: the call is denied, saying why', async () => {
    const server = await serve([call('c1', 'http__post', { amount: 'ten' }), finalReport('Stopped.')]);
    const { agent, http } = paymentsAgent(server, {
      rules: [{ name: 'doubled', tools: 'http__post', when: 'amount * `2` > `100`', decision: 'allow' }],
    });
    const { verdicts } = await runCollecting(agent);
    expect(http.calls).toEqual([]);
    expect(verdicts[0]).toMatchObject({ decision: 'deny', rule: 0, ruleName: 'doubled' });
    expect(toolMessages(server, 1)[0]).toMatch(
      /^\(tool failed: denied by policy rule doubled: the condition of doubled could not be evaluated on these arguments \(.+\)\)$/,
    );
  });

  test('approval.tools still asks for a call the policy allows', async () => {
    const server = await serve([call('c1', 'http__get', { path: '/' }), finalReport('Got it.')]);
    const { agent } = paymentsAgent(server);
    let asked = 0;
    await runCollecting(
      { ...agent, approval: { tools: ['http__get'] } },
      {
        approver: () => {
          asked++;
          return { approved: true };
        },
      },
    );
    expect(asked).toBe(1);
    expect(toolMessages(server, 1)).toEqual(['got']);
  });
});

describe('ask without an approver', () => {
  test('the session pauses with the call pending; resumed with an approval it runs once, with a denial it does not', async () => {
    const first = await serve([call('c1', 'http__post', { amount: 250 })]);
    const { agent: pausing, http } = paymentsAgent(first);
    const { result: paused } = await runCollecting(pausing);
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    expect(paused.success ? undefined : paused.pendingApprovals).toEqual([
      {
        callId: 'c1',
        tool: 'http__post',
        arguments: { amount: 250 },
        argumentsHash: argumentsHash({ amount: 250 }),
      },
    ]);
    expect(http.calls).toEqual([]);
    const snapshot = (paused.success ? undefined : paused.snapshot)!;

    const approvedServer = await serve([finalReport('Paid.')]);
    const approved = paymentsAgent(approvedServer);
    const events: AgentEvent[] = [];
    const done = await resume(approved.agent, snapshot, {
      approvals: { c1: { approved: true } },
      onEvent: (event) => {
        events.push(event);
      },
    });
    expect(done.success, done.error).toBe(true);
    expect(approved.http.calls.map((c) => c.arguments)).toEqual([{ amount: 250 }]);
    expect(toolMessages(approvedServer, 0)).toEqual(['posted 250']);
    // The resumed session decides the same call the same way.
    expect(events.flatMap((e) => (e.type === 'tool_policy' ? [e.verdict.decision] : []))).toEqual(['ask']);

    const deniedServer = await serve([finalReport('Not paid.')]);
    const denied = paymentsAgent(deniedServer);
    await resume(denied.agent, snapshot, { approvals: { c1: { approved: false, reason: 'no' } } });
    expect(denied.http.calls).toEqual([]);
    expect(toolMessages(deniedServer, 0)).toEqual(['(tool failed: a person denied this call: no)']);
  });
});

describe('batches and reports', () => {
  test('each call inside agent__batch is decided on its own: the denied one is refused, the others run', async () => {
    const server = await serve([
      {
        toolCalls: [
          {
            id: 'b1',
            name: 'agent__batch',
            arguments: {
              calls: [
                { id: '1', tool: 'http__get', parameters: {} },
                { id: '2', tool: 'http__delete', parameters: { id: 3 } },
              ],
            },
          },
        ],
      },
      finalReport('Half done.'),
    ]);
    const { agent, http } = paymentsAgent(server);
    const { result, verdicts } = await runCollecting(agent);
    expect(http.calls.map((c) => c.name)).toEqual(['http__get']);
    expect(verdicts.map((v) => [v.callId, v.decision])).toEqual([
      ['b1:1', 'allow'],
      ['b1:2', 'deny'],
    ]);
    const text = toolMessages(server, 1)[0]!;
    expect(text).toContain('--- result of call 1 (http__get) ---\ngot');
    expect(text).toContain(
      '--- result of call 2 (http__delete) [failed] ---\n(tool failed: denied by policy rule rule 1: nothing is deleted)',
    );
    const inner = toolNodes(result.opTree).find((n) => n.toolCallId === 'b1:2');
    expect(inner?.policy?.decision).toBe('deny');
  });

  test('a batch with an asked call inside goes to the approver as a whole, with the inner reason', async () => {
    const server = await serve([
      {
        toolCalls: [
          {
            id: 'b1',
            name: 'agent__batch',
            arguments: { calls: [{ id: 'p', tool: 'http__post', parameters: { amount: 900 } }] },
          },
        ],
      },
      finalReport('Paid.'),
    ]);
    const { agent, http } = paymentsAgent(server);
    const reasons: (string | undefined)[] = [];
    await runCollecting(agent, {
      approver: (request) => {
        reasons.push(request.reason);
        return { approved: true };
      },
    });
    expect(reasons).toEqual(['p (http__post): policy rule big payments: payments over 100 need a person']);
    expect(http.calls).toHaveLength(1);
  });

  test('calls beside a committed report: denied and asked ones do not run, allowed ones do', async () => {
    const report = finalReport('All done.');
    const server = await serve([
      {
        ...report,
        toolCalls: [
          { id: 'a', name: 'http__get', arguments: {} },
          { id: 'd', name: 'http__delete', arguments: { id: 1 } },
          { id: 'q', name: 'http__post', arguments: { amount: 1000 } },
        ],
      },
    ]);
    const { agent, http } = paymentsAgent(server);
    const { result, verdicts } = await runCollecting(agent, { approver: () => ({ approved: true }) });
    expect(result.success, result.error).toBe(true);
    expect(http.calls.map((c) => c.name)).toEqual(['http__get']);
    expect(verdicts.map((v) => v.decision)).toEqual(['allow', 'deny', 'ask']);
    const messages = result.conversation.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(messages).toEqual([
      'got',
      '(tool failed: denied by policy rule rule 1: nothing is deleted)',
      '(tool failed: a person denied this call: it needs approval and came beside the final report)',
    ]);
  });
});

describe('without a policy', () => {
  test('no tool_policy events, no policy on tool nodes, no policy log lines', async () => {
    const server = await serve([call('c1', 'weather', { city: 'Lima' }), finalReport('Warm.')]);
    const { events, result } = await runCollecting(agentOn(server));
    expect(events.some((e) => e.type === 'tool_policy')).toBe(false);
    expect(toolNodes(result.opTree).every((n) => n.policy === undefined)).toBe(true);
    expect(result.logs.some((l) => l.remoteIdentifier === 'agent:policy')).toBe(false);
  });
});
