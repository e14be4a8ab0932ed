import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipUnless } from '../../../../tooling/vitest/skip.js';
import { REPO_DIR, runCli } from './helpers.js';

const demoDir = join(REPO_DIR, 'examples', 'demo');
const demoPresent = existsSync(join(demoDir, 'agent.json')) && existsSync(join(demoDir, 'script.json'));
const needsDemo = skipUnless(
  demoPresent,
  'examples/demo (agent.json and script.json) is not in this checkout',
);

describe('agent demo', () => {
  it('runs the example with a scripted model and prints its JSON report', needsDemo, async () => {
    const before = new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('agent-demo-')));
    const result = await runCli(['demo'], { cwd: tmpdir() });
    expect(result.code, result.stderr).toBe(0);
    const firstLine = result.stderr.split('\n')[0] ?? '';
    expect(firstLine).toMatch(/scripted/);
    const report = JSON.parse(result.stdout) as unknown;
    expect(report).toBeTypeOf('object');
    expect(result.stdout).not.toContain('\x1b[');
    // The temporary directory is gone.
    const after = readdirSync(tmpdir()).filter((name) => name.startsWith('agent-demo-') && !before.has(name));
    expect(after).toEqual([]);
  });

  it('prints the whole result with --json', needsDemo, async () => {
    const result = await runCli(['demo', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as { success: boolean; finalReport?: { format: string } };
    expect(parsed.success).toBe(true);
    expect(parsed.finalReport?.format).toBe('json');
  });

  it('fails with exit 7 naming AGENT_EXAMPLES_DIR when the examples are not there', async () => {
    const result = await runCli(['demo'], {
      env: { AGENT_EXAMPLES_DIR: join(tmpdir(), 'no-such-examples-dir') },
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('AGENT_EXAMPLES_DIR');
  });
});
