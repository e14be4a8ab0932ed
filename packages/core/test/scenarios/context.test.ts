import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';

describe('context guard', () => {
  test('a tool result that would overflow the window is replaced and forces the final turn', async () => {
    const big = 'word '.repeat(20_000);
    const tools = memoryTools('t', { dump: () => big });
    const run = await runScenario({
      contextWindow: 4000,
      tools: [tools],
      scripts: [
        [
          { toolCalls: [{ id: 'd', name: 'dump', arguments: {} }] },
          { text: xmlReport('summary without the dump') },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    const message = run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'd');
    expect(message?.content).toBe('(tool failed: context window budget exceeded)');
    const drop = toolEntries(run.result).find((e) => e.error === 'context_budget_exceeded');
    expect(drop?.details).toMatchObject({
      limit_tokens: expect.any(Number),
      projected_tokens: expect.any(Number),
      remaining_tokens: expect.any(Number),
    });
    expect(Number(drop?.details?.projected_tokens)).toBeGreaterThan(Number(drop?.details?.limit_tokens));
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
  });

  test('when the run ends on a context-forced final turn without a report the exit is EXIT-TOKEN-LIMIT', async () => {
    const tools = memoryTools('t', { dump: () => 'word '.repeat(20_000) });
    const run = await runScenario({
      contextWindow: 4000,
      maxRetries: 1,
      tools: [tools],
      scripts: [[{ toolCalls: [{ name: 'dump', arguments: {} }] }, { error: { kind: 'server' } }]],
    });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-TOKEN-LIMIT');
    expect(run.exitLog).toBe('agent:EXIT-TOKEN-LIMIT');
  });

  test('a small result fits and is kept whole', async () => {
    const tools = memoryTools('t', { small: () => 'tiny' });
    const run = await runScenario({
      contextWindow: 4000,
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 's', name: 'small', arguments: {} }] }, { text: xmlReport('ok') }]],
    });
    expect(run.result.conversation.find((m) => m.role === 'tool')?.content).toBe('tiny');
  });

  test('a conversation history too big for the window forces the final turn at once', async () => {
    const history = [{ role: 'user' as const, content: 'x '.repeat(30_000) }];
    const run = await runScenario({
      contextWindow: 8000,
      history: history,
      scripts: [[{ text: xmlReport('short answer') }]],
    });
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started[0]).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
  });

  test('the per-target window applies', async () => {
    const tools = memoryTools('t', { dump: () => 'word '.repeat(5_000) });
    const run = await runScenario({
      targetOptions: [{ contextWindow: 3000 }],
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'd', name: 'dump', arguments: {} }] }, { text: xmlReport('ok') }]],
    });
    expect(run.result.conversation.find((m) => m.role === 'tool')?.content).toBe(
      '(tool failed: context window budget exceeded)',
    );
  });
});
