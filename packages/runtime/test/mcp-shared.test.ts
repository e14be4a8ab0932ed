import { fileURLToPath } from 'node:url';
import { finalReport, toolCall } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { createAgentRunner } from '../src/index.js';
import { startRoleServer } from './helpers/role-server.js';
import { agentFile, isolated, tempTree } from './helpers/temp-tree.js';

// `shared: false` (ai-agent's private server): each session starts its own server and stops it
// after. The server is @agent/mcp's stdio fault fixture, whose `pid` tool names its process.
const FAULT_SERVER = fileURLToPath(new URL('../../mcp/test/fixtures/fault-server.mjs', import.meta.url));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function pidsOfTwoRuns(
  shared: boolean | undefined,
): Promise<{ pids: number[]; aliveAfterRuns: boolean[] }> {
  const steps = () => [toolCall('f__pid'), finalReport('done')];
  const { server, requestsOf } = await startRoleServer({ m: [...steps(), ...steps()] });
  const root = tempTree({
    '.ai-agent.json': {
      providers: { p: { type: 'openai-compatible', baseUrl: `${server.url}/v1`, apiKey: 'k' } },
      mcpServers: {
        f: {
          type: 'stdio',
          command: [process.execPath, FAULT_SERVER],
          ...(shared === undefined ? {} : { shared }),
        },
      },
    },
    'main.ai': agentFile('models: [p/m]\ntools: [f]'),
  });
  const runner = await createAgentRunner('main.ai', isolated(root));
  try {
    for (let i = 0; i < 2; i++) {
      const result = await runner.run('which process?');
      expect(result.success, result.error).toBe(true);
    }
    // The tool's answer is in the request after each call.
    const pids = [1, 3].map((index) => {
      const messages = (requestsOf('m')[index]!.body as { messages: { role: string; content: string }[] })
        .messages;
      return Number(messages.find((m) => m.role === 'tool')?.content.match(/\d+/)?.[0]);
    });
    return { pids, aliveAfterRuns: pids.map(isAlive) };
  } finally {
    await runner.close();
    await server.close();
  }
}

describe('MCP servers: shared', () => {
  test('shared: false gives each session a server of its own, stopped when the session ends', async () => {
    const { pids, aliveAfterRuns } = await pidsOfTwoRuns(false);
    expect(pids.every((pid) => pid > 0)).toBe(true);
    expect(pids[0]).not.toBe(pids[1]);
    expect(aliveAfterRuns).toEqual([false, false]);
  });

  test('by default one server serves every session of a runner', async () => {
    const { pids, aliveAfterRuns } = await pidsOfTwoRuns(undefined);
    expect(pids[0]).toBe(pids[1]);
    expect(aliveAfterRuns).toEqual([true, true]);
  });
});
