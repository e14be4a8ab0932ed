// Hostile YAML: a frontmatter with tens of thousands of keys made `agent validate` quadratic
// (yaml's unique-key check compares each key with every earlier one). Keys are now counted
// before parsing, and duplicates found in one pass.
import { describe, expect, test } from 'vitest';
import { MAX_YAML_KEYS, validateAgentFile } from '../src/index.js';
import { isolated, localConfig, tempTree } from './helpers/temp-tree.js';

function agentWithKeys(count: number, nested = false): string {
  const lines = Array.from({ length: count }, (_, i) => `${nested ? '  ' : ''}k${i}: ${i}`);
  return `---\nmodels: [local/m]\n${nested ? 'output:\n' : ''}${lines.join('\n')}\n---\nhi\n`;
}

describe('YAML key bounds', () => {
  test('a frontmatter with more keys than the bound is refused at once, naming the bound', async () => {
    const root = tempTree({ 'agent.json': localConfig(), 'many.ai': agentWithKeys(30_000) });
    const started = Date.now();
    const { problems } = await validateAgentFile('many.ai', isolated(root));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(problems.map((p) => p.message)).toEqual([
      `invalid YAML in the frontmatter: it has more than ${MAX_YAML_KEYS} keys (the bound of a YAML document; an agent file needs a few dozen)`,
    ]);
  });

  test('keys just under the bound in one map are read in linear time; a duplicate is still found with its line', async () => {
    const keys = agentWithKeys(MAX_YAML_KEYS - 10, true).replace('k5: 5', 'k4: 5');
    const root = tempTree({ 'agent.json': localConfig(), 'wide.ai': keys });
    const started = Date.now();
    const { problems } = await validateAgentFile('wide.ai', isolated(root));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      line: 9,
      message: expect.stringMatching(/^invalid YAML in the frontmatter: Map keys must be unique/),
    });
  });

  test('keys just under the bound, all unknown: each reported at its line, in linear time', async () => {
    const root = tempTree({ 'agent.json': localConfig(), 'unknown.ai': agentWithKeys(MAX_YAML_KEYS - 10) });
    const started = Date.now();
    const { problems } = await validateAgentFile('unknown.ai', isolated(root));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(problems).toHaveLength(MAX_YAML_KEYS - 10);
    expect(problems.at(-1)).toMatchObject({ line: MAX_YAML_KEYS - 10 + 2 });
    expect(problems.at(-1)?.message).toMatch(/^unknown key `k9989`/);
  });
});
