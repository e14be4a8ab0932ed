import type { AccountingEntry, LogEntry } from '@agent/protocol';
import { finalReport, NONCE_PLACEHOLDER, scriptedModel, sessionNonce } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { AIAgent, type AIAgentSessionConfig, runAgent } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';

// Seed 002's "Using the Library" example, with its own key names: they are accepted as the seed
// names them and mean what it says (targets, systemPrompt, userPrompt, expectedOutput,
// llmTimeout, toolTimeout, callbacks, config). Only `targets` holds model clients here: the core
// never reads providers (a `{ provider, model }` pair is `@agent/runtime`'s agent.json).

const SCHEMA = { type: 'object', required: ['greeting'], properties: { greeting: { type: 'string' } } };

describe("seed 002's example, as written", () => {
  test('the example config runs: targets, prompts, expectedOutput json, toolTimeout and callbacks all take effect', async () => {
    const slow = memoryTools('slow', {
      wait: () => new Promise((done) => setTimeout(() => done('late'), 2000)),
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'w', name: 'wait', arguments: {} }] },
      (r) => ({
        text: String(finalReport('{"greeting":"hello"}', { format: 'json' }).text).replaceAll(
          NONCE_PLACEHOLDER,
          sessionNonce(r.messages) ?? '',
        ),
      }),
    ]);
    const logs: LogEntry[] = [];
    const accounting: AccountingEntry[] = [];
    const sessionConfig = {
      config: { providers: {}, mcpServers: {}, defaults: {} },
      targets: [model],
      tools: [slow],
      systemPrompt: 'You are helpful.',
      userPrompt: 'Say hello.',
      expectedOutput: { format: 'json', schema: SCHEMA },
      maxRetries: 3,
      maxTurns: 5,
      llmTimeout: 60_000,
      toolTimeout: 50,
      toolResponseMaxBytes: 12 * 1024,
      callbacks: {
        onEvent: (event: { type: string; entry?: unknown }) => {
          if (event.type === 'log') logs.push(event.entry as LogEntry);
          if (event.type === 'accounting') accounting.push(event.entry as AccountingEntry);
        },
      },
    } as unknown as AIAgentSessionConfig;
    const started = Date.now();
    const result = await AIAgent.run(AIAgent.create(sessionConfig));
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    // expectedOutput json + schema: the report is validated JSON.
    expect(result.finalReport?.content_json).toEqual({ greeting: 'hello' });
    // systemPrompt and userPrompt reached the model.
    const first = model.requests[0]!.messages;
    expect(first[0]).toMatchObject({ role: 'system' });
    expect(String(first[0]!.content)).toContain('You are helpful.');
    expect(first.some((m) => m.role === 'user' && m.content === 'Say hello.')).toBe(true);
    // toolTimeout: 50 ms cut the 2 s tool off.
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.conversation.find((m) => m.role === 'tool')?.content).toMatch(/no answer within 50 ms/);
    // callbacks.onEvent got the logs and accounting.
    expect(logs.length).toBeGreaterThan(0);
    expect(accounting.length).toBe(result.accounting.length);
  });

  test('llmTimeout is the per-call model timeout', async () => {
    const model = scriptedModel([{ fault: 'hang' }, { fault: 'hang' }, { fault: 'hang' }]);
    const started = Date.now();
    const result = await runAgent({
      targets: [model],
      userPrompt: 'x',
      llmTimeout: 50,
      maxRetries: 1,
      maxTurns: 1,
    } as never);
    expect(result.success).toBe(false);
    expect(result.exitCode).not.toBe('EXIT-CONFIGURATION');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('a seed name and the project name with different values is a clear error', async () => {
    const model = scriptedModel([]);
    const result = await runAgent({
      model,
      targets: [scriptedModel([])],
      prompt: 'x',
      toolTimeoutMs: 10,
      toolTimeout: 20,
    } as never);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toContain('targets');
    expect(result.error).toContain('toolTimeout');
    expect(result.error).toContain('toolTimeoutMs');
    expect(model.calls).toBe(0);
  });
});
