import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest } from '@agent/testkit';
import { finalReport } from '@agent/testkit';
import { expect, test } from 'vitest';
import { createAgentRunner } from '../../src/index.js';
import { answeringServer, cachedAgentTree, recorder, userPrompt } from './helpers.js';

/** A model that reads the file the prompt names, then reports what the tool said. */
function reader(request: RecordedRequest) {
  const results = request.messages.filter((m) => m.role === 'tool');
  const prompt = userPrompt(request.messages);
  const call = prompt.startsWith('grep ')
    ? { name: 'fs__Grep', arguments: { pattern: prompt.slice(5) } }
    : { name: 'fs__Read', arguments: { path: prompt } };
  if (results.length === 0) return { toolCalls: [call] };
  return finalReport(`read: ${String(results[0]?.content).trim()}`);
}

test('toolsCache: a repeated call with the same arguments is answered from the cache, and marked so', async () => {
  const server = await answeringServer(reader);
  const { root, options } = cachedAgentTree(
    server,
    'tools: [fs]',
    {
      cache: { backend: 'memory' },
      mcpServers: { fs: { command: 'agent-fs-mcp', args: ['./data'], toolsCache: { Read: '5m' } } },
    },
    { 'data/notes.txt': 'version one\n', 'data/other.txt': 'the other file\n' },
  );
  const runner = await createAgentRunner('a.ai', options);
  try {
    const first = await runner.run('notes.txt');
    expect(first.finalReport?.content).toContain('version one');
    // The file changes; within the TTL the tool's answer does not.
    writeFileSync(join(root, 'data', 'notes.txt'), 'version two\n');
    const seen = recorder();
    const second = await runner.run('notes.txt', { onEvent: seen.onEvent });
    expect(second.finalReport?.content).toContain('version one');
    expect(seen.ofType('cache_hit')).toEqual([
      {
        type: 'cache_hit',
        hit: expect.objectContaining({ kind: 'tool', server: 'fs', tool: 'Read', backend: 'memory' }),
      },
    ]);
    const calls = second.accounting.filter((entry) => entry.type === 'tool' && entry.mcpServer === 'fs');
    expect(calls).toEqual([expect.objectContaining({ command: 'fs__Read', status: 'ok', cached: true })]);
    const toolNode = second.opTree!.children[0]!.children.find((node) => node.kind === 'tool');
    expect(toolNode).toMatchObject({ label: 'fs__Read', cached: true });
    // Other arguments: a miss, the server is called.
    const other = await runner.run('other.txt');
    expect(other.finalReport?.content).toContain('the other file');
    expect(other.accounting.some((entry) => entry.cached)).toBe(false);
  } finally {
    await runner.close();
  }
});

test('a server-wide cache; toolsCache off for one tool; failed calls are never cached', async () => {
  const server = await answeringServer(reader);
  const { root, options } = cachedAgentTree(
    server,
    'tools: [fs]',
    {
      cache: { backend: 'memory' },
      mcpServers: {
        fs: { command: 'agent-fs-mcp', args: ['./data'], cache: '1h', toolsCache: { Grep: 'off' } },
      },
    },
    { 'data/a.txt': 'alpha\n' },
  );
  const runner = await createAgentRunner('a.ai', options);
  try {
    const missing = await runner.run('missing.txt');
    expect(missing.accounting.find((e) => e.type === 'tool' && e.mcpServer === 'fs')?.status).toBe('failed');
    writeFileSync(join(root, 'data', 'missing.txt'), 'now it exists\n');
    const found = await runner.run('missing.txt');
    expect(found.finalReport?.content).toContain('now it exists');
    expect(found.accounting.some((entry) => entry.cached)).toBe(false);
    const again = await runner.run('missing.txt');
    expect(again.accounting.filter((entry) => entry.cached)).toEqual([
      expect.objectContaining({ command: 'fs__Read' }),
    ]);
    // Grep is off: the second identical search runs again and sees the new match.
    await runner.run('grep alpha');
    writeFileSync(join(root, 'data', 'b.txt'), 'alpha again\n');
    const grep = await runner.run('grep alpha');
    expect(grep.accounting.some((entry) => entry.cached)).toBe(false);
    expect(grep.finalReport?.content).toContain('b.txt');
  } finally {
    await runner.close();
  }
});
