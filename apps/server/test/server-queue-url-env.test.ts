// The queue's Redis URL with its password given only through AGENT_SERVER_QUEUE_URL: a face and
// a worker (real processes, a real redis-server with requirepass) run a session through the
// queue, and the password is in neither process's command line nor anything they print.

import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type RedisServer, startRedisServer } from '@agent/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type AgentDir,
  agentDir,
  finalReport,
  lastUserText,
  type RunningServer,
  startServer,
} from './helpers.js';
import { startWorkerProcess, type WorkerProcess } from './queue-fleet.js';

const PASSWORD = 'q-pass-7f3a91c2';
let redis: RedisServer;
let agents: AgentDir;
const started: { child: ChildProcess; exited: Promise<unknown> }[] = [];

beforeAll(async () => {
  redis = await startRedisServer({ password: PASSWORD });
  agents = await agentDir((request) => ({ text: finalReport(`Echo: ${lastUserText(request.messages)}`) }));
});
afterAll(async () => {
  for (const process_ of started) {
    process_.child.kill('SIGKILL');
    await process_.exited;
  }
  await agents?.close();
  await redis?.close();
});

function commandLine(pid: number | undefined): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
}

it('a face and a worker take the password-bearing URL from the environment and never show it', async () => {
  expect(redis.url).toContain(PASSWORD);
  const env = { AGENT_SERVER_QUEUE_URL: redis.url };
  const name = `env-url-${process.pid}`;
  const face: RunningServer = await startServer(
    ['--agent', agents.files[0]!, '--api', '0', '--allow-no-auth', '--queue-name', name],
    agents.dir,
    1,
    env,
  );
  started.push(face);
  const worker: WorkerProcess = await startWorkerProcess(
    ['--agent', agents.files[0]!, '--queue-name', name],
    agents.dir,
    env,
  );
  started.push(worker);
  const response = await fetch(`${face.urls.rest}/echo/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'through the queue' }),
  });
  expect(response.status).toBe(200);
  expect(JSON.stringify(await response.json())).toContain('Echo: through the queue');
  for (const process_ of [face, worker]) {
    expect(commandLine(process_.child.pid)).not.toContain(PASSWORD);
    expect(process_.stderr()).not.toContain(PASSWORD);
  }
});
