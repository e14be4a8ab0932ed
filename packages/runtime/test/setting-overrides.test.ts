import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { effectiveCacheTtl } from '../src/agent-file/setting-overrides.js';
import type { RunAgentFileOptions } from '../src/index.js';
import { runExpectedOutput } from '../src/runner/run-outcomes.js';
import { RunScope } from '../src/runner/run-scope.js';
import { prepareRunner } from '../src/runner/runner.js';
import { buildSessionConfig } from '../src/session-run/session-runner.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// ai-agent's `--override key=value` (every agent) and its per-setting flags (the top agent;
// sub-agents where their own file is silent), as its CLI-Overrides page describes them.

async function sessions(options: Partial<RunAgentFileOptions>) {
  const root = tempTree({
    'agent.json': localConfig({ defaults: { maxRetries: 2 } }),
    'main.ai': agentFile('models: [local/m]\ntemperature: 0.7\nagents: [./child.ai]'),
    'child.ai': agentFile('models: [local/m]\ndescription: child\ntopP: 0.5'),
  });
  const prepared = await prepareRunner(`${root}/main.ai`, {
    ...isolated(root),
    clientFactory: ({ provider, model }) => scriptedModel([], { provider, model }),
    ...options,
  });
  const { context } = prepared;
  try {
    const build = (depth: number) => {
      const definition = depth === 0 ? context.tree.root : [...context.tree.agents.values()][1]!;
      return buildSessionConfig(context, {
        definition,
        prompt: 'p',
        expectedOutput: runExpectedOutput(definition, {}),
        depth,
        trace: { llm: false, mcp: false },
        scope: new RunScope(undefined, (text) => text),
      });
    };
    return {
      main: build(0),
      child: build(1),
      models: (depth: number) =>
        (depth === 0 ? [context.tree.root] : [...context.tree.agents.values()].slice(1)).map((definition) =>
          (context.tree.models.get(definition.path) ?? []).map((ref) => ref.spec),
        )[0],
      cacheTtl: (depth: number) =>
        effectiveCacheTtl(
          context.runSettings,
          depth === 0 ? context.tree.root : [...context.tree.agents.values()][1]!,
          depth,
        ),
    };
  } finally {
    await context.mcp.close();
  }
}

describe('settings from the command line', () => {
  test('--override beats every agent file, sub-agents included', async () => {
    const { main, child } = await sessions({
      overrides: { temperature: 0.1, topP: 'none', llmTimeout: '2m', maxToolTurns: 4 },
    });
    for (const config of [main, child]) {
      expect(config.temperature).toBe(0.1);
      expect(config.topP).toBeUndefined();
      expect(config.llmTimeoutMs).toBe(120_000);
      expect(config.maxTurns).toBe(4);
      expect(config.maxRetries).toBe(2);
    }
  });

  test('per-setting flags beat the top file; a sub-agent keeps what its own file sets', async () => {
    const { main, child } = await sessions({ settings: { temperature: 0.2, topP: 0.9, reasoning: 'low' } });
    expect(main).toMatchObject({ temperature: 0.2, topP: 0.9, reasoning: { effort: 'low' } });
    expect(child).toMatchObject({ temperature: 0.2, topP: 0.5, reasoning: { effort: 'low' } });
  });

  test('an unknown key or a bad value names the flag and what is allowed', async () => {
    await expect(sessions({ overrides: { temprature: 0.1 } })).rejects.toThrow(
      '--override: unknown key `temprature`; did you mean `temperature`?',
    );
    await expect(sessions({ settings: { maxTurns: 0 } })).rejects.toThrow(
      'command line: `maxTurns` must be a positive integer (turns), got 0',
    );
  });

  test('--override stream=false asks every agent for whole answers; a non-boolean is refused', async () => {
    const { main, child } = await sessions({ overrides: { stream: false } });
    expect(main.stream).toBe(false);
    expect(child.stream).toBe(false);
    const plain = await sessions({});
    expect(plain.main.stream).toBeUndefined();
    await expect(sessions({ overrides: { stream: 'sometimes' } })).rejects.toThrow(
      '--override: `stream` must be true or false, got "sometimes"',
    );
  });

  test('the response cache TTL: --override cache= beats every file, --cache the top file and silent sub-agents', async () => {
    const all = await sessions({ overrides: { cache: '1h' } });
    expect([all.cacheTtl(0), all.cacheTtl(1)]).toEqual([3_600_000, 3_600_000]);
    const top = await sessions({ settings: { cache: '1mo' } });
    expect([top.cacheTtl(0), top.cacheTtl(1)]).toEqual([30 * 86_400_000, 30 * 86_400_000]);
    const none = await sessions({});
    expect([none.cacheTtl(0), none.cacheTtl(1)]).toEqual([0, 0]);
    await expect(sessions({ settings: { cache: 'forever' } })).rejects.toThrow(
      'command line: `cache` must be off, a number of milliseconds, or a duration such as 30s, 5m, 1h, 1d, 1w, 1mo, 1y (at most a year), got "forever"',
    );
  });

  test("topModels (ai-agent --models) replaces the top agent's models only; models replaces every agent's", async () => {
    const top = await sessions({ topModels: ['local/a', 'local/b'] });
    expect([top.models(0), top.models(1)]).toEqual([['local/a', 'local/b'], ['local/m']]);
    const every = await sessions({ models: ['local/c'], topModels: ['local/a'] });
    expect([every.models(0), every.models(1)]).toEqual([['local/c'], ['local/c']]);
  });
});
