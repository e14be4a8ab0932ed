import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { skipUnless } from '../../../../tooling/vitest/skip.js';
import {
  addMcpServers,
  agentFile,
  isolatedEnv,
  removeWorkspaces,
  STUBBORN_MCP,
  scriptedServer,
  spawnCli,
  waitFor,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

const leftovers: number[] = [];
afterEach(async () => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
});

/** `process.kill(pid, 0)` succeeds, and the process is not a zombie waiting for its reaper. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

describe(
  'kill -9 of the CLI',
  skipUnless(process.platform !== 'win32', 'kill -9 of a process group is POSIX; Windows has neither'),
  () => {
    it('leaves no process of an MCP server that ignores SIGTERM, nor of the child it started', async () => {
      const server = await scriptedServer([
        () => ({ toolCalls: [{ name: 'stubborn__wait', arguments: {} }] }),
        () => ({ text: 'never asked for', delayMs: 60_000 }),
      ]);
      const ws = workspace(server, {
        'ask.ai': agentFile('models: test/scripted-model\ntools: [stubborn]\nmaxTurns: 4'),
      });
      const pidFile = ws.file('stubborn.pids');
      addMcpServers(ws, {
        stubborn: { type: 'stdio', command: process.execPath, args: [STUBBORN_MCP, pidFile] },
      });

      const { child, done } = spawnCli(['run', ws.file('ask.ai'), 'Go', '--config', ws.file('agent.json')], {
        cwd: ws.dir,
        env: isolatedEnv(ws),
      });
      // Mid-run: the server is up and the model has asked for the tool the server sits on.
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'));
      await waitFor(() => server.requests.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const pids = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
      leftovers.push(...pids);
      expect(pids.every(isRunning)).toBe(true);

      child.kill('SIGKILL');
      const result = await done;
      expect(result.code).toBeNull();
      const killedAt = Date.now();
      await waitFor(() => !pids.some(isRunning), 15_000).catch(() => undefined);
      expect(pids.filter(isRunning), 'processes left behind').toEqual([]);
      // SIGTERM is ignored, so the watchdog's SIGKILL after its grace did it: well under 15 s.
      expect(Date.now() - killedAt).toBeLessThan(15_000);
    });
  },
);
