import { describe, expect, test } from 'vitest';
import { createAgentRunner, RuntimeError, runAgentFile, validateAgentFile } from '../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// Orchestration is checked when the files load, like sub-agents: every problem names the file
// and the line that caused it, and nothing runs.

const leaf = agentFile('models: [local/m]');
const agent = (lines: string) => agentFile(`models: [local/m]\n${lines}`);

async function problemsOf(files: Record<string, string | object>, entry = 'a.ai') {
  const root = tempTree({ 'agent.json': localConfig(), ...files });
  const validation = await validateAgentFile(entry, isolated(root));
  expect(validation.ok).toBe(false);
  return validation.problems;
}

describe('orchestration at load time', () => {
  test('a cycle through a handoff and an advisor is a load error with file and line', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'a.ai': agent('handoff: ./b.ai'),
      'b.ai': agent('advisors: [./a.ai]'),
    });
    const error = await createAgentRunner('a.ai', isolated(root)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeError);
    expect((error as RuntimeError).kind).toBe('agent_tree');
    expect((error as RuntimeError).message).toBe(
      'b.ai:3: agent cycle: a.ai -[handoff]-> b.ai -[advisor]-> a.ai',
    );
    expect((error as RuntimeError).line).toBe(3);
    // A run of it fails before any model call, with the same words.
    const result = await runAgentFile('a.ai', 'go', isolated(root));
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toBe('b.ai:3: agent cycle: a.ai -[handoff]-> b.ai -[advisor]-> a.ai');
  });

  test('a router whose destination routes back to it, and an agent that hands off to itself', async () => {
    expect(
      await problemsOf({
        'a.ai': agent('router:\n  destinations:\n    - ./b.ai\n    - ./c.ai'),
        'b.ai': leaf,
        'c.ai': agent('router: { destinations: [./a.ai] }'),
      }),
    ).toEqual([
      {
        file: 'c.ai',
        line: 3,
        message: 'agent cycle: a.ai -[router destination]-> c.ai -[router destination]-> a.ai',
      },
    ]);
    expect(await problemsOf({ 'a.ai': agent('handoff: ./a.ai') })).toEqual([
      { file: 'a.ai', line: 3, message: 'agent cycle: a.ai -[handoff]-> a.ai' },
    ]);
  });

  test('missing files are named at the line that names them, each with what it was to be', async () => {
    const problems = await problemsOf({
      'a.ai': agent('advisors: [./gone.ai]\nrouter:\n  destinations: [./nowhere.ai]\nhandoff: ./lost.ai'),
    });
    expect(problems.map((p) => [p.file, p.line, p.message.replace(/ \(looked for .*\)$/, '')])).toEqual([
      ['a.ai', 3, 'advisor file `./gone.ai` does not exist'],
      ['a.ai', 5, 'router destination file `./nowhere.ai` does not exist'],
      ['a.ai', 6, 'handoff file `./lost.ai` does not exist'],
    ]);
  });

  test('a chain deeper than maxSubAgentDepth is refused', async () => {
    const root = tempTree({
      'agent.json': localConfig({ defaults: { maxSubAgentDepth: 2 } }),
      'a.ai': agent('handoff: ./b.ai'),
      'b.ai': agent('handoff: ./c.ai'),
      'c.ai': agent('handoff: ./d.ai'),
      'd.ai': leaf,
    });
    const validation = await validateAgentFile('a.ai', isolated(root));
    expect(validation.problems).toEqual([
      {
        file: 'c.ai',
        line: 3,
        message:
          'agents (sub-agents, advisors, router destinations, handoffs) chain deeper than the limit of 2: a.ai -[handoff]-> b.ai -[handoff]-> c.ai -[handoff]-> d.ai (raise defaults.maxSubAgentDepth in agent.json to allow it)',
      },
    ]);
  });

  test('two destinations with one name, and keys of the wrong shape', async () => {
    expect(
      await problemsOf({
        'a.ai': agent('router: { destinations: [./x/help.ai, ./y/help.ai] }'),
        'x/help.ai': leaf,
        'y/help.ai': leaf,
      }),
    ).toEqual([
      {
        file: 'a.ai',
        line: 3,
        message:
          'two router destinations have the name `help`: x/help.ai and y/help.ai (set `toolName` in one of them)',
      },
    ]);
    expect(await problemsOf({ 'a.ai': agent('router: { destination: [./b.ai] }') })).toEqual([
      {
        file: 'a.ai',
        line: 3,
        message: '`router` needs `destinations` (a non-empty list of agent file paths, or one string)',
      },
      {
        file: 'a.ai',
        line: 3,
        message: 'unknown key `destination` in `router`; did you mean `destinations`?',
      },
    ]);
    expect(await problemsOf({ 'a.ai': agent('router: { destinations: [] }') })).toEqual([
      {
        file: 'a.ai',
        line: 3,
        message:
          '`router.destinations` must be a non-empty list of agent file paths, or one string, got an empty list',
      },
    ]);
    expect(await problemsOf({ 'a.ai': agent('handoff: [./b.ai]') })).toEqual([
      { file: 'a.ai', line: 3, message: '`handoff` must be an agent file path, got a list of 1 item' },
    ]);
    expect(await problemsOf({ 'a.ai': agent('advisorTimeout: 5000') })).toEqual([
      {
        file: 'a.ai',
        line: 3,
        message: '`advisorTimeout` is set but the file lists no `advisors`; list them or remove the key',
      },
    ]);
  });

  test('shorthands: comma-separated advisors, a list for router; the summary names the agents', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'a.ai': agent('advisors: ./b.ai, ./c.ai\nrouter: [./d.ai, ./e.ai]\nhandoff: ./f.ai'),
      'b.ai': leaf,
      'c.ai': leaf,
      'd.ai': leaf,
      'e.ai': agent('toolName: tech'),
      'f.ai': leaf,
    });
    const validation = await validateAgentFile('a.ai', isolated(root));
    expect(validation.problems).toEqual([]);
    expect(validation.agents.find((a) => a.toolName === 'a')?.orchestration).toEqual({
      advisors: ['b', 'c'],
      router: ['d', 'tech'],
      handoff: 'f',
    });
    expect(validation.agents.find((a) => a.toolName === 'b')?.orchestration).toBeUndefined();
    const runner = await createAgentRunner('a.ai', isolated(root));
    expect(runner.summary.orchestration).toEqual({
      advisors: ['b', 'c'],
      router: ['d', 'tech'],
      handoff: 'f',
    });
    await runner.close();
  });
});
