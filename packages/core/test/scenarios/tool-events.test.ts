import type { AgentEvent, ProgressEvent } from '@agent/protocol';
import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { runAgent } from '../../src/index.js';
import { memoryTools, waitingTool } from '../helpers/memory-tools.js';
import { NONCE, type RecordedEvent, runScenario, xmlReport } from '../helpers/scenario.js';

const report = { text: xmlReport('done') };

type ToolEvent = Extract<ProgressEvent, { type: 'tool_started' | 'tool_finished' }>;

function toolEvents(events: readonly RecordedEvent[]): ToolEvent[] {
  const out: ToolEvent[] = [];
  for (const { event } of events) {
    if (event.type !== 'progress') continue;
    if (event.event.type === 'tool_started' || event.event.type === 'tool_finished') out.push(event.event);
  }
  return out;
}

describe('tool_started / tool_finished events', () => {
  test('each call gets a started event when it starts and a finished one with how it went (and what it returned)', async () => {
    const tools = memoryTools('t', {
      echo: (args) => String(args.s),
      broken: () => ({ ok: false, error: { kind: 'execution', message: 'disk on fire' } }),
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              { id: 'e1', name: 'echo', arguments: { s: 'hi' } },
              { id: 'x1', name: 'broken', arguments: {} },
            ],
          },
          report,
        ],
      ],
    });
    const events = toolEvents(run.events);
    expect(events).toEqual([
      { type: 'tool_started', agentPath: 'main', tool: 'echo', callId: 'e1', arguments: { s: 'hi' } },
      { type: 'tool_started', agentPath: 'main', tool: 'broken', callId: 'x1', arguments: {} },
      {
        type: 'tool_finished',
        agentPath: 'main',
        tool: 'echo',
        callId: 'e1',
        message: expect.stringMatching(/^ok in \d+ ms$/),
        output: 'hi',
      },
      {
        type: 'tool_finished',
        agentPath: 'main',
        tool: 'broken',
        callId: 'x1',
        message: expect.stringMatching(/^failed in \d+ ms: disk on fire$/),
      },
    ]);
  });

  test('a finished event goes out when its call ends, not when the slowest call of the turn ends', async () => {
    const tools = memoryTools('t', { fast: () => 'quick', slow: waitingTool(200) });
    const order: string[] = [];
    await runScenario({
      tools: [tools],
      onEvent: (event: AgentEvent) => {
        if (event.type === 'progress' && 'callId' in event.event)
          order.push(`${event.event.type}:${event.event.callId}`);
      },
      scripts: [
        [
          {
            toolCalls: [
              { id: 's', name: 'slow', arguments: {} },
              { id: 'f', name: 'fast', arguments: {} },
            ],
          },
          report,
        ],
      ],
    });
    expect(order).toEqual(['tool_started:s', 'tool_started:f', 'tool_finished:f', 'tool_finished:s']);
  });

  test('calls inside agent__batch get their own events, inside those of the batch', async () => {
    const tools = memoryTools('t', { up: (args) => String(args.s).toUpperCase() });
    const run = await runScenario({
      tools: [tools],
      maxToolCallsPerTurn: 1,
      scripts: [
        [
          {
            toolCalls: [
              {
                id: 'b',
                name: 'agent__batch',
                arguments: {
                  calls: [
                    { id: 'x', tool: 'up', parameters: { s: 'a' } },
                    { id: 'y', tool: 'up', parameters: { s: 'b' } },
                  ],
                },
              },
            ],
          },
          report,
        ],
      ],
    });
    const events = toolEvents(run.events).map((e) => [e.type, e.tool, e.callId, e.message ?? '']);
    expect(events).toEqual([
      ['tool_started', 'agent__batch', 'b', ''],
      ['tool_started', 'up', 'b:x', ''],
      ['tool_started', 'up', 'b:y', ''],
      ['tool_finished', 'up', 'b:y', 'failed in 0 ms: too many tool calls in one turn; at most 1 are run'],
      ['tool_finished', 'up', 'b:x', expect.stringMatching(/^ok in \d+ ms$/)],
      [
        'tool_finished',
        'agent__batch',
        'b',
        expect.stringMatching(/^failed in \d+ ms: 1 of 2 batched calls failed$/),
      ],
    ]);
  });

  test('agent__task_status and the final report send no tool events; unknown tools do', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            toolCalls: [
              { id: 's', name: 'agent__task_status', arguments: { status: 'in-progress', now: 'working' } },
              { id: 'u', name: 'nowhere', arguments: {} },
            ],
          },
          {
            toolCalls: [
              {
                id: 'r',
                name: 'agent__final_report',
                arguments: { status: 'success', report_format: 'markdown', report_content: 'done' },
              },
            ],
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(toolEvents(run.events).map((e) => [e.type, e.callId])).toEqual([
      ['tool_started', 'u'],
      ['tool_finished', 'u'],
    ]);
    expect(toolEvents(run.events)[1]?.message).toMatch(/unknown tool "nowhere"/);
  });

  test('a sub-agent call has its events, and the sub-agent its own under its agent path', async () => {
    const seen: RecordedEvent[] = [];
    const childTools = memoryTools('inner', { look: () => 'found it' });
    const subAgent = {
      id: 'agents',
      listTools: async () => [
        { name: 'researcher', description: 'a sub-agent', inputSchema: { type: 'object' } },
      ],
      execute: async () => {
        const child = await runAgent({
          internal: { nonce: NONCE },
          name: 'researcher',
          parentAgentPath: 'main',
          isMaster: false,
          prompt: 'research',
          tools: [childTools],
          models: [
            {
              client: scriptedModel([
                { toolCalls: [{ id: 'l1', name: 'look', arguments: {} }] },
                { text: xmlReport('child answer') },
              ]),
            },
          ],
          onEvent: (event, meta) => void seen.push({ event, meta }),
        });
        return { ok: true as const, text: child.finalReport?.content ?? '', childSession: child.opTree };
      },
    };
    const run = await runScenario({
      tools: [subAgent],
      onEvent: (event, meta) => void seen.push({ event, meta }),
      scripts: [[{ toolCalls: [{ id: 'r1', name: 'researcher', arguments: {} }] }, report]],
    });
    expect(run.result.success).toBe(true);
    expect(toolEvents(seen).map((e) => [e.type, e.agentPath, e.tool, e.callId])).toEqual([
      ['tool_started', 'main', 'researcher', 'r1'],
      ['tool_started', 'main.researcher', 'look', 'l1'],
      ['tool_finished', 'main.researcher', 'look', 'l1'],
      ['tool_finished', 'main', 'researcher', 'r1'],
    ]);
  });
});

test('a long error is cut short in the finished message, on one line', async () => {
  const tools = memoryTools('t', {
    noisy: () => ({
      ok: false,
      error: { kind: 'execution', message: `line one\nline two ${'x'.repeat(5000)}` },
    }),
  });
  const run = await runScenario({
    tools: [tools],
    scripts: [[{ toolCalls: [{ id: 'n', name: 'noisy', arguments: {} }] }, report]],
  });
  const finished = toolEvents(run.events).find((e) => e.type === 'tool_finished');
  expect(finished?.message).toMatch(/^failed in \d+ ms: line one line two x+…$/);
  expect(finished?.message?.length).toBeLessThan(240);
});
