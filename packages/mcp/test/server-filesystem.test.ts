import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolProvider, ToolQueues } from '../src/index.js';
import { noSignal, packageFile, tempDir } from './helpers.js';

describe('@modelcontextprotocol/server-filesystem over stdio', () => {
  const dir = tempDir('mcp-server-fs-');
  let provider: McpToolProvider;

  beforeAll(async () => {
    writeFileSync(join(dir.path, 'hello.txt'), 'hello from a temp dir\nsecond line\n');
    provider = new McpToolProvider(
      'files',
      {
        type: 'stdio',
        command: process.execPath,
        args: [packageFile('@modelcontextprotocol/server-filesystem', 'dist/index.js'), dir.path],
      },
      { queues: new ToolQueues() },
    );
    await provider.connect();
  });
  afterAll(async () => {
    await provider.close();
    dir.remove();
  });

  it('lists its tools', async () => {
    const names = (await provider.listTools()).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['files__read_text_file', 'files__list_directory', 'files__search_files']),
    );
  });

  it('reads a file in the allowed directory', async () => {
    const result = await provider.execute(
      { name: 'files__read_text_file', arguments: { path: join(dir.path, 'hello.txt') }, callId: '1' },
      { signal: noSignal() },
    );
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.text).toContain('hello from a temp dir');
  });

  it('passes the server-side refusal through as a tool error result', async () => {
    const result = await provider.execute(
      { name: 'files__read_text_file', arguments: { path: '/etc/hostname' }, callId: '2' },
      { signal: noSignal() },
    );
    expect(result).toMatchObject({ ok: true, isError: true });
    expect(result.ok && result.text).toMatch(/denied|outside/i);
  });
});
