import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RecordedRequest, type RedisServer, startRedisServer } from '@agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { finalReport, lastUserText, SERVER_BIN, serverEnv } from './helpers.js';
import { startWorkerProcess } from './queue-fleet.js';
import { useQueueFleet } from './queue-harness.js';

// Issue 37: machines of a fleet that seal snapshots with different keys cannot read each
// other's sessions. A process whose key is not the fleet's stops at start (exit 2, the
// configuration exit code) with the reason, instead of losing the sessions it would take.
const { fleet, makeDir, track } = useQueueFleet();
const KEY_A = 'fleet-key-a-0123456789abcdef0123456789abcdef';
const KEY_B = 'fleet-key-b-0123456789abcdef0123456789abcdef';
const MISMATCH = 'this process seals snapshots with another key than the processes that wrote this store';
const FIX = 'set the same AGENT_SNAPSHOT_KEY (or sessions.snapshotKey) on every machine of the fleet';

// Each test has a redis-server of its own: the fleet's session store (and its key check) is
// per server, whatever the queue's name.
const servers: RedisServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
async function ownRedis(): Promise<string> {
  const server = await startRedisServer();
  servers.push(server);
  return server.url;
}

/** Runs `agent-server <args>` until it exits (bounded): its exit code and stderr. */
function runToExit(args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [SERVER_BIN, ...args], {
    cwd,
    env: serverEnv(cwd, env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`agent-server ${args[0]} did not exit:\n${stderr}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const echo = (request: RecordedRequest) => ({ text: finalReport(`Echo: ${lastUserText(request.messages)}`) });

describe('the fleet’s snapshot key', () => {
  it('a worker with another AGENT_SNAPSHOT_KEY than the face exits 2 at start with the reason, never the key', async () => {
    const url = await ownRedis();
    // The face seals with this machine's generated key file (no key set).
    const { name, dir } = await fleet(0, { url, handler: echo });
    const worker = await runToExit(
      ['worker', '--queue', url, '--queue-name', name, '--agent', dir.files[0]!],
      dir.dir,
      { AGENT_SNAPSHOT_KEY: KEY_B },
    );
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain(`agent-server worker: session store ${url}: ${MISMATCH}`);
    expect(worker.stderr).toContain('(key from AGENT_SNAPSHOT_KEY)');
    expect(worker.stderr).toContain(FIX);
    expect(worker.stderr).not.toContain(KEY_B);
    expect(worker.stderr).not.toContain('taking jobs');
  });

  it("agent.json's sessions.snapshotKey is the fleet's key: a worker reading the same agent.json runs its sessions; a face with another one exits 2", async () => {
    const url = await ownRedis();
    const withKey = (key: string) => (target: { dir: string }) => {
      const file = join(target.dir, 'agent.json');
      const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...config, sessions: { snapshotKey: key } }));
    };
    const { baseUrl, name, dir } = await fleet(0, { url, handler: echo, prepare: withKey(KEY_A) });
    // The worker reads the same agent.json (no AGENT_SNAPSHOT_KEY): without the config's key
    // reaching both stores, each would seal with its key file and the worker would be refused.
    const worker = await startWorkerProcess(
      ['--queue', url, '--queue-name', name, '--agent', dir.files[0]!],
      dir.dir,
      {},
    );
    track({ kill: () => worker.child.kill('SIGKILL'), exited: worker.exited });
    const response = await fetch(`${baseUrl}/echo/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'hello fleet' }),
    });
    expect(((await response.json()) as { finalReport?: { content?: string } }).finalReport?.content).toBe(
      'Echo: hello fleet',
    );

    const other = await makeDir(echo, withKey(KEY_B));
    const face = await runToExit(
      ['--agent', other.files[0]!, '--api', '0', '--allow-no-auth', '--queue', url],
      other.dir,
    );
    expect(face.code).toBe(2);
    expect(face.stderr).toContain(`agent-server: session store ${url}: ${MISMATCH}`);
    expect(face.stderr).toMatch(/\(key from sessions\.snapshotKey of \S*agent\.json\)/);
    expect(face.stderr).not.toContain(KEY_B);
    expect(face.stderr).not.toContain('listening on');
  });
});
