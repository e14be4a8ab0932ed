// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { validateAgentFile } from '../src/index.js';
import { tempTree } from './helpers/temp-tree.js';

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));

const cases = [
  { file: 'demo/orchestrator.ai', agents: ['orchestrator', 'summarizer'] },
  { file: 'code-review/reviewer.ai', agents: ['reviewer', 'security_check'] },
  { file: 'release-notes/writer.ai', agents: ['writer', 'classify'] },
];

describe('the example agents are valid', () => {
  test.each(cases)('$file', async ({ file, agents }) => {
    const elsewhere = tempTree();
    const result = await validateAgentFile(join(examples, file), {
      cwd: join(examples, file, '..'),
      env: { OPENAI_API_KEY: 'sk-example-openai-key', ANTHROPIC_API_KEY: 'sk-ant-example-key' },
      userConfigDir: join(elsewhere, 'user'),
      systemConfigDir: join(elsewhere, 'system'),
    });
    expect(result.problems).toEqual([]);
    expect(result.agents.map((a) => a.toolName)).toEqual(agents);
  });

  test('without its key, the code review names the missing variable', async () => {
    const elsewhere = tempTree();
    const result = await validateAgentFile(join(examples, 'code-review/reviewer.ai'), {
      cwd: join(examples, 'code-review'),
      env: { OPENAI_API_KEY: 'sk-example-openai-key' },
      userConfigDir: join(elsewhere, 'user'),
      systemConfigDir: join(elsewhere, 'system'),
    });
    expect(result.problems).toEqual([
      {
        file: 'agent.json',
        line: 4,
        message: expect.stringContaining('uses ${ANTHROPIC_API_KEY}, which is not set'),
      },
    ]);
  });
});
