import { afterEach, describe, expect, it } from 'vitest';
import { createMcpToolProviders, type McpLogEntry, McpToolProvider, ToolQueues } from '../src/index.js';
import { eventually, FAULT_SERVER, isAlive, noSignal } from './helpers.js';

const providers: McpToolProvider[] = [];

function faultServer(options: { toolTimeoutMs?: number } = {}): McpToolProvider {
  const provider = new McpToolProvider(
    'faults',
    { type: 'stdio', command: process.execPath, args: [FAULT_SERVER], ...options },
    { queues: new ToolQueues(), backoff: { initialMs: 50, maxMs: 200 } },
  );
  providers.push(provider);
  return provider;
}

function call(
  provider: McpToolProvider,
  tool: string,
  args: Record<string, unknown> = {},
  signal = noSignal(),
) {
  return provider.execute({ name: `faults__${tool}`, arguments: args, callId: tool }, { signal });
}

afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});

describe('fault handling against a stdio server', () => {
  it('returns a transport error when the server exits mid-call, then reconnects to a fresh process', async () => {
    const provider = faultServer();
    const before = await call(provider, 'pid');
    expect(before.ok).toBe(true);
    const crashed = await call(provider, 'crash');
    expect(crashed).toMatchObject({ ok: false, error: { kind: 'transport' } });
    const after = await call(provider, 'echo', { text: 'back again' });
    expect(after).toMatchObject({ ok: true, text: 'back again' });
    const pidAfter = await call(provider, 'pid');
    expect(pidAfter.ok && before.ok && pidAfter.text !== before.text).toBe(true);
  });

  it('times out a call that never answers, sends MCP cancellation, and keeps the connection', async () => {
    const provider = faultServer({ toolTimeoutMs: 300 });
    const result = await call(provider, 'hang');
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(result.ok === false && result.error.message).toContain('300 ms');
    const cancellations = await call(provider, 'cancellations');
    expect(cancellations).toMatchObject({ ok: true, text: '1' });
  });

  it('honours a per-call timeout and an abort signal (reported as aborted, cancellation sent)', async () => {
    const provider = faultServer();
    const quick = await provider.execute(
      { name: 'faults__hang', arguments: {}, callId: 'a' },
      { signal: noSignal(), timeoutMs: 150 },
    );
    expect(quick).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await call(provider, 'hang', {}, controller.signal);
    expect(aborted).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(await call(provider, 'cancellations')).toMatchObject({ ok: true, text: '2' });
  });

  it('rejects invalid arguments before calling, naming the path and what is allowed', async () => {
    const provider = faultServer();
    const result = await call(provider, 'echo', { text: 42 });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_arguments' } });
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain('"/text": must be string, got number 42');
    expect(message).toContain('text (string, required)');
    const missing = await call(provider, 'echo', {});
    expect(missing.ok === false && missing.error.message).toContain('missing required property "text"');
  });

  it('returns a 50 MB result intact', async () => {
    const provider = faultServer();
    const result = await call(provider, 'big', { megabytes: 50 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.text.length).toBe(50 * 1024 * 1024);
    expect(result.text.startsWith('0123456789abcdef0123')).toBe(true);
    expect(result.text.endsWith('END')).toBe(true);
  });

  it('stops the whole process tree on close, and closing twice is harmless', async () => {
    const provider = faultServer();
    const server = await call(provider, 'pid');
    const grandchild = await call(provider, 'spawn_grandchild');
    if (!server.ok || !grandchild.ok) throw new Error('fixture calls failed');
    const serverPid = Number(server.text);
    const grandchildPid = Number(grandchild.text);
    expect(isAlive(grandchildPid)).toBe(true);
    await provider.close();
    await provider.close();
    expect(await eventually(() => !isAlive(grandchildPid) && !isAlive(serverPid))).toBe(true);
    const afterClose = await call(provider, 'echo', { text: 'x' });
    expect(afterClose).toMatchObject({ ok: false, error: { kind: 'transport' } });
  });

  it("runs calls through the server's queue: a waiting call can be cancelled, the next one waits its turn", async () => {
    const queues = new ToolQueues();
    queues.configure({ solo: 1 });
    const provider = new McpToolProvider(
      'faults',
      { type: 'stdio', command: process.execPath, args: [FAULT_SERVER], queue: 'solo', toolTimeoutMs: 400 },
      { queues },
    );
    providers.push(provider);
    await provider.connect();
    const blocking = call(provider, 'hang');
    const controller = new AbortController();
    const cancelled = call(provider, 'echo', { text: 'never' }, controller.signal);
    const waiting = call(provider, 'echo', { text: 'my turn' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(queues.stats('solo')).toEqual({ running: 1, waiting: 2 });
    controller.abort();
    expect(await cancelled).toMatchObject({
      ok: false,
      error: { kind: 'aborted', message: expect.stringContaining('queued') },
    });
    expect(queues.stats('solo')).toEqual({ running: 1, waiting: 1 });
    expect(await blocking).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(await waiting).toMatchObject({ ok: true, text: 'my turn' });
  });

  it('reports an unknown tool with the tools that exist', async () => {
    const provider = faultServer();
    const result = await call(provider, 'nope');
    expect(result).toMatchObject({ ok: false, error: { kind: 'unknown_tool' } });
    expect(result.ok === false && result.error.message).toContain('faults__echo');
  });
});

describe('starting several servers', () => {
  it('keeps the working servers when one command does not exist, with a warning naming it', async () => {
    const warnings: string[] = [];
    const logs: McpLogEntry[] = [];
    const set = await createMcpToolProviders(
      {
        good: { type: 'stdio', command: process.execPath, args: [FAULT_SERVER] },
        missing: { type: 'stdio', command: 'definitely-not-a-command-4711' },
        broken: {
          type: 'stdio',
          command: process.execPath,
          args: ['-e', 'process.stderr.write("boom\\n"); process.exit(1)'],
        },
      },
      {
        onWarning: (warning) => warnings.push(warning.message),
        onLog: (entry) => logs.push(entry),
        queues: new ToolQueues(),
      },
    );
    try {
      expect(set.providers.map((provider) => provider.id)).toEqual(['good']);
      expect(set.warnings.map((warning) => warning.server).sort()).toEqual(['broken', 'missing']);
      expect(warnings.find((w) => w.includes('"missing"'))).toContain(
        'command not found: "definitely-not-a-command-4711"',
      );
      expect(warnings.find((w) => w.includes('"broken"'))).toContain('boom');
      const good = set.providers[0]!;
      const result = await good.execute(
        { name: 'good__echo', arguments: { text: 'hi' }, callId: '1' },
        { signal: noSignal() },
      );
      expect(result).toMatchObject({ ok: true, text: 'hi' });
      expect(
        logs.some((entry) => entry.server === 'good' && entry.message.includes('fault-server ready')),
      ).toBe(true);
    } finally {
      await set.close();
    }
  });

  it('reports a bad config entry as a warning instead of throwing', async () => {
    const set = await createMcpToolProviders({ odd: { type: 'ftp' } as never });
    expect(set.providers).toEqual([]);
    expect(set.warnings[0]?.message).toContain(
      'type must be one of stdio, http, sse, websocket, custom, got "ftp"',
    );
  });
});
