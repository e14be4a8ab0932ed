import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { llmEntries, runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';

const report = {
  text: xmlReport('done'),
  usage: { inputTokens: 100, outputTokens: 20, cachedTokens: 40, costUsd: 0.002 },
};

describe('observability', () => {
  test('one llm accounting entry per attempt, failures included, with tokens, cost and status', async () => {
    const run = await runScenario({ scripts: [[{ error: { kind: 'server' } }, report]] });
    const entries = llmEntries(run.result);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      status: 'failed',
      provider: 'p1',
      model: 'm1',
      tokens: { inputTokens: 0, outputTokens: 0 },
    });
    expect(entries[1]).toMatchObject({
      status: 'ok',
      tokens: { inputTokens: 100, outputTokens: 20, cachedTokens: 40 },
      costUsd: 0.002,
    });
    expect(entries[1]!.latency).toBeGreaterThanOrEqual(0);
  });

  test('every run ends with an EXIT marker and two FIN summaries, also on failure', async () => {
    for (const scripts of [[[report]], [[{ error: { kind: 'auth' as const } }]]]) {
      const run = await runScenario({ scripts });
      const fin = run.result.logs.filter((l) => l.severity === 'FIN');
      expect(fin.map((l) => l.type)).toEqual(['llm', 'tool']);
      expect(run.result.logs.filter((l) => l.remoteIdentifier.startsWith('agent:EXIT-'))).toHaveLength(1);
      const exitIndex = run.result.logs.findIndex((l) => l.remoteIdentifier.startsWith('agent:EXIT-'));
      const finIndex = run.result.logs.findIndex((l) => l.severity === 'FIN');
      expect(exitIndex).toBeLessThan(finIndex);
    }
  });

  test('the FIN llm summary adds up tokens and cost', async () => {
    const run = await runScenario({ scripts: [[report]] });
    const fin = run.result.logs.find((l) => l.severity === 'FIN' && l.type === 'llm');
    expect(fin?.details).toMatchObject({
      calls: 1,
      failed: 0,
      input_tokens: 100,
      output_tokens: 20,
      cached_tokens: 40,
      cost_usd: 0.002,
    });
  });

  test('logs and accounting in the result are exactly those sent as events', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ name: 'a', arguments: {} }] }, report]],
    });
    const logEvents = run.events
      .filter((e) => e.event.type === 'log')
      .map((e) => (e.event as { entry: unknown }).entry);
    const accountingEvents = run.events
      .filter((e) => e.event.type === 'accounting')
      .map((e) => (e.event as { entry: unknown }).entry);
    expect(logEvents).toEqual(run.result.logs);
    expect(accountingEvents).toEqual(run.result.accounting);
    expect(logEvents[0]).toBe(run.result.logs[0]);
  });

  test('tool log identifiers are protocol:namespace:tool', async () => {
    const tools = memoryTools('files', { read: () => 'x' });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ name: 'read', arguments: { p: 1 } }] }, report]],
    });
    const lines = run.result.logs.filter((l) => l.type === 'tool' && l.severity === 'VRB');
    expect(lines.map((l) => `${l.direction} ${l.remoteIdentifier}`)).toEqual([
      'request memory:files:read',
      'response memory:files:read',
    ]);
    expect(toolEntries(run.result)[0]).toMatchObject({ charactersIn: JSON.stringify({ p: 1 }).length });
  });

  test('the op tree holds session, turns, llm and tool operations with totals', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [{ toolCalls: [{ name: 'a', arguments: {} }], usage: { inputTokens: 10, outputTokens: 5 } }, report],
      ],
    });
    const tree = run.result.opTree!;
    expect(tree.kind).toBe('session');
    expect(tree.status).toBe('ok');
    expect(tree.children.map((t) => t.label)).toEqual(['turn 1', 'turn 2']);
    expect(tree.children[0]!.children.map((n) => n.kind)).toEqual(['llm', 'tool']);
    expect(tree.totals).toMatchObject({ llmCalls: 2, toolCalls: 1, inputTokens: 110, outputTokens: 25 });
    const opTreeEvent = run.events.find((e) => e.event.type === 'op_tree')!;
    expect((opTreeEvent.event as { tree: unknown }).tree).toBe(tree);
  });

  test("a sub-agent's op tree hangs under the tool call and counts in the totals", async () => {
    const childTree = {
      id: 'child-0',
      kind: 'session' as const,
      label: 'child',
      sessionId: 'child-session',
      startedAt: 0,
      endedAt: 1,
      status: 'ok' as const,
      totals: {
        llmCalls: 1,
        toolCalls: 0,
        inputTokens: 7,
        outputTokens: 3,
        cachedTokens: 0,
        costUsd: 0,
        durationMs: 1,
      },
      children: [
        {
          id: 'child-1',
          kind: 'llm' as const,
          label: 'p:m',
          startedAt: 0,
          status: 'ok' as const,
          children: [],
          accounting: {
            type: 'llm' as const,
            timestamp: 0,
            status: 'ok' as const,
            latency: 1,
            provider: 'p',
            model: 'm',
            tokens: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
          },
        },
      ],
    };
    const tools = memoryTools('subagents', {
      agent__child: () => ({ ok: true, text: 'child says hi', childSession: childTree }),
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [{ name: 'agent__child', arguments: { prompt: 'hi' } }],
            usage: { inputTokens: 10, outputTokens: 5 },
          },
          report,
        ],
      ],
    });
    const toolNode = run.result.opTree!.children[0]!.children.find((n) => n.kind === 'tool')!;
    expect(toolNode.children).toEqual([childTree]);
    expect(run.result.opTree!.totals).toMatchObject({ llmCalls: 3, inputTokens: 117, outputTokens: 28 });
  });

  test('a provider that answers from a cache marks the call: accounting entry and op node say cached', async () => {
    const tools = memoryTools('t', {
      fresh: () => 'ran now',
      remembered: () => ({ ok: true, text: 'from the cache', cached: true }),
      failing: () => ({ ok: false, error: { kind: 'execution', message: 'no' } }),
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              { name: 'fresh', arguments: {} },
              { name: 'remembered', arguments: {} },
              { name: 'failing', arguments: {} },
            ],
          },
          report,
        ],
      ],
    });
    const entries = toolEntries(run.result).filter((e) => e.mcpServer === 't');
    expect(entries.map((e) => [e.command, e.status, e.cached])).toEqual([
      ['fresh', 'ok', undefined],
      ['remembered', 'ok', true],
      ['failing', 'failed', undefined],
    ]);
    const nodes = run.result.opTree!.children[0]!.children.filter((n) => n.kind === 'tool');
    expect(nodes.map((n) => [n.label, n.cached])).toEqual([
      ['fresh', undefined],
      ['remembered', true],
      ['failing', undefined],
    ]);
    // The model got the cached text as the tool's answer.
    const toolMessages = run.models[0]!.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.content)).toContain('from the cache');
  });

  test('event meta says master, session and source; only final_report is final', async () => {
    const run = await runScenario({ name: 'researcher', scripts: [[report]] });
    for (const { event, meta } of run.events) {
      expect(meta.isMaster).toBe(true);
      expect(meta.sessionId).toBe(run.result.sessionId);
      expect(meta.agentPath).toBe('researcher');
      expect(meta.isFinal).toBe(event.type === 'final_report');
    }
    expect(run.events.find((e) => e.event.type === 'output')?.meta.source).toBe('stream');
  });

  test('reasoning streams as thinking events and is kept, with its signature, for the next turn', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            reasoning: { text: ['let me ', 'think'], signature: 'sig-1' },
            toolCalls: [{ name: 'a', arguments: {} }],
          },
          report,
        ],
      ],
    });
    const thinking = run.events
      .filter((e) => e.event.type === 'thinking')
      .map((e) => (e.event as { text: string }).text);
    expect(thinking.join('')).toBe('let me think');
    const assistant = run.models[0]!.requests[1]!.messages.find((m) => m.role === 'assistant');
    expect(assistant).toMatchObject({ reasoning: [{ text: 'let me think', signature: 'sig-1' }] });
    expect(run.result.logs.some((l) => l.severity === 'THK' && l.message.includes('let me think'))).toBe(
      true,
    );
  });

  test('a listener that throws does not break the run', async () => {
    const run = await runScenario({
      onEvent: () => {
        throw new Error('listener bug');
      },
      scripts: [[report]],
    });
    expect(run.result.success).toBe(true);
  });

  test('the synthetic failure report is emitted as the final report of a failed run', async () => {
    const run = await runScenario({ scripts: [[{ error: { kind: 'quota' } }]] });
    const finalEvents = run.events.filter((e) => e.event.type === 'final_report');
    expect(finalEvents).toHaveLength(1);
    expect(finalEvents[0]!.meta.isFinal).toBe(true);
    expect(run.result.finalReport?.content).toMatch(/quota/);
  });
});

describe('configuration', () => {
  test('an invalid config ends with EXIT-CONFIGURATION and says what is wrong and allowed', async () => {
    const run = await runScenario({
      maxTurns: 0,
      output: { format: 'html' as never },
      scripts: [[]],
    });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(run.result.error).toMatch(/maxTurns must be a positive integer, got 0/);
    expect(run.result.error).toMatch(/output.format must be one of json, markdown, .*, got "html"/);
  });

  test('no model is a configuration error, not a crash', async () => {
    const { runAgent } = await import('../../src/index.js');
    const result = await runAgent({ models: [], prompt: 'x' });
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toMatch(/models must be a non-empty list of a ModelClient .*, got an empty list/);
  });

  test('a key of the old config names its replacement instead of being ignored', async () => {
    const { runAgent } = await import('../../src/index.js');
    const model = scriptedModel([]);
    // Seed 002's own names (targets, userPrompt, llmTimeout, callbacks) are accepted
    // (seed-002-example.test.ts); the keys this project dropped are not.
    const old = { agentName: 'a', nonce: 'n' };
    const result = await runAgent({ model, prompt: 'x', ...old } as never);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toContain('agentName is no longer a setting: use name');
    expect(result.error).toContain('nonce is no longer a setting: use internal.nonce');
    expect(model.calls).toBe(0);
  });
});
