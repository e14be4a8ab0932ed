import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentDir, agentDir, finalReport, lastUserText, SERVER_BIN, startServer } from './helpers.js';

let agents: AgentDir;

beforeAll(async () => {
  agents = await agentDir((request) => {
    const prompt = lastUserText(request.messages);
    if (prompt.startsWith('slow')) {
      // About 1.5 s of streamed tokens.
      return { text: [finalReport(`Done: ${prompt}`)], delayMs: 1500 };
    }
    if (prompt.startsWith('endless')) return { text: [finalReport('never')], delayMs: 60_000 };
    return { text: finalReport(`Echo: ${prompt}`) };
  });
});

/** Waits until the model server has seen `count` more calls than `before`. */
async function modelCalls(before: number, count: number): Promise<void> {
  while (agents.model.requests.length < before + count) await new Promise((r) => setTimeout(r, 20));
}

afterAll(async () => {
  await agents?.close();
});

const run = (args: string[]) =>
  spawnSync(process.execPath, [SERVER_BIN, ...args], {
    cwd: agents.dir,
    encoding: 'utf8',
    env: { ...process.env, AGENT_SERVER_TOKENS: '' },
  });

describe('agent-server lifecycle', () => {
  it('refuses to serve without auth on a non-loopback host, and without tokens at all', () => {
    const open = run(['--agent', agents.files[0]!, '--api', '0', '--allow-no-auth', '--host', '0.0.0.0']);
    expect(open.status).toBe(2);
    expect(open.stderr).toMatch(/--allow-no-auth is refused on 0\.0\.0\.0/);
    const none = run(['--agent', agents.files[0]!, '--api', '0']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/no tokens/);
  });

  it('on SIGTERM lets in-flight requests finish, refuses new ones, and exits 0', async () => {
    const server = await startServer(
      ['--agent', agents.files[0]!, '--openai', '0', '--allow-no-auth'],
      agents.dir,
      1,
    );
    const client = new OpenAI({ baseURL: server.urls.openai, apiKey: 'none', maxRetries: 0 });
    const before = agents.model.requests.length;
    const inFlight = [1, 2, 3].map((n) =>
      client.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: `slow ${n}` }] }),
    );
    await modelCalls(before, 3);
    server.child.kill('SIGTERM');
    const results = await Promise.all(inFlight);
    expect(results.map((r) => r.choices[0]?.message.content)).toEqual([
      'Done: slow 1',
      'Done: slow 2',
      'Done: slow 3',
    ]);
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toMatch(/SIGTERM: draining/);
  });

  it('aborts sessions still running at the drain deadline with a clean error, and exits 0', async () => {
    const server = await startServer(
      ['--agent', agents.files[0]!, '--openai', '0', '--allow-no-auth', '--drain-seconds', '0.5'],
      agents.dir,
      1,
    );
    const client = new OpenAI({ baseURL: server.urls.openai, apiKey: 'none', maxRetries: 0 });
    const before = agents.model.requests.length;
    const stuck = client.chat.completions
      .create({ model: 'echo', messages: [{ role: 'user', content: 'endless' }] })
      .then(
        () => 'answered',
        (error: unknown) => (error instanceof OpenAI.APIError ? `error ${error.status}` : 'connection error'),
      );
    await modelCalls(before, 1);
    server.child.kill('SIGTERM');
    expect(await stuck).toMatch(/^error 500$/);
    expect(await server.exited).toBe(0);
  });

  it('ends a stream still running at the drain deadline with an error event', async () => {
    const server = await startServer(
      ['--agent', agents.files[0]!, '--openai', '0', '--allow-no-auth', '--drain-seconds', '0.5'],
      agents.dir,
      1,
    );
    const client = new OpenAI({ baseURL: server.urls.openai, apiKey: 'none', maxRetries: 0 });
    const before = agents.model.requests.length;
    const stream = await client.chat.completions.create({
      model: 'echo',
      stream: true,
      messages: [{ role: 'user', content: 'endless' }],
    });
    await modelCalls(before, 1);
    server.child.kill('SIGTERM');
    const outcome = await (async () => {
      for await (const _ of stream) {
        // role chunk only
      }
      return 'completed';
    })().catch((error: unknown) =>
      error instanceof OpenAI.APIError ? `error: ${error.message}` : `other: ${error}`,
    );
    expect(outcome).toMatch(/^error: .*agent run failed/);
    expect(await server.exited).toBe(0);
  });

  it('reads a config file and serves MCP over stdio', async () => {
    const config = join(agents.dir, 'server.json');
    writeFileSync(config, JSON.stringify({ agents: ['./echo.ai'], mcp: 'stdio', allowNoAuth: true }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER_BIN, '--config', config],
      cwd: agents.dir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'resume_session']);
    let updates = 0;
    const result = await client.callTool({ name: 'echo', arguments: { prompt: 'over stdio' } }, undefined, {
      onprogress: () => {
        updates += 1;
      },
    });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: over stdio' }]);
    expect(updates).toBeGreaterThan(0);
    await client.close();
  });
});
