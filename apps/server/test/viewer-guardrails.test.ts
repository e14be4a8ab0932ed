// The viewer shows guardrail runs as nodes with their verdict, and a tool call's policy
// decision on its node: in a live session (from the `guardrail` and `tool_policy` events) and
// in a stored record (its `guardrail` nodes and the tool nodes' `policy`).
import type { AgentEvent, AgentEventMeta, AgentResult } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { LiveSession } from '../src/viewer/live-session.js';
import { recordView } from '../src/viewer/record-view.js';
import { recordNode, sessionRecord } from './record-fixtures.js';

const meta: AgentEventMeta = { isMaster: true, isFinal: false, sessionId: 's', agentPath: 'lead' };
const limits = { maxNodes: 100, foldChars: 200 };
const turn: AgentEvent = { type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: false };

describe('the live tree', () => {
  it('adds a node per guardrail run with its verdict, failed when it tripped', () => {
    const session = new LiveSession('v1', 'lead', 'rest', limits, 1000);
    session.apply(turn, meta, 1000);
    session.apply(
      {
        type: 'guardrail',
        run: { name: 'topic', on: 'input', phase: 'prompt', outcome: 'pass', latencyMs: 5 },
      },
      meta,
      1010,
    );
    session.apply(
      {
        type: 'guardrail',
        run: {
          name: 'no-cards',
          on: 'output',
          phase: 'report',
          outcome: 'block',
          reason: 'rule pii.card',
          latencyMs: 20,
        },
      },
      meta,
      1100,
    );
    session.finish(
      {
        success: false,
        exitCode: 'EXIT-GUARDRAIL',
        error: 'guardrail no-cards blocked the report: rule pii.card',
        guardrail: { name: 'no-cards', on: 'output', phase: 'report', reason: 'rule pii.card' },
        conversation: [],
        logs: [],
        accounting: [],
        sessionId: 's',
      } satisfies AgentResult,
      undefined,
      1200,
    );
    const guards = session.view.tree.children[0]!.children.filter((node) => node.kind === 'guardrail');
    expect(guards.map((node) => [node.label, node.status, node.guardrail?.outcome])).toEqual([
      ['topic', 'ok', 'pass'],
      ['no-cards', 'failed', 'block'],
    ]);
    expect(guards[1]).toMatchObject({
      startedAt: 1080,
      endedAt: 1100,
      latencyMs: 20,
      error: 'rule pii.card',
    });
    expect(session.view.exitCode).toBe('EXIT-GUARDRAIL');
    // Guardrail runs are no tool calls.
    expect(session.view.totals.toolCalls).toBe(0);
  });

  it("puts the policy's decision on the tool node; a denied call's node ends failed, an allowed one gets its arguments", () => {
    const session = new LiveSession('v2', 'lead', 'rest', limits, 1000);
    session.apply(turn, meta, 1000);
    const policy = (callId: string, decision: 'allow' | 'deny') =>
      session.apply(
        {
          type: 'tool_policy',
          verdict: {
            callId,
            tool: 'http__post',
            decision,
            rule: 0,
            ruleName: 'payments',
            reason: 'over 100',
          },
        },
        meta,
        1010,
      );
    policy('c1', 'deny');
    policy('c2', 'allow');
    session.apply(
      {
        type: 'progress',
        event: {
          type: 'tool_started',
          agentPath: 'lead',
          tool: 'http__post',
          callId: 'c2',
          arguments: { amount: 5 },
        },
      },
      meta,
      1020,
    );
    const tools = session.view.tree.children[0]!.children.filter((node) => node.kind === 'tool');
    expect(tools).toHaveLength(2);
    expect(tools[0]).toMatchObject({
      callId: 'c1',
      status: 'failed',
      policy: { decision: 'deny', ruleName: 'payments' },
      error: 'denied by policy rule payments: over 100',
    });
    expect(tools[1]).toMatchObject({ callId: 'c2', status: 'running', policy: { decision: 'allow' } });
    expect(tools[1]!.arguments).toContain('"amount": 5');
  });
});

describe('a stored record', () => {
  it('shows guardrail nodes with their run and tool nodes with their policy', () => {
    const node = recordNode;
    const record = sessionRecord(
      node({
        id: 'root',
        kind: 'session',
        label: 'lead',
        status: 'failed',
        children: [
          node({
            id: 't1',
            kind: 'turn',
            label: 'turn 1',
            children: [
              node({
                id: 'c1',
                kind: 'tool',
                label: 'crm__get',
                toolCallId: 'call-1',
                policy: {
                  callId: 'call-1',
                  tool: 'crm__get',
                  decision: 'allow',
                  rule: 'default',
                  ruleName: 'default',
                },
              }),
              node({
                id: 'g1',
                kind: 'guardrail',
                label: 'pii',
                status: 'failed',
                guardrail: {
                  name: 'pii',
                  on: 'tool',
                  phase: 'result',
                  outcome: 'block',
                  reason: 'rule pii.email',
                  callId: 'call-1',
                  tool: 'crm__get',
                  latencyMs: 2,
                },
              }),
            ],
          }),
        ],
      }),
      {
        success: false,
        exitCode: 'EXIT-GUARDRAIL',
        error: 'guardrail pii blocked the result of tool call crm__get: rule pii.email',
      },
    );
    const view = recordView(record, limits);
    const [tool, guard] = view.tree.children[0]!.children;
    expect(tool).toMatchObject({ kind: 'tool', policy: { decision: 'allow', ruleName: 'default' } });
    expect(guard).toMatchObject({
      kind: 'guardrail',
      label: 'pii',
      status: 'failed',
      guardrail: { outcome: 'block', phase: 'result', callId: 'call-1', reason: 'rule pii.email' },
    });
  });
});
