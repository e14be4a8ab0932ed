import { contextGuardEvent, type LogEntry } from '@agent/protocol';
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

  test('its log lines tell the metrics what happened: the drop and the forced turn, with the model and tokens left', async () => {
    const tools = memoryTools('t', { dump: () => 'word '.repeat(20_000) });
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
    const events = run.result.logs.flatMap((log) => contextGuardEvent(log) ?? []);
    const drop = toolEntries(run.result).find((e) => e.error === 'context_budget_exceeded');
    const model = run.models[0]!;
    expect(events).toEqual([
      {
        trigger: 'tool_result',
        outcome: 'tool_dropped',
        provider: model.provider,
        model: model.model,
        remainingTokens: drop?.details?.remaining_tokens,
      },
      { trigger: 'tool_result', outcome: 'final_turn_forced', provider: model.provider, model: model.model },
    ]);
  });

  test('a dropped result is accounted once: one failed entry for the call, on its own server', async () => {
    const tools = memoryTools('t', { dump: () => 'word '.repeat(20_000) });
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
    const dumps = toolEntries(run.result).filter((e) => e.command === 'dump');
    expect(dumps).toHaveLength(1);
    expect(dumps[0]).toMatchObject({
      status: 'failed',
      mcpServer: 't',
      callId: 'd',
      error: 'context_budget_exceeded',
      details: { limit_tokens: expect.any(Number), projected_tokens: expect.any(Number) },
    });
    // The op tree agrees: the call failed for the context budget.
    const node = run.result.opTree!.children[0]!.children.find((c) => c.label === 'dump');
    expect(node?.status).toBe('failed');
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

  test('when the guard fires it logs EXIT-TOKEN-LIMIT, and a report on the forced turn still ends EXIT-FINAL-ANSWER', async () => {
    const tools = memoryTools('t', { dump: () => 'word '.repeat(20_000) });
    const run = await runScenario({
      contextWindow: 4000,
      tools: [tools],
      scripts: [[{ toolCalls: [{ name: 'dump', arguments: {} }] }, { text: xmlReport('from what I had') }]],
    });
    expect(run.result).toMatchObject({ success: true, exitCode: 'EXIT-FINAL-ANSWER' });
    const markers = exitMarkers(run.result.logs);
    expect(markers).toMatchObject([
      {
        severity: 'WRN',
        remoteIdentifier: 'agent:EXIT-TOKEN-LIMIT',
        message: expect.stringMatching(
          /^context guard fired: a tool result did not fit the context window; forcing the final turn, the session goes on/,
        ),
      },
      {
        severity: 'VRB',
        remoteIdentifier: 'agent:EXIT-FINAL-ANSWER',
        message: 'final report committed (success) after the context guard forced the final turn',
      },
    ]);
    expect(run.exitLog).toBe('agent:EXIT-FINAL-ANSWER');
  });

  test('when the forced turn gives no report, the guard line and the ending marker say different things', async () => {
    const tools = memoryTools('t', { dump: () => 'word '.repeat(20_000) });
    const run = await runScenario({
      contextWindow: 4000,
      maxRetries: 1,
      tools: [tools],
      scripts: [[{ toolCalls: [{ name: 'dump', arguments: {} }] }, { error: { kind: 'server' } }]],
    });
    const markers = exitMarkers(run.result.logs);
    expect(markers.map((m) => [m.severity, m.remoteIdentifier])).toEqual([
      ['WRN', 'agent:EXIT-TOKEN-LIMIT'],
      ['ERR', 'agent:EXIT-TOKEN-LIMIT'],
    ]);
    expect(markers[0]?.message).toMatch(/^context guard fired: .*forcing the final turn/);
    expect(markers[1]?.message).toMatch(/^the context window filled up and the final turn gave no report/);
  });

  // A schema of about 3000 tokens travels in every turn's XML-NEXT notice. It used to be counted
  // as a flat 600 tokens; now the estimator counts the notice as it is sent.
  const bigSchema = {
    type: 'object',
    required: ['answer'],
    properties: { answer: { type: 'string', description: 'a'.repeat(12_000) } },
  };
  const jsonReport = xmlReport('{"answer":"short"}', 'status="success" format="json"');

  test('the notice with its report schema counts in the turn projection', async () => {
    // Prompt + notice fit the 4000-token limit; with a tool of about 1000 tokens they do not.
    const tools = memoryTools('t', { wide: { description: 'd'.repeat(4_000), handler: () => 'x' } });
    const run = await runScenario({
      contextWindow: 4256,
      output: { format: 'json', schema: bigSchema },
      tools: [tools],
      scripts: [[{ text: jsonReport }]],
    });
    expect(run.result.success).toBe(true);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started[0]).toMatchObject({ turn: 1, isFinalTurn: true, forcedFinalReason: 'context' });
    expect(run.models[0]!.requests[0]!.tools).toEqual([]);
    const guard = exitMarkers(run.result.logs)[0];
    expect(guard?.message).toMatch(/^context guard fired: the next request would not fit the context window/);
    expect(Number(guard?.details?.projected_tokens)).toBeGreaterThan(Number(guard?.details?.limit_tokens));
  });

  test('the notice with its report schema counts in each tool-result check', async () => {
    // The result (about 2500 tokens) fits beside the conversation, not beside the next notice too.
    const tools = memoryTools('t', { dump: () => 'y'.repeat(10_000) });
    const run = await runScenario({
      contextWindow: 5256,
      output: { format: 'json', schema: bigSchema },
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'd', name: 'dump', arguments: {} }] }, { text: jsonReport }]],
    });
    expect(run.result.success).toBe(true);
    const message = run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'd');
    expect(message?.content).toBe('(tool failed: context window budget exceeded)');
    const drop = toolEntries(run.result).find((e) => e.error === 'context_budget_exceeded');
    expect(Number(drop?.details?.projected_tokens)).toBeGreaterThan(Number(drop?.details?.limit_tokens));
  });
});

function exitMarkers(logs: readonly LogEntry[]) {
  return logs
    .filter((l) => l.remoteIdentifier.startsWith('agent:EXIT-'))
    .map(({ severity, remoteIdentifier, message, details }) => ({
      severity,
      remoteIdentifier,
      message,
      ...(details === undefined ? {} : { details }),
    }));
}
