// biome-ignore-all lint/suspicious/noTemplateCurlyInString: agent.json uses ${LOCAL_URL}.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { runAgentFile } from '../../src/index.js';
import { agentFile, tempTree } from '../helpers/temp-tree.js';
import { answeringServer } from './helpers.js';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./fixtures/run-agent.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('../..', import.meta.url));

async function inChild(dir: string, url: string, ...prompts: string[]) {
  const { stdout } = await run(
    process.execPath,
    ['--conditions=@agent/source', '--import', 'tsx', script, dir, ...prompts],
    { cwd: packageDir, timeout: 120_000, env: { ...process.env, LOCAL_URL: `${url}/v1` } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
    success: boolean;
    content?: string;
    cached: boolean;
  }[];
}

test('processes share one SQLite file: answers one stored reach the others without a model call', async () => {
  const server = await answeringServer();
  const dir = tempTree({
    'agent.json': {
      providers: { local: { type: 'openai-compatible', baseURL: '${LOCAL_URL}' } },
      cache: { backend: 'sqlite', path: './shared.sqlite' },
    },
    'a.ai': agentFile('models: [local/m]\ncache: 1d'),
  });
  expect(await inChild(dir, server.url, 'Summarise the plan')).toEqual([
    { success: true, content: 'Answer #1 to: Summarise the plan', cached: false },
  ]);
  expect(server.calls).toBe(1);
  // Two at once: both read the first process's answer, then each stores a new one, sharing the lock.
  const [b, c] = await Promise.all([
    inChild(dir, server.url, 'Summarise the plan', 'first new'),
    inChild(dir, server.url, 'Summarise the plan', 'second new'),
  ]);
  expect([b[0], c[0]]).toEqual([
    { success: true, content: 'Answer #1 to: Summarise the plan', cached: true },
    { success: true, content: 'Answer #1 to: Summarise the plan', cached: true },
  ]);
  expect([b[1]?.cached, c[1]?.cached, b[1]?.success, c[1]?.success]).toEqual([false, false, true, true]);
  expect(server.calls).toBe(3);
  // And this process reads what both stored.
  const options = {
    cwd: dir,
    env: { LOCAL_URL: `${server.url}/v1` },
    userConfigDir: dir,
    systemConfigDir: dir,
  };
  for (const [prompt, stored] of [
    ['first new', b[1]],
    ['second new', c[1]],
  ] as const) {
    const result = await runAgentFile('a.ai', prompt, options);
    expect(result.finalReport?.content).toBe(stored?.content);
    expect(result.accounting[0]?.cached).toBe(true);
  }
  expect(server.calls).toBe(3);
}, 180_000);
