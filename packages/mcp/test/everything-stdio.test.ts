import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolProvider, ToolQueues } from '../src/index.js';
import { EVERYTHING_BIN } from './everything-server.js';
import { noSignal } from './helpers.js';

describe('server-everything over stdio', () => {
  let provider: McpToolProvider;

  beforeAll(async () => {
    provider = new McpToolProvider(
      'everything',
      { type: 'stdio', command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
      { queues: new ToolQueues() },
    );
    await provider.connect();
  });
  afterAll(() => provider.close());

  const call = (
    tool: string,
    args: Record<string, unknown>,
    onProgress?: (p: { progress: number; total?: number }) => void,
  ) =>
    provider.execute(
      { name: `everything__${tool}`, arguments: args, callId: tool },
      { signal: noSignal(), ...(onProgress ? { onProgress } : {}) },
    );

  it('lists the tools under safe, prefixed names with their schemas and the server instructions', async () => {
    const tools = await provider.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['everything__echo', 'everything__get-sum', 'everything__get-tiny-image']),
    );
    for (const name of names) expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
    const sum = tools.find((tool) => tool.name === 'everything__get-sum');
    expect(sum?.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(sum?.queue).toBe('default');
    expect(provider.toolName('everything__get-sum')).toBe('get-sum');
    expect(provider.instructions()).toContain('Everything');
  });

  it('echoes and adds', async () => {
    expect(await call('echo', { message: 'hello' })).toMatchObject({ ok: true, text: 'Echo: hello' });
    const sum = await call('get-sum', { a: 2, b: 3.5 });
    expect(sum.ok && sum.text).toContain('5.5');
  });

  it('forwards progress of a long-running tool', async () => {
    const progress: { progress: number; total?: number }[] = [];
    const result = await call('trigger-long-running-operation', { duration: 0.4, steps: 4 }, (p) =>
      progress.push(p),
    );
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.text).toContain('Long running operation completed');
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(progress.every((p) => p.total === 4)).toBe(true);
  });

  it('keeps an image result as an image part', async () => {
    const result = await call('get-tiny-image', {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.parts?.[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(
      Buffer.from(result.parts?.[0]?.type === 'image' ? result.parts[0].data : '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(result.text).toMatch(/\[image image\/png, \d+ bytes, attached\]/);
  });

  it('passes structured content through', async () => {
    const result = await call('get-structured-content', { location: 'Chicago' });
    expect(result).toMatchObject({
      ok: true,
      structured: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 },
    });
  });

  it('inlines text resources and describes blob resources', async () => {
    const text = await call('get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    expect(text.ok && text.text).toMatch(/\[resource demo:\/\/resource\/dynamic\/text\/1/);
    const blob = await call('get-resource-reference', { resourceType: 'Blob', resourceId: 2 });
    expect(blob.ok && blob.text).toMatch(
      /\[binary resource demo:\/\/resource\/dynamic\/blob\/2 .*bytes, not shown\]/,
    );
  });

  it('tells the model which values are allowed when arguments do not fit', async () => {
    const result = await call('get-structured-content', { location: 'Boston' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_arguments' } });
    expect(result.ok === false && result.error.message).toContain(
      '"/location": must be one of "New York", "Chicago", "Los Angeles", got string "Boston"',
    );
  });
});

describe('allow and deny lists', () => {
  it('exposes only allowed tools, deny winning over allow', async () => {
    const provider = new McpToolProvider(
      'ev',
      {
        type: 'stdio',
        command: process.execPath,
        args: [EVERYTHING_BIN, 'stdio'],
        allowTools: ['get-*', 'echo'],
        denyTools: ['get-env', '*image*'],
        queue: 'slow',
      },
      { queues: new ToolQueues() },
    );
    try {
      const tools = await provider.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('ev__echo');
      expect(names).toContain('ev__get-sum');
      expect(names).not.toContain('ev__get-env');
      expect(names).not.toContain('ev__get-tiny-image');
      expect(names.some((name) => name.startsWith('ev__toggle'))).toBe(false);
      expect(tools.every((tool) => tool.queue === 'slow')).toBe(true);
      const hidden = await provider.execute(
        { name: 'ev__get-env', arguments: {}, callId: '1' },
        { signal: noSignal() },
      );
      expect(hidden).toMatchObject({ ok: false, error: { kind: 'unknown_tool' } });
    } finally {
      await provider.close();
    }
  });
});
