import type { AgentResult } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import type { AgentDefinition } from '../src/agent-file/definition.js';
import { createAgentRunner, RuntimeError, validateAgentFile } from '../src/index.js';
import { LevelLimiter } from '../src/runner/limiter.js';
import { SubAgentToolProvider } from '../src/tools/sub-agent-tool.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

const withAgents = (...agents: string[]) => agentFile(`models: [local/m]\nagents: [${agents.join(', ')}]`);
const leaf = agentFile('models: [local/m]');

async function loadError(files: Record<string, string | object>, entry = 'a.ai'): Promise<RuntimeError> {
  const root = tempTree({ 'agent.json': localConfig(), ...files });
  const error = await createAgentRunner(entry, isolated(root)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RuntimeError);
  return error as RuntimeError;
}

describe('agent tree guards', () => {
  test('a cycle is an error that shows the path', async () => {
    const error = await loadError({ 'a.ai': withAgents('./b.ai'), 'b.ai': withAgents('./a.ai') });
    expect(error.kind).toBe('agent_tree');
    expect(error.message).toBe('b.ai:3: sub-agent cycle: a.ai -> b.ai -> a.ai');
  });

  test('a longer cycle through sub-directories, and an agent calling itself', async () => {
    const long = await loadError({
      'a.ai': withAgents('./team/b.ai'),
      'team/b.ai': withAgents('./c.ai'),
      'team/c.ai': withAgents('../a.ai'),
    });
    expect(long.message).toBe('team/c.ai:3: sub-agent cycle: a.ai -> team/b.ai -> team/c.ai -> a.ai');
    const self = await loadError({ 'a.ai': withAgents('./a.ai') });
    expect(self.message).toBe('a.ai:3: sub-agent cycle: a.ai -> a.ai');
  });

  test('one file used by two parents is fine (a DAG, not a cycle)', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'a.ai': withAgents('./b.ai', './c.ai'),
      'b.ai': withAgents('./shared.ai'),
      'c.ai': withAgents('./shared.ai'),
      'shared.ai': leaf,
    });
    const validation = await validateAgentFile('a.ai', isolated(root));
    expect(validation.problems).toEqual([]);
    expect(validation.agents.map((a) => a.toolName).sort()).toEqual(['a', 'b', 'c', 'shared']);
  });

  test('two sub-agents of one parent with the same tool name', async () => {
    const error = await loadError({
      'a.ai': withAgents('./x/helper.ai', './y/helper.ai'),
      'x/helper.ai': leaf,
      'y/helper.ai': leaf,
    });
    expect(error.kind).toBe('agent_tree');
    expect(error.message).toBe(
      'a.ai:3: two sub-agents have the tool name `agent__helper`: x/helper.ai and y/helper.ai (set `toolName` in one of them)',
    );
  });

  test('the depth limit (default 5) counts levels below the top agent', async () => {
    const chain = (levels: number) => {
      const files: Record<string, string> = {};
      for (let i = 0; i < levels; i++) files[`l${i}.ai`] = withAgents(`./l${i + 1}.ai`);
      files[`l${levels}.ai`] = leaf;
      return files;
    };
    const root = tempTree({ 'agent.json': localConfig(), ...chain(5) });
    expect((await validateAgentFile('l0.ai', isolated(root))).ok).toBe(true);

    const error = await loadError(chain(6), 'l0.ai');
    expect(error.kind).toBe('agent_tree');
    expect(error.message).toBe(
      'l5.ai:3: sub-agents nest deeper than the limit of 5: l0.ai -> l1.ai -> l2.ai -> l3.ai -> l4.ai -> l5.ai -> l6.ai (raise defaults.maxSubAgentDepth in agent.json to allow it)',
    );
  });

  test('defaults.maxSubAgentDepth sets the limit', async () => {
    const error = await loadError({
      'agent.json': localConfig({ defaults: { maxSubAgentDepth: 1 } }),
      'a.ai': withAgents('./b.ai'),
      'b.ai': withAgents('./c.ai'),
      'c.ai': leaf,
    });
    expect(error.message).toMatch(
      /^b\.ai:3: sub-agents nest deeper than the limit of 1: a\.ai -> b\.ai -> c\.ai/,
    );
  });

  test('the sub-agent tool refuses to run beyond the depth limit at run time too', async () => {
    const child = {
      toolName: 'deep',
      input: { format: 'text' },
      output: { format: 'markdown', declared: false },
    } as AgentDefinition;
    let ran = false;
    const provider = new SubAgentToolProvider(child, {
      depth: 3,
      maxDepth: 2,
      parentAgentPath: 'a.b',
      limiter: new LevelLimiter(1),
      run: async () => {
        ran = true;
        return {} as AgentResult;
      },
    });
    const result = await provider.execute(
      { name: 'agent__deep', arguments: { prompt: 'go' }, callId: '1' },
      { signal: new AbortController().signal },
    );
    expect(result).toEqual({
      ok: false,
      error: { kind: 'execution', message: 'sub-agents may nest at most 2 levels deep' },
    });
    expect(ran).toBe(false);
  });
});

describe('sub-agents running at once', () => {
  test('at most `limit` per level; other levels are not blocked; a waiting caller can abort', async () => {
    const limiter = new LevelLimiter(2);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const task = () =>
      new Promise<void>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        releases.push(() => {
          running--;
          resolve();
        });
      });
    const signal = new AbortController().signal;
    const level1 = [limiter.run(1, signal, task), limiter.run(1, signal, task), limiter.run(1, signal, task)];
    await new Promise((r) => setImmediate(r));
    expect(running).toBe(2);
    // A nested level is not blocked by its parents holding their slots.
    const nested = limiter.run(2, signal, async () => 'nested ran');
    await expect(nested).resolves.toBe('nested ran');
    const controller = new AbortController();
    const waiting = limiter.run(1, controller.signal, task);
    controller.abort();
    await expect(waiting).rejects.toThrow('cancelled while waiting for a sub-agent slot');
    while (releases.length > 0 || running > 0) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(level1);
    expect(peak).toBe(2);
  });
});
