import { join } from 'node:path';
import { finalReport, type ModelServer, type ScriptStep, startModelServer } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

// A sub-agent with tool search pauses for approval inside its session; the parent pauses with it.
// Resumed, the sub-agent's session offers the tools it had found before the pause.
const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const call = (id: string, name: string, args: Record<string, unknown>): ScriptStep => ({
  toolCalls: [{ id, name, arguments: args }],
});

test("a paused sub-agent's found tools come back with it on resume", async () => {
  const server = await startModelServer({
    strict: true,
    steps: [
      call('call_h1', 'agent__helper', { prompt: 'read hello.txt' }),
      call('call_s1', 'tool_search', { query: 'read a file', limit: 1 }),
      call('call_r1', 'fs__Read', { path: 'hello.txt' }),
    ],
  });
  servers.push(server);
  const root = tempTree({
    'agent.json': localConfig(
      { mcpServers: { fs: { command: 'agent-fs-mcp', args: ['./data'] } } },
      `${server.url}/v1`,
    ),
    'data/hello.txt': 'hello from the data dir\n',
    'main.ai': agentFile('models: [local/m]\nagents: [helper.ai]'),
    'helper.ai': agentFile(
      'models: [local/m]\ndescription: Reads files\ntools: [fs]\ntoolSearch: { after: 0 }\napproval:\n  tools: [fs__Read]',
    ),
  });
  const options = isolated(root, { env: { XDG_STATE_HOME: join(root, 'state') } });
  const runner = await createAgentRunner('main.ai', options);
  try {
    const paused = await runner.run('Read hello.txt through the helper.');
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    const pending = paused.success ? [] : (paused.pendingApprovals ?? []);
    expect(pending.map((p) => p.tool)).toEqual(['fs__Read']);
    const helperTools = (index: number) =>
      server.requests[index]!.tools.map((t) => t.name).filter(
        (n) => n.startsWith('fs__') || n === 'tool_search',
      );
    // Before the search the helper had only tool_search; after it, fs__Read too.
    expect(helperTools(1)).toEqual(['tool_search']);
    expect(helperTools(2)).toEqual(['fs__Read', 'tool_search']);

    server.push(
      finalReport('hello from the data dir', { format: 'sub-agent' }),
      finalReport('It says hello.'),
    );
    const resumed = await runner.resume(paused.sessionId, {
      approvals: Object.fromEntries(pending.map((p) => [p.callId, { approved: true }])),
    });
    expect(resumed.success, resumed.error).toBe(true);
    expect(resumed.finalReport?.content).toBe('It says hello.');
    // The resumed helper's request: the read ran, and the found tool is still offered.
    const afterResume = server.requests[3]!;
    expect(afterResume.messages.filter((m) => m.role === 'tool').at(-1)?.content).toContain(
      'hello from the data dir',
    );
    expect(helperTools(3)).toEqual(['fs__Read', 'tool_search']);
  } finally {
    await runner.close();
  }
});
