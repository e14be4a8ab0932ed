// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { join } from 'node:path';
import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { createAgentRunner, describeConfig, runAgentFile, validateAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

describe('createAgentRunner', () => {
  test('runs many times over one set of MCP servers, with per-run options; close is idempotent', async () => {
    const root = tempTree({
      'agent.json': localConfig({ mcpServers: { fs: { command: 'agent-fs-mcp', args: ['./data'] } } }),
      'data/hello.txt': 'hello from the data dir\n',
      'a.ai': agentFile(
        'models: [local/m]\ntools: [fs]\ndescription: Reads files.\noutput:\n  format: json\n  schema: { type: object, required: [text], properties: { text: { type: string } } }',
      ),
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'fs__Read', arguments: { path: 'hello.txt' } }] },
      (r) => ({
        text: finalAnswer(r.messages, JSON.stringify({ text: r.messages.at(-2)?.content ?? '' }), 'json'),
      }),
      (r) => ({ text: finalAnswer(r.messages, 'second run, as text', 'text') }),
    ]);
    const runner = await createAgentRunner('a.ai', { ...isolated(root), clientFactory: () => model });
    expect(runner.summary).toEqual({
      toolName: 'a',
      file: 'a.ai',
      description: 'Reads files.',
      models: ['local/m'],
      tools: ['fs'],
      subAgents: [],
      outputFormat: 'json',
      outputSchema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
    });
    const first = await runner.run('read hello.txt', { traceMcp: true });
    expect(first.finalReport?.content_json).toEqual({
      text: expect.stringContaining('hello from the data dir'),
    });
    const mcpTraces = first.logs.filter((l) => l.severity === 'TRC' && l.type === 'tool');
    expect(mcpTraces.map((l) => [l.direction, l.remoteIdentifier])).toEqual([
      ['request', 'mcp:fs:fs__Read'],
      ['response', 'mcp:fs:fs__Read'],
    ]);
    expect(mcpTraces[1]?.message).toContain('hello from the data dir');

    const history = [
      { role: 'user' as const, content: 'earlier question' },
      { role: 'assistant' as const, content: 'earlier answer' },
    ];
    const logs: string[] = [];
    const second = await runner.run(
      { prompt: 'again', history },
      {
        format: 'text',
        maxTurns: 2,
        headendId: 'test-headend',
        traceLlm: true,
        onEvent: (event) =>
          event.type === 'log' &&
          logs.push(`${event.entry.severity} ${event.entry.remoteIdentifier} ${event.entry.headendId}`),
      },
    );
    expect(second.finalReport).toMatchObject({ format: 'text', content: 'second run, as text' });
    const request = model.requests[2]!;
    expect(request.messages.slice(1, 4).map((m) => m.content)).toEqual([
      'earlier question',
      'earlier answer',
      'again',
    ]);
    expect(request.messages.at(-1)?.content).toContain('turn 1/2,');
    expect(logs).toContain('TRC scripted:scripted-model test-headend');
    expect(second.logs.some((l) => l.severity === 'TRC' && l.direction === 'response')).toBe(true);

    await runner.close();
    await runner.close();
    const late = await runner.run('after close');
    expect(late).toMatchObject({
      success: false,
      exitCode: 'EXIT-CONFIGURATION',
      error: 'the agent runner was closed',
    });
  });

  test('an MCP server that cannot start is a warning in every run; the agent still runs', async () => {
    const root = tempTree({
      'agent.json': localConfig({ mcpServers: { broken: { command: 'no-such-command-for-tests' } } }),
      'a.ai': agentFile('models: [local/m]\ntools: [broken]'),
    });
    const model = scriptedModel([(r) => ({ text: finalAnswer(r.messages, 'fine without it') })]);
    const result = await runAgentFile('a.ai', 'hi', { ...isolated(root), clientFactory: () => model });
    expect(result.success).toBe(true);
    expect(result.logs.find((l) => l.remoteIdentifier === 'mcp:broken')).toMatchObject({
      severity: 'WRN',
      message: expect.stringContaining('MCP server "broken" was not started'),
    });
  });

  test('an oversized tool result goes to the tool-output module (on by default); toolOutput: false keeps it', async () => {
    const big = Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
    const files = {
      'agent.json': localConfig({ mcpServers: { fs: { command: 'agent-fs-mcp', args: ['./data'] } } }),
      'data/big.txt': big,
    };
    const run = async (extra: string) => {
      const root = tempTree({
        ...files,
        'a.ai': agentFile(`models: [local/m]\ntools: [fs]\ntoolResponseMaxBytes: 2048${extra}`),
      });
      const model = scriptedModel([
        { toolCalls: [{ name: 'fs__Read', arguments: { path: 'big.txt' } }] },
        (r) => ({ text: finalAnswer(r.messages, 'read it') }),
      ]);
      const result = await runAgentFile('a.ai', 'read big.txt', {
        ...isolated(root),
        clientFactory: () => model,
      });
      expect(result.success).toBe(true);
      return result.conversation.find((m) => m.role === 'tool')?.content ?? '';
    };
    const stored = await run('');
    expect(stored).toContain('tool_output');
    expect(stored).not.toContain('line 199');
    expect(await run('\ntoolOutput: false')).toContain('line 199');
  });

  test('stopSignal asks for a final turn (graceful stop)', async () => {
    const root = tempTree({ 'agent.json': localConfig(), 'a.ai': agentFile('models: [local/m]') });
    const model = scriptedModel([
      (r) => ({ text: finalAnswer(r.messages, 'stopped early, here is what I have') }),
    ]);
    const stop = new AbortController();
    stop.abort();
    const reasons: (string | undefined)[] = [];
    const result = await runAgentFile('a.ai', 'hi', {
      ...isolated(root),
      clientFactory: () => model,
      stopSignal: stop.signal,
      onEvent: (event) => event.type === 'turn_started' && reasons.push(event.forcedFinalReason),
    });
    expect(result.finalReport?.content).toBe('stopped early, here is what I have');
    expect(reasons).toEqual(['user_stop']);
  });

  test('per-run --schema implies json; the schema is enforced', async () => {
    const root = tempTree({ 'agent.json': localConfig(), 'a.ai': agentFile('models: [local/m]') });
    const model = scriptedModel([(r) => ({ text: finalAnswer(r.messages, '{"n": 2}', 'json') })]);
    const schema = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } };
    const result = await runAgentFile('a.ai', 'hi', {
      ...isolated(root),
      schema,
      clientFactory: () => model,
    });
    expect(result.finalReport).toMatchObject({ format: 'json', content_json: { n: 2 } });
  });
});

describe('validateAgentFile and describeConfig', () => {
  test('validate reports provider settings that cannot work, at the config line', async () => {
    const root = tempTree({
      'agent.json': {
        providers: {
          openai: { type: 'openai' },
          local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' },
        },
      },
      'a.ai': agentFile('models: [openai/gpt-test, local/m]\nagents: [./b.ai]'),
      'b.ai': agentFile('models: [local/m]\ndescription: helper'),
    });
    const validation = await validateAgentFile('a.ai', isolated(root));
    expect(validation.ok).toBe(false);
    expect(validation.problems).toEqual([
      {
        file: 'agent.json',
        line: 3,
        message: 'provider `openai`: apiKey is required for type "openai" without a baseURL',
      },
    ]);
    expect(validation.agents.map((a) => [a.toolName, a.subAgents])).toEqual([
      ['a', ['b']],
      ['b', []],
    ]);
  });

  test('describeConfig lists layers, providers with their models, servers and agents, with no variable set', async () => {
    const root = tempTree({
      'agent.json': {
        providers: {
          local: {
            type: 'openai-compatible',
            baseURL: 'http://127.0.0.1:11434/v1',
            models: { qwen3: { contextWindow: 32768 } },
          },
          anthropic: { type: 'anthropic', apiKey: '${ANTHROPIC_API_KEY}' },
        },
        mcpServers: { fs: { command: 'agent-fs-mcp', args: ['.'] }, web: { url: 'http://127.0.0.1:9/mcp' } },
      },
      'a.ai': agentFile(
        'models: [local/qwen3, anthropic/claude-sonnet-4-5]\nagents: [./b.ai]\nusage: a "question"',
      ),
      'b.ai': agentFile('models: [local/qwen3]'),
    });
    const described = await describeConfig({ ...isolated(root), agentFiles: ['a.ai'] });
    expect(described.config).toEqual({
      layers: [join(root, 'agent.json')],
      providers: [
        { name: 'local', type: 'openai-compatible', models: ['qwen3'] },
        { name: 'anthropic', type: 'anthropic', models: [] },
      ],
      mcpServers: [
        { name: 'fs', type: 'stdio' },
        { name: 'web', type: 'http' },
      ],
      httpApis: [],
    });
    expect(described.agents.map((a) => [a.toolName, a.models, a.usage])).toEqual([
      ['a', ['local/qwen3', 'anthropic/claude-sonnet-4-5'], 'a "question"'],
      ['b', ['local/qwen3'], undefined],
    ]);
  });
});

describe('run input', () => {
  test('an option of the old shape or an input of neither shape is refused, naming what to write instead', async () => {
    const root = tempTree({ 'agent.json': localConfig(), 'a.ai': agentFile('models: [local/m]') });
    const model = scriptedModel([]);
    const runner = await createAgentRunner('a.ai', { ...isolated(root), clientFactory: () => model });
    try {
      const old = await runner.run('x', { conversationHistory: [] } as never);
      expect(old).toMatchObject({ success: false, exitCode: 'EXIT-CONFIGURATION' });
      expect(old.error).toBe(
        'conversationHistory is no longer a run option: pass the history with the prompt, run({ prompt, history })',
      );
      const wrong = await runner.run({ text: 'x' } as never);
      expect(wrong.error).toBe(
        'the input must be a prompt string or { prompt: string, history?: ConversationMessage[] }',
      );
      expect(model.calls).toBe(0);
    } finally {
      await runner.close();
    }
  });
});
