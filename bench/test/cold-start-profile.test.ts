// The cold-start suite's profile reading: which package a frame belongs to, and Node's own
// frames counted for the package that called them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageOf, timeByPackage } from '../src/cold-start/cpu-profile.js';

describe('packageOf', () => {
  it('names node_modules packages (pnpm store, scoped), workspace packages and Node internals', () => {
    expect(packageOf('file:///r/node_modules/.pnpm/openai@6.49.0/node_modules/openai/index.js', 'f')).toBe(
      'openai',
    );
    expect(packageOf('file:///r/node_modules/@anthropic-ai/sdk/client.js', 'f')).toBe('@anthropic-ai/sdk');
    expect(packageOf('file:///r/packages/runtime/dist/index.js', 'f')).toBe('packages/runtime');
    expect(packageOf('node:internal/modules/cjs/loader', 'f')).toBe('node internals');
    expect(packageOf('', '(garbage collector)')).toBe('(garbage collector)');
  });
});

describe('timeByPackage', () => {
  it("counts a sample in Node's loader for the package whose code called it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-profile-test-'));
    try {
      const frame = (url: string, functionName = 'f') => ({ url, functionName });
      const profile = {
        nodes: [
          { id: 1, callFrame: frame('', '(root)'), children: [2, 4] },
          { id: 2, callFrame: frame('file:///r/node_modules/yaml/dist/index.js'), children: [3] },
          { id: 3, callFrame: frame('node:internal/modules/cjs/loader') },
          { id: 4, callFrame: frame('node:internal/process/task_queues') },
        ],
        samples: [2, 3, 3, 4],
        timeDeltas: [1000, 2000, 3000, 500],
      };
      writeFileSync(join(dir, 'run.cpuprofile'), JSON.stringify(profile));
      expect(timeByPackage(dir)).toEqual([
        { name: 'yaml', ms: 6 },
        { name: 'node internals', ms: 0.5 },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
