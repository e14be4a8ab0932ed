import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { readSettingValues } from '../src/agent-file/setting-overrides.js';
import { runAgentFile, validateAgentFile } from '../src/index.js';
import { sessionConfigOf } from './helpers/prepare.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// `compaction:` (docs/compaction.md): the agent file's key and the config's default reach the
// core session as `compaction`; a bad value is a load error naming the file, the key and its line.

const AT_ALLOWED = 'a number above 0 and below 1 (a fraction of the usable context window; default 0.8)';

async function sessionCompaction(files: Record<string, string | object>) {
  const root = tempTree(files);
  const { config } = await sessionConfigOf(`${root}/agent.ai`, isolated(root));
  return config.compaction;
}

describe('compaction: in an agent file and the config defaults', () => {
  test('the file value reaches the core session; absent, the session has none (off)', async () => {
    const object = agentFile('models: [local/m]\ncompaction:\n  at: 0.7\n  keep: 3\n  tokens: 1024');
    expect(await sessionCompaction({ 'agent.json': localConfig(), 'agent.ai': object })).toEqual({
      at: 0.7,
      keep: 3,
      tokens: 1024,
    });
    const on = agentFile('models: [local/m]\ncompaction: true');
    expect(await sessionCompaction({ 'agent.json': localConfig(), 'agent.ai': on })).toBe(true);
    const plain = agentFile('models: [local/m]');
    expect(await sessionCompaction({ 'agent.json': localConfig(), 'agent.ai': plain })).toBeUndefined();
  });

  test("the value the runtime passes is one the core's own check accepts: a run with it completes", async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'agent.ai': agentFile('models: [local/m]\ncontextWindow: 16000\ncompaction: { at: 0.5, keep: 1 }'),
    });
    const model = scriptedModel([(r) => ({ text: finalAnswer(r.messages, 'done with compaction on') })]);
    const result = await runAgentFile('agent.ai', 'hi', { ...isolated(root), clientFactory: () => model });
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(result.finalReport?.content).toBe('done with compaction on');
  });

  test('defaults.compaction fills in for a silent file; a file key beats it, false included', async () => {
    const config = localConfig({ defaults: { compaction: { at: 0.6, attempts: 3 } } });
    const silent = agentFile('models: [local/m]');
    expect(await sessionCompaction({ 'agent.json': config, 'agent.ai': silent })).toEqual({
      at: 0.6,
      attempts: 3,
    });
    const own = agentFile('models: [local/m]\ncompaction: { keep: 4 }');
    expect(await sessionCompaction({ 'agent.json': config, 'agent.ai': own })).toEqual({
      at: 0.6,
      attempts: 3,
      keep: 4,
    });
    const off = agentFile('models: [local/m]\ncompaction: false');
    expect(await sessionCompaction({ 'agent.json': config, 'agent.ai': off })).toBe(false);
  });

  test('a bad value fails validate and a run, naming the file, compaction.at and its line', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'agent.ai': '---\nmodels: [local/m]\ncompaction:\n  at: 1.5\n  keep: 0\n---\nhi\n',
    });
    const validation = await validateAgentFile('agent.ai', isolated(root));
    expect(validation.ok).toBe(false);
    expect(validation.problems).toEqual([
      { file: 'agent.ai', line: 4, message: `\`compaction.at\` must be ${AT_ALLOWED}, got 1.5` },
      {
        file: 'agent.ai',
        line: 5,
        message:
          '`compaction.keep` must be a whole number from 1 to 100 (turns kept verbatim; default 2), got 0',
      },
    ]);
    const result = await runAgentFile('agent.ai', 'hi', isolated(root));
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toContain(`agent.ai:4: \`compaction.at\` must be ${AT_ALLOWED}, got 1.5`);
  });

  test('an unknown key and a value of the wrong type say what is allowed', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'typo.ai': '---\nmodels: [local/m]\ncompaction: { kep: 3 }\n---\nhi\n',
      'word.ai': '---\nmodels: [local/m]\ncompaction: sometimes\n---\nhi\n',
    });
    const typo = await validateAgentFile('typo.ai', isolated(root));
    expect(typo.problems).toEqual([
      { file: 'typo.ai', line: 3, message: '`compaction.kep` is not a compaction setting' },
    ]);
    const word = await validateAgentFile('word.ai', isolated(root));
    expect(word.problems).toEqual([
      {
        file: 'word.ai',
        line: 3,
        message:
          '`compaction` must be true, false or an object { at, keep, attempts, tokens } (each optional), got "sometimes"',
      },
    ]);
  });

  test('a bad defaults.compaction names agent.json and its line', async () => {
    const root = tempTree({
      'agent.json': localConfig({ defaults: { compaction: { tokens: 100 } } }),
      'agent.ai': agentFile('models: [local/m]'),
    });
    const validation = await validateAgentFile('agent.ai', isolated(root));
    expect(validation.ok).toBe(false);
    expect(validation.problems).toEqual([
      {
        file: 'agent.json',
        line: expect.any(Number),
        message: expect.stringMatching(
          /^`defaults\.compaction\.tokens` must be a whole number from 256 to 32768 .*, got 100$/,
        ),
      },
    ]);
  });

  test('--override compaction is checked the same way', () => {
    expect(readSettingValues({ compaction: { keep: 2 } }, '--override')).toEqual({ compaction: { keep: 2 } });
    expect(() => readSettingValues({ compaction: { at: 0 } }, '--override')).toThrow(
      `--override: \`compaction.at\` must be ${AT_ALLOWED}, got 0`,
    );
  });
});
