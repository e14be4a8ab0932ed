import { afterEach, describe, expect, it } from 'vitest';
import {
  type McpLogEntry,
  type McpServerConfig,
  McpToolProvider,
  ToolQueues,
  validateServerConfig,
} from '../src/index.js';
import { eventually, FAULT_SERVER, isAlive, noSignal } from './helpers.js';

// `healthProbe` against a real stdio server (test/fixtures/fault-server.mjs) that dies or stops
// answering: the probe restarts it before any tool call needs it.

const providers: McpToolProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
});

function faultServer(extra: Partial<McpServerConfig>, logs: McpLogEntry[] = []): McpToolProvider {
  const provider = new McpToolProvider(
    'probed',
    { type: 'stdio', command: process.execPath, args: [FAULT_SERVER], ...extra } as McpServerConfig,
    { queues: new ToolQueues(), backoff: { initialMs: 20, maxMs: 100 }, onLog: (entry) => logs.push(entry) },
  );
  providers.push(provider);
  return provider;
}

async function pidOf(provider: McpToolProvider): Promise<number> {
  const result = await provider.execute(
    { name: 'probed__pid', arguments: {}, callId: 'pid' },
    { signal: noSignal() },
  );
  if (!result.ok) throw new Error(`pid call failed: ${result.error.message}`);
  return Number(result.text);
}

describe('healthProbe', () => {
  it('a healthy server stays as it is', async () => {
    const provider = faultServer({ healthProbe: 'ping' });
    const pid = await pidOf(provider);
    expect(await provider.checkHealth()).toBe('healthy');
    expect(await pidOf(provider)).toBe(pid);
  });

  it('a server that died is restarted by the probes on their own, before any call needs it', async () => {
    const logs: McpLogEntry[] = [];
    const provider = faultServer({ healthProbe: 'listTools', healthProbeIntervalMs: 30 }, logs);
    const first = await pidOf(provider);
    process.kill(first, 'SIGKILL');
    // No call is made: only the probes can bring up the second session.
    expect(
      await eventually(() => logs.some((l) => l.message.startsWith('connected (session 2)')), 10_000),
    ).toBe(true);
    // Found gone (its transport closed) or failing the probe, depending on which came first.
    expect(
      logs.some(
        (l) =>
          l.level === 'error' &&
          /(server gone|health probe \(listTools\) failed).*restarting/.test(l.message),
      ),
    ).toBe(true);
    const second = await pidOf(provider);
    expect(second).not.toBe(first);
    expect(isAlive(first)).toBe(false);
  });

  it('a server that is alive but no longer answers fails the probe and is replaced', async () => {
    const logs: McpLogEntry[] = [];
    const provider = faultServer({ healthProbe: 'ping', healthProbeTimeoutMs: 300 }, logs);
    const first = await pidOf(provider);
    const frozen = await provider.execute(
      { name: 'probed__freeze', arguments: {}, callId: 'f' },
      { signal: noSignal() },
    );
    expect(frozen).toMatchObject({ ok: true, text: 'frozen' });
    const found = await provider.checkHealth();
    expect(found).toBe('restarted');
    expect(logs.some((l) => /health probe \(ping\) failed: .*; restarting/.test(l.message))).toBe(true);
    const second = await pidOf(provider);
    expect(second).not.toBe(first);
    // The deaf process was stopped, not left behind.
    expect(await eventually(() => !isAlive(first))).toBe(true);
  });

  it('a server that cannot be restarted is reported down', async () => {
    const provider = new McpToolProvider(
      'never',
      { type: 'stdio', command: process.execPath, args: ['-e', 'process.exit(1)'], healthProbe: 'ping' },
      { queues: new ToolQueues(), backoff: { initialMs: 60_000 } },
    );
    providers.push(provider);
    expect(await provider.checkHealth()).toBe('down');
    // Within the backoff wait no new process is started.
    expect(await provider.checkHealth()).toBe('down');
  });

  it('entries are checked', () => {
    expect(() => validateServerConfig('s', { type: 'stdio', command: 'x', healthProbe: 'pong' })).toThrow(
      /healthProbe.*ping or listTools/s,
    );
    expect(() =>
      validateServerConfig('s', {
        type: 'stdio',
        command: 'x',
        healthProbe: 'ping',
        healthProbeIntervalMs: 0,
      }),
    ).toThrow(/healthProbeIntervalMs/);
  });
});
