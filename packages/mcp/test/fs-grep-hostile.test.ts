import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessFsProvider } from '../src/fs-server.js';
import { type McpToolProvider, ToolQueues } from '../src/index.js';
import { makeFsFixture } from './fs-fixture.js';
import { noSignal } from './helpers.js';

// The model writes Grep's pattern: a pattern that makes a backtracking engine take exponential
// time must not stall the process (the server also runs in-process, inside the agent).
describe('filesystem Grep with a hostile pattern', () => {
  const fixture = makeFsFixture();
  let fs: McpToolProvider;
  beforeAll(async () => {
    // 29 `a`s then `!`: a backtracking engine tries ~2^29 ways (seconds) before saying no.
    writeFileSync(join(fixture.root, 'hostile.txt'), `aaaa\n${'a'.repeat(29)}!\nAAAA\n`);
    fs = await createInProcessFsProvider({ root: fixture.root, tools: ['Grep'], queues: new ToolQueues() });
  });
  afterAll(async () => {
    await fs.close();
    fixture.remove();
  });

  async function grep(args: Record<string, unknown>): Promise<string> {
    const result = await fs.execute(
      { name: 'fs__Grep', arguments: args, callId: 'g' },
      { signal: noSignal() },
    );
    if (!result.ok) return `failed ${result.error.kind}: ${result.error.message}`;
    return result.isError === true ? `error: ${result.text}` : result.text;
  }

  it.each([
    ['matching lines', {}],
    ['count', { count: true }],
    ['context', { context: 1 }],
  ])(
    'answers ^(a+)+$ against a line of a...a! at once (%s)',
    async (_label, extra) => {
      const started = performance.now();
      const text = await grep({ pattern: '^(a+)+$', path: 'hostile.txt', ...extra });
      const elapsed = performance.now() - started;
      expect(text).toContain('1 matching line(s) in 1 file(s)');
      if (!('count' in extra)) expect(text).toContain('hostile.txt:1:aaaa');
      // Loose bound for a loaded machine: the backtracking engine needs seconds here.
      expect(elapsed).toBeLessThan(1_000);
    },
    120_000,
  );

  it('keeps ignoreCase and per-line anchors', async () => {
    expect(await grep({ pattern: '^(a+)+$', path: 'hostile.txt', ignoreCase: true })).toBe(
      'hostile.txt:1:aaaa\nhostile.txt:3:AAAA\n[2 matching line(s) in 1 file(s)]',
    );
  });

  it('refuses a backreference or a lookaround with what is allowed', async () => {
    const back = await grep({ pattern: '(a)\\1', path: 'hostile.txt' });
    expect(back).toMatch(/^error: pattern "\(a\)\\\\1" uses a backreference \(\\1\).*RE2/);
    expect(back).toContain('lookaround');
    expect(await grep({ pattern: 'a(?=!)', path: 'hostile.txt' })).toMatch(/uses a lookahead.*RE2/);
  });
});
