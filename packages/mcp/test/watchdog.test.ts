import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { skipUnless } from '../../../tooling/vitest/skip.js';
import { watchdogScript } from '../src/transports/process-group.js';
import { eventually, FIXTURES, isAlive } from './helpers.js';

const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/** Starts the host fixture and resolves with it and the tree's pids once the watchdog has them. */
async function host(mode?: 'untrack'): Promise<{ child: ChildProcess; pids: number[] }> {
  const child = spawn(
    process.execPath,
    [`${FIXTURES}/watchdog-host.mjs`, watchdogScript(), ...(mode === undefined ? [] : [mode])],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  started.push(child.pid!);
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').once('data', resolve);
    child.once('exit', () => reject(new Error('the host fixture exited early')));
  });
  const pids = line.trim().split(' ').map(Number);
  started.push(...pids);
  return { child, pids };
}

describe(
  'the process-group watchdog',
  skipUnless(process.platform !== 'win32', 'process groups and SIGKILL are POSIX; Windows has neither'),
  () => {
    it('stops a tree that ignores SIGTERM when its host is killed with SIGKILL', async () => {
      const { child, pids } = await host();
      expect(pids.every(isAlive)).toBe(true);
      const killed = Date.now();
      child.kill('SIGKILL');
      // SIGTERM first (ignored here), SIGKILL after the 1.5 s grace.
      expect(await eventually(() => !pids.some(isAlive), 10_000)).toBe(true);
      expect(Date.now() - killed).toBeGreaterThanOrEqual(1_000);
    });

    it('leaves alone a group its host said it stopped itself', async () => {
      const { child, pids } = await host('untrack');
      child.kill('SIGKILL');
      // Long enough for a watchdog that still listed the group to have killed it.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(pids.every(isAlive)).toBe(true);
    });
  },
);
