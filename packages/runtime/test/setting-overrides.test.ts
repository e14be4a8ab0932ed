import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import type { RunAgentFileOptions } from '../src/index.js';
import { runExpectedOutput } from '../src/run-outcomes.js';
import { RunScope } from '../src/run-scope.js';
import { prepareRunner } from '../src/runner.js';
import { buildSessionConfig } from '../src/session-runner.js';
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
    return { main: build(0), child: build(1) };
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
});
