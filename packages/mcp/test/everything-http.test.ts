import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolProvider, ToolQueues } from '../src/index.js';
import { startEverythingHttp } from './everything-server.js';
import { noSignal } from './helpers.js';

describe('server-everything over Streamable HTTP', () => {
  let server: Awaited<ReturnType<typeof startEverythingHttp>>;
  let provider: McpToolProvider;

  beforeAll(async () => {
    server = await startEverythingHttp('streamableHttp');
    provider = new McpToolProvider('web', { type: 'http', url: server.url }, { queues: new ToolQueues() });
    await provider.connect();
  }, 30_000);
  afterAll(async () => {
    await provider?.close();
    await server?.stop();
  });

  const call = (
    tool: string,
    args: Record<string, unknown>,
    onProgress?: (p: { progress: number }) => void,
  ) =>
    provider.execute(
      { name: `web__${tool}`, arguments: args, callId: tool },
      { signal: noSignal(), ...(onProgress ? { onProgress } : {}) },
    );

  it('echoes and adds', async () => {
    expect(await call('echo', { message: 'over http' })).toMatchObject({ ok: true, text: 'Echo: over http' });
    const sum = await call('get-sum', { a: 40, b: 2 });
    expect(sum.ok && sum.text).toContain('42');
  });

  it('streams progress, returns images and structured content', async () => {
    const progress: number[] = [];
    const long = await call('trigger-long-running-operation', { duration: 0.3, steps: 3 }, (p) =>
      progress.push(p.progress),
    );
    expect(long.ok).toBe(true);
    // The SDK's HTTP transport may drop the last notification when it arrives with the result.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual([1, 2, 3].slice(0, progress.length));
    const image = await call('get-tiny-image', {});
    expect(image.ok && image.parts?.[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const structured = await call('get-structured-content', { location: 'New York' });
    expect(structured).toMatchObject({ ok: true, structured: { temperature: 33 } });
  });

  it('returns a transport error while the server is down, and reconnects once it is back', async () => {
    const first = await startEverythingHttp('streamableHttp');
    const restartable = new McpToolProvider(
      'flaky',
      { type: 'http', url: first.url },
      { queues: new ToolQueues(), backoff: { initialMs: 10 } },
    );
    const echo = () =>
      restartable.execute(
        { name: 'flaky__echo', arguments: { message: 'again' }, callId: '1' },
        { signal: noSignal() },
      );
    try {
      expect(await echo()).toMatchObject({ ok: true });
      await first.stop();
      expect(await echo()).toMatchObject({ ok: false, error: { kind: 'transport' } });
      const second = await startEverythingHttp('streamableHttp', first.port);
      try {
        expect(await echo()).toMatchObject({ ok: true, text: 'Echo: again' });
      } finally {
        await second.stop();
      }
    } finally {
      await restartable.close();
    }
  }, 30_000);
});

describe('server-everything over HTTP+SSE', () => {
  it('calls a tool through the SSE transport', async () => {
    const server = await startEverythingHttp('sse');
    const provider = new McpToolProvider(
      'old',
      { type: 'sse', url: server.url },
      { queues: new ToolQueues() },
    );
    try {
      expect(
        await provider.execute(
          { name: 'old__echo', arguments: { message: 'sse' }, callId: '1' },
          { signal: noSignal() },
        ),
      ).toMatchObject({
        ok: true,
        text: 'Echo: sse',
      });
    } finally {
      await provider.close();
      await server.stop();
    }
  }, 30_000);
});
