import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';

const report = { text: xmlReport('done') };

function batchOf(count: number, tool = 'a') {
  return {
    id: 'b',
    name: 'agent__batch',
    arguments: {
      calls: Array.from({ length: count }, (_, index) => ({ id: `c${index}`, tool, parameters: {} })),
    },
  };
}

function toolMessage(run: Awaited<ReturnType<typeof runScenario>>, id: string): string {
  const message = run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === id);
  return message?.content ?? '';
}

describe('maxToolCallsPerTurn inside agent__batch', () => {
  test('a batch of 500 calls runs only as many as the limit allows; the rest are refused', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    const run = await runScenario({
      maxToolCallsPerTurn: 1,
      tools: [tools],
      scripts: [[{ toolCalls: [batchOf(500)] }, report]],
    });
    expect(run.result.success).toBe(true);
    expect(tools.calls).toHaveLength(1);
    const content = toolMessage(run, 'b');
    expect(content).toContain('--- result of call c0 (a) ---\nA');
    expect(content).toContain(
      '--- result of call c1 (a) [failed] ---\n(tool failed: too many tool calls in one turn; at most 1 are run)',
    );
    expect(content.match(/too many tool calls in one turn/g)).toHaveLength(499);
    const refused = toolEntries(run.result).filter((e) => e.error === 'too_many_calls');
    expect(refused).toHaveLength(499);
  });

  test('top-level calls and batched calls share one budget, in the order the model wrote them', async () => {
    const tools = memoryTools('t', { a: () => 'A', b: () => 'B' });
    const run = await runScenario({
      maxToolCallsPerTurn: 2,
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              { id: 'first', name: 'b', arguments: {} },
              batchOf(3),
              { id: 'last', name: 'b', arguments: {} },
            ],
          },
          report,
        ],
      ],
    });
    expect(tools.calls.map((c) => c.name)).toEqual(['b', 'a']);
    expect(toolMessage(run, 'first')).toBe('B');
    const batch = toolMessage(run, 'b');
    expect(batch).toContain('--- result of call c0 (a) ---\nA');
    expect(batch.match(/too many tool calls in one turn; at most 2 are run/g)).toHaveLength(2);
    expect(toolMessage(run, 'last')).toBe(
      '(tool failed: too many tool calls in one turn; at most 2 are run)',
    );
  });

  test('the batch itself takes no slot: a batch of one call runs under a limit of one', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    const run = await runScenario({
      maxToolCallsPerTurn: 1,
      tools: [tools],
      scripts: [[{ toolCalls: [batchOf(1)] }, report]],
    });
    expect(tools.calls).toHaveLength(1);
    expect(toolMessage(run, 'b')).toBe('--- result of call c0 (a) ---\nA');
  });

  test('the budget is per turn: the next turn may run calls again', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    await runScenario({
      maxToolCallsPerTurn: 1,
      tools: [tools],
      scripts: [[{ toolCalls: [batchOf(3)] }, { toolCalls: [batchOf(3)] }, report]],
    });
    expect(tools.calls).toHaveLength(2);
  });
});
