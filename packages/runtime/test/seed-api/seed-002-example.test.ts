import { fileURLToPath } from 'node:url';
import type { AccountingEntry, LogEntry } from '@agent/protocol';
import { finalReport, startModelServer, toolCall } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { AIAgent, type AIAgentSessionConfig, type Configuration } from '../../src/index.js';
import { tempTree } from '../helpers/temp-tree.js';

// Seed 002's "Using the Library (minimal example)", as written, through @agent/runtime: its
// `config` (providers + MCP servers) is read, `targets` are `{ provider, model }` pairs and
// `tools` names MCP servers. The `openai` provider is the official client over real HTTP to the
// testkit's loopback model server; the MCP server is the repo's own stdio `agent-fs-mcp`.

// @agent/mcp's stdio fault fixture: its `pid` tool names its process.
const FAULT_SERVER = fileURLToPath(new URL('../../../mcp/test/fixtures/fault-server.mjs', import.meta.url));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("seed 002's minimal example through @agent/runtime", () => {
  test('runs as written: providers and MCP servers from config, targets as pairs, tools as server names', async () => {
    const data = tempTree({ 'hello.txt': 'hello from the data dir\n' });
    const server = await startModelServer({
      steps: [toolCall('fs__Read', { path: 'hello.txt' }), finalReport('Hello! The file says hello.')],
    });
    try {
      const config: Configuration = {
        providers: {
          openai: { apiKey: 'sk-dummy-not-a-key', type: 'openai', baseUrl: `${server.url}/v1` },
        },
        mcpServers: {
          fs: { type: 'stdio', command: 'agent-fs-mcp', args: [data] },
        },
        defaults: {},
      };
      const logs: LogEntry[] = [];
      const accounting: AccountingEntry[] = [];
      let capturedOutput = '';
      const sessionConfig: AIAgentSessionConfig = {
        config,
        targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
        tools: ['fs'],
        systemPrompt: 'You are helpful.',
        userPrompt: 'Say hello.',
        maxRetries: 3,
        maxTurns: 5,
        toolResponseMaxBytes: 12 * 1024,
        callbacks: {
          onEvent: (event, meta) => {
            if (event.type === 'log') logs.push(event.entry);
            if (event.type === 'accounting') accounting.push(event.entry);
            if (event.type === 'output') {
              if (meta.source !== 'finalize') capturedOutput += event.text;
            }
          },
        },
      };
      const session = AIAgent.create(sessionConfig);
      const result = await session.run();

      expect(result.error).toBeUndefined();
      expect(result.success).toBe(true);
      expect(result.finalReport?.content).toBe('Hello! The file says hello.');
      expect(capturedOutput).toContain('Hello! The file says hello.');
      // The MCP server's answer reached the model (over HTTP, in the second request).
      const second = JSON.stringify(server.requests[1]?.body ?? {});
      expect(second).toContain('hello from the data dir');
      // The official client called the chat API with the key (the testkit hides its value).
      expect(server.requests[0]?.route).toBe('POST /v1/chat/completions');
      expect(server.requests[0]?.headers?.authorization).toBe('[redacted]');
      // Logs end with the FIN summary; the callback saw the same logs.
      expect(result.logs.at(-1)?.severity).toBe('FIN');
      expect(logs.at(-1)?.severity).toBe('FIN');
      // Accounting: the LLM calls on openai/gpt-4o-mini and the MCP call on server fs.
      const llm = result.accounting.filter((e) => e.type === 'llm');
      expect(llm.length).toBe(2);
      expect(llm.every((e) => e.type === 'llm' && e.provider === 'openai' && e.model === 'gpt-4o-mini')).toBe(
        true,
      );
      const mcp = result.accounting.filter((e) => e.type === 'tool' && e.mcpServer === 'fs');
      expect(mcp).toHaveLength(1);
      expect(mcp[0]).toMatchObject({ status: 'ok', command: 'fs__Read' });
      expect(accounting.length).toBe(result.accounting.length);
      // The secret never shows in a log line.
      expect(JSON.stringify(result.logs)).not.toContain('sk-dummy-not-a-key');
    } finally {
      await server.close();
    }
  }, 30_000);

  test("AIAgent.run(session) runs it too; config.defaults apply under the session's own settings; the MCP servers it started are stopped when the run ends", async () => {
    const server = await startModelServer({ steps: [toolCall('f__pid'), finalReport('done')] });
    try {
      const session = AIAgent.create({
        config: {
          providers: { openai: { apiKey: 'sk-dummy', type: 'openai', baseUrl: `${server.url}/v1` } },
          mcpServers: { f: { type: 'stdio', command: process.execPath, args: [FAULT_SERVER] } },
          defaults: { temperature: 0.25, topP: 0.5 },
        },
        topP: 0.9,
        targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
        tools: ['f'],
        systemPrompt: 'You are helpful.',
        userPrompt: 'Which process?',
      });
      const result = await AIAgent.run(session);
      expect(result.success, result.error).toBe(true);
      const tool = result.conversation.find((m) => m.role === 'tool');
      const pid = Number(String(tool?.content ?? '').match(/\d+/)?.[0]);
      expect(pid).toBeGreaterThan(0);
      expect(isAlive(pid)).toBe(false);
      // config.defaults applies where the session config does not say: its own topP wins.
      expect(server.requests[0]?.body).toMatchObject({ temperature: 0.25, top_p: 0.9 });
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe("seed 002's example: bad input is the result's error, never a throw", () => {
  const base = {
    config: { providers: { openai: { apiKey: 'sk-dummy', type: 'openai' } }, mcpServers: {}, defaults: {} },
    targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
    tools: [] as string[],
    systemPrompt: 'You are helpful.',
    userPrompt: 'Say hello.',
  } satisfies AIAgentSessionConfig;

  test('a target naming a provider the config does not define', async () => {
    const logs: LogEntry[] = [];
    const result = await AIAgent.create({
      ...base,
      targets: [{ provider: 'anthropic', model: 'claude' }],
      callbacks: { onEvent: (event) => event.type === 'log' && logs.push(event.entry) },
    }).run();
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toMatch(/unknown provider `anthropic`/);
    expect(result.error).toContain('openai');
    expect(logs.at(-1)?.remoteIdentifier).toBe('agent:EXIT-CONFIGURATION');
  });

  test('a provider type this runtime has not', async () => {
    const result = await AIAgent.create({
      ...base,
      config: { providers: { openai: { apiKey: 'sk-dummy', type: 'carrier-pigeon' } }, mcpServers: {} },
    }).run();
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toMatch(/carrier-pigeon/);
    expect(result.error).toMatch(/openai/);
    expect(result.error).not.toContain('sk-dummy');
  });

  test('a tool naming an MCP server the config does not define', async () => {
    const result = await AIAgent.create({ ...base, tools: ['github'] }).run();
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toMatch(/github/);
    expect(result.error).toMatch(/mcpServers/);
  });

  test('targets missing or empty', async () => {
    const result = await AIAgent.create({ ...base, targets: [] }).run();
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/targets/);
  });
});
