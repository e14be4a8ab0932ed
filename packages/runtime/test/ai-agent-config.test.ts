// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { join } from 'node:path';
import { startModelServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { resolveConfig } from '../src/config/layers.js';
import { runAgentFile, validateAgentFile } from '../src/index.js';
import { modelClientConfig } from '../src/models/build-targets.js';
import { mcpServerConfig } from '../src/tools/build-tools.js';
import { configOf, ref } from './helpers/ai-agent-config.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, tempTree } from './helpers/temp-tree.js';

// ai-agent's `.ai-agent.json` and `.ai-agent.env`, in the shapes its Configuration pages
// document (written afresh here), read where ai-agent reads them and translated field by field.

describe('.ai-agent.json: where it is read', () => {
  test("ai-agent's places, each after this runtime's agent.json at the same place", () => {
    const provider = (name: string) => ({ providers: { [name]: { type: 'openai', apiKey: 'k' } } });
    const root = tempTree({
      'cwd/agent.json': provider('a'),
      'cwd/.ai-agent.json': provider('b'),
      'agents/.ai-agent.json': provider('c'),
      'home/.ai-agent.json': provider('d'),
      'etc-ai-agent/ai-agent.json': provider('e'),
      'explicit/.ai-agent.prod.json': provider('f'),
    });
    const config = resolveConfig(
      {
        cwd: join(root, 'cwd'),
        env: {},
        configPath: '../explicit/.ai-agent.prod.json',
        userConfigDir: join(root, 'none'),
        systemConfigDir: join(root, 'none'),
        aiAgentHomeDir: join(root, 'home'),
        aiAgentSystemDir: join(root, 'etc-ai-agent'),
      },
      join(root, 'agents'),
    );
    expect(config.layers.map((path) => path.slice(root.length + 1))).toEqual([
      'explicit/.ai-agent.prod.json',
      'cwd/agent.json',
      'cwd/.ai-agent.json',
      'agents/.ai-agent.json',
      'home/.ai-agent.json',
      'etc-ai-agent/ai-agent.json',
    ]);
    expect([...config.providers.keys()].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  test('${VAR} is filled from the .ai-agent.env beside it (not from a .env), then the environment', () => {
    const root = tempTree({
      '.ai-agent.json': {
        providers: { nova: { type: 'openai-compatible', baseUrl: '${NOVA_URL}', apiKey: '${NOVA_KEY}' } },
      },
      '.ai-agent.env': '# secrets\nexport NOVA_URL=http://nova.test/v1\nNOVA_KEY="sk-from-env-file"\n',
      '.env': 'NOVA_URL=http://wrong.test/v1\n',
    });
    const config = resolveConfig(isolated(root));
    const client = modelClientConfig(ref('nova/m'), config);
    expect(client).toMatchObject({ baseURL: 'http://nova.test/v1', apiKey: 'sk-from-env-file' });
    expect(config.secrets).toContain('sk-from-env-file');
  });

  test("the working directory's .ai-agent.env comes after the one beside the file, before the environment", () => {
    const root = tempTree({
      'cwd/.ai-agent.env': 'NOVA_KEY=sk-cwd-secret\nNOVA_URL=http://cwd.test/v1\nORG=cwd-org\n',
      'agents/.ai-agent.json': {
        providers: {
          nova: {
            type: 'openai-compatible',
            baseUrl: '${NOVA_URL}',
            apiKey: '${NOVA_KEY}',
            headers: { 'x-org': '${ORG}', 'x-region': '${REGION}' },
          },
        },
      },
      'agents/.ai-agent.env': 'NOVA_URL=http://beside.test/v1\n',
    });
    const config = resolveConfig(
      { ...isolated(root), cwd: join(root, 'cwd'), env: { ORG: 'env-org', REGION: 'eu' } },
      join(root, 'agents'),
    );
    const client = modelClientConfig(ref('nova/m'), config);
    expect(client).toMatchObject({
      baseURL: 'http://beside.test/v1',
      apiKey: 'sk-cwd-secret',
      headers: { 'x-org': 'cwd-org', 'x-region': 'eu' },
    });
    // A key from it is a secret like any other.
    expect(config.secrets).toContain('sk-cwd-secret');
  });

  test("this runtime's agent.json does not read the working directory's .ai-agent.env", () => {
    const root = tempTree({
      '.ai-agent.env': 'NOVA_KEY=sk-cwd\n',
      'agent.json': {
        providers: {
          nova: { type: 'openai-compatible', baseURL: 'http://n.test/v1', apiKey: '${NOVA_KEY:-none}' },
        },
      },
    });
    const client = modelClientConfig(ref('nova/m'), resolveConfig(isolated(root)));
    expect(client.apiKey).toBe('none');
  });
});

describe('.ai-agent.json: providers', () => {
  test('openrouter, ollama and google through their OpenAI-compatible endpoints', () => {
    const config = configOf({
      providers: {
        openrouter: { type: 'openrouter', apiKey: 'k1' },
        ollama: { type: 'ollama', baseUrl: 'http://gpu.lan:11434' },
        ollamaDefault: { type: 'ollama' },
        google: { type: 'google', apiKey: 'k2' },
      },
    });
    const of = (spec: string) => modelClientConfig(ref(spec), config);
    expect(of('openrouter/openai/gpt-4o')).toMatchObject({
      type: 'openai-compatible',
      baseURL: 'https://openrouter.ai/api/v1',
      model: 'openai/gpt-4o',
    });
    expect(of('ollama/llama3.1').baseURL).toBe('http://gpu.lan:11434/v1');
    expect(of('ollamaDefault/llama3.1').baseURL).toBe('http://localhost:11434/v1');
    expect(of('google/gemini-2.0-flash')).toMatchObject({
      type: 'openai-compatible',
      baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    });
  });

  test('baseUrl, cacheStrategy, openaiMode, tokenizer and per-model contextWindow', () => {
    const config = configOf({
      providers: {
        anthropic: { type: 'anthropic', apiKey: 'k', cacheStrategy: 'none' },
        openai: {
          type: 'openai',
          apiKey: 'k',
          baseUrl: 'http://proxy.test/v1',
          openaiMode: 'responses',
          tokenizer: 'tiktoken:gpt-4o',
          models: { 'gpt-4o': { contextWindow: 128000, contextWindowBufferTokens: 512 } },
        },
      },
    });
    expect(modelClientConfig(ref('anthropic/claude'), config).promptCaching).toBe(false);
    expect(modelClientConfig(ref('openai/gpt-4o'), config)).toMatchObject({
      type: 'openai-responses',
      baseURL: 'http://proxy.test/v1',
      tokenizer: 'openai',
      contextWindow: 128000,
    });
    expect(config.providers.get('openai')?.value.models?.['gpt-4o']?.contextBuffer).toBe(512);
  });

  test('model overrides force a value or, with null, keep the parameter out of the request', () => {
    const config = configOf({
      providers: {
        nova: {
          type: 'openai-compatible',
          baseUrl: 'http://nova.test/v1',
          models: { o1: { overrides: { temperature: 0.2, top_p: null, repeat_penalty: null } } },
        },
      },
    });
    expect(modelClientConfig(ref('nova/o1'), config).extraBody).toEqual({
      temperature: 0.2,
      top_p: null,
      repetition_penalty: null,
    });
  });

  test('top-level pricing becomes the model pricing in USD per million tokens', () => {
    const config = configOf({
      providers: { anthropic: { type: 'anthropic', apiKey: 'k' } },
      pricing: {
        anthropic: {
          'claude-sonnet-4': { unit: 'per_1m', prompt: 3, completion: 15, cacheRead: 0.3, cacheWrite: 3.75 },
          'claude-haiku': { unit: 'per_1k', prompt: 0.00025, completion: 0.00125 },
        },
      },
    });
    expect(modelClientConfig(ref('anthropic/claude-sonnet-4'), config).pricing).toEqual({
      input: 3,
      output: 15,
      cachedInput: 0.3,
      cacheWrite: 3.75,
    });
    const haiku = modelClientConfig(ref('anthropic/claude-haiku'), config).pricing!;
    expect(haiku.input).toBeCloseTo(0.25);
    expect(haiku.output).toBeCloseTo(1.25);
  });
});

describe('.ai-agent.json: MCP servers and queues', () => {
  test('command as an array, environment, durations, tool filters, legacy types, enabled: false', () => {
    const config = configOf({
      queues: { default: { concurrent: 8 }, heavy: { concurrent: 2 } },
      mcpServers: {
        fs: {
          type: 'local',
          command: ['npx', '-y', '@scope/server'],
          args: ['/data'],
          environment: { TOKEN: 'abc' },
          requestTimeoutMs: '30s',
          toolsAllowed: ['read_*'],
          toolsDenied: ['read_secret'],
          queue: 'heavy',
          shared: true,
          healthProbe: 'ping',
        },
        api: { type: 'remote', url: 'https://mcp.test/v1' },
        legacySse: { type: 'remote', url: 'https://mcp.test/sse' },
        off: { type: 'stdio', command: 'x', enabled: false },
        all: { type: 'http', url: 'https://mcp.test/all', toolsAllowed: ['*'] },
      },
    });
    expect(config.queues).toEqual({ default: 8, heavy: 2 });
    expect(config.mcpServers.get('fs')?.value).toMatchObject({
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@scope/server', '/data'],
      env: { TOKEN: 'abc' },
      toolTimeoutMs: 30_000,
      allowTools: ['read_*'],
      denyTools: ['read_secret'],
      queue: 'heavy',
      healthProbe: 'ping',
    });
    // It reaches the MCP client, which restarts a server whose probe fails (@agent/mcp's tests).
    expect(mcpServerConfig(config.mcpServers.get('fs')!)).toMatchObject({ healthProbe: 'ping' });
    expect(config.mcpServers.get('api')?.value.type).toBe('http');
    expect(config.mcpServers.get('legacySse')?.value.type).toBe('sse');
    expect(config.mcpServers.has('off')).toBe(false);
    expect(config.mcpServers.get('all')?.value.allowTools).toBeUndefined();
  });

  test('the cache section in its sqlite / redis form', () => {
    const config = configOf({
      cache: { backend: 'sqlite', sqlite: { path: './cache.db' }, maxEntries: 100 },
    });
    expect(config.cache?.value).toMatchObject({ backend: 'sqlite', maxEntries: 100 });
    expect(config.cache?.value.path).toMatch(/cache\.db$/);
  });
});

describe('.ai-agent.json: what cannot be honoured, and what is not active yet', () => {
  const problemsOf = async (json: object) => {
    const root = tempTree({ '.ai-agent.json': json, 'a.ai': agentFile('models: [p/m]') });
    return validateAgentFile('a.ai', isolated(root));
  };

  test('an unknown key is still an error with the closest valid key', async () => {
    const { ok, problems } = await problemsOf({ providers: { p: { type: 'openai', baseUrll: 'x' } } });
    expect(ok).toBe(false);
    expect(problems[0]?.message).toMatch(
      /unknown key `baseUrll` in `providers\.p`; did you mean `baseUrl`\?/,
    );
  });

  test('telemetry, api, restTools, openapiSpecs and logging give a warning naming the section', async () => {
    const { ok, warnings } = await problemsOf({
      providers: { p: { type: 'openai', apiKey: 'k' } },
      telemetry: { enabled: true },
      api: { port: 8080 },
      restTools: {},
      openapiSpecs: {},
      logging: { level: 'debug' },
      // Mapped (persistence, accounting) or read by agent-server (slack): no warning.
      persistence: { sessionsDir: '/tmp/s' },
      slack: { botToken: 'x' },
      accounting: { file: './acc.jsonl' },
    });
    expect(ok).toBe(true);
    expect(warnings.map((w) => [w.file, w.message.split(':')[0]])).toEqual(
      ['telemetry', 'api', 'restTools', 'openapiSpecs', 'logging'].map((section) => [
        '.ai-agent.json',
        `section \`${section}\` is not active in this runtime yet and is ignored`,
      ]),
    );
    expect(warnings.every((w) => typeof w.line === 'number')).toBe(true);
  });
});

describe('acceptance: a legacy ai-agent directory', () => {
  test('.ai-agent.json + .ai-agent.env + agent files validate and run against the testkit server', async () => {
    const server = await startModelServer({
      handler: (request) => ({ text: finalAnswer(request.messages, 'legacy ok') }),
    });
    try {
      const root = tempTree({
        '.ai-agent.json': {
          providers: {
            nova: {
              type: 'openai-compatible',
              baseUrl: '${NOVA_BASE_URL}',
              apiKey: '${NOVA_API_KEY}',
              models: { 'gpt-oss': { contextWindow: 64000, overrides: { top_p: null } } },
            },
          },
          queues: { default: { concurrent: 4 } },
          defaults: { llmTimeout: '2m', temperature: 0.5 },
          pricing: { nova: { 'gpt-oss': { unit: 'per_1m', prompt: 0.1, completion: 0.4 } } },
        },
        '.ai-agent.env': `NOVA_BASE_URL=${server.url}/v1\nNOVA_API_KEY=sk-legacy-secret\n`,
        'agents/main.ai': [
          '#!/usr/bin/env ai-agent',
          '---',
          'description: Legacy main agent',
          'models: nova/gpt-oss',
          'maxToolTurns: 5',
          'maxRetries: 0',
          'topP: 0.9',
          'reasoning: default',
          'toolTimeout: 30s',
          'agents: ./helper.ai',
          'toolsDenied: [agent__nothing]',
          '---',
          'You run on ${OS} ({{ARCH}}) in ${CD}; at most ${MAX_TURNS} turns.',
          '${include:shared/rules.md}',
          '',
        ].join('\n'),
        'agents/helper.ai': agentFile('models: [nova/gpt-oss]\ndescription: Helps\ntemperature: none'),
        'agents/shared/rules.md': 'Rule: answer at {{DATETIME}}.\n',
      });
      const options = isolated(root);
      const validation = await validateAgentFile('agents/main.ai', options);
      expect(validation.problems).toEqual([]);
      expect(validation.ok).toBe(true);
      expect(validation.agents.map((a) => a.toolName)).toEqual(['main', 'helper']);

      const result = await runAgentFile('agents/main.ai', 'hello', options);
      expect(result.success, result.error).toBe(true);
      expect(result.finalReport?.content).toBe('legacy ok');
      const request = server.requests[0]!;
      const body = request.body as { messages: { role: string; content: string }[]; temperature?: number };
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      expect(system).toMatch(
        new RegExp(
          `^You run on .+ \\(${process.arch}\\) in ${root}; at most 5 turns\\.\\nRule: answer at \\d{4}-`,
        ),
      );
      expect(system).not.toMatch(/\$\{|\{\{/);
      expect(body.temperature).toBe(0.5);
      expect(body).not.toHaveProperty('top_p');
      // The key from .ai-agent.env was sent (the testkit server records it redacted).
      expect(request.headers?.authorization).toBe('[redacted]');
      expect(JSON.stringify(result)).not.toContain('sk-legacy-secret');
    } finally {
      await server.close();
    }
  });
});

describe('durations for every time setting of agent.json too', () => {
  test('provider timeoutMs, MCP toolTimeoutMs / connectTimeoutMs and the defaults take 30s, 5m', () => {
    const root = tempTree({
      'agent.json': {
        providers: { p: { type: 'openai-compatible', baseURL: 'http://p.test/v1', timeoutMs: '2m' } },
        mcpServers: { s: { command: 'x', toolTimeoutMs: '45s', connectTimeoutMs: '1.5s' } },
        defaults: { llmTimeout: '5m', toolTimeout: '30s', temperature: 'none', reasoning: 'low' },
      },
    });
    const config = resolveConfig(isolated(root));
    expect(config.providers.get('p')?.value.timeoutMs).toBe(120_000);
    expect(config.mcpServers.get('s')?.value).toMatchObject({
      toolTimeoutMs: 45_000,
      connectTimeoutMs: 1500,
    });
    expect(config.defaults).toMatchObject({
      llmTimeout: 300_000,
      toolTimeout: 30_000,
      temperature: null,
      reasoning: { effort: 'low' },
    });
  });

  test('a duration that does not parse names the field and what is allowed', () => {
    const root = tempTree({
      'agent.json': { mcpServers: { s: { command: 'x', toolTimeoutMs: 'soon' } } },
    });
    expect(() => resolveConfig(isolated(root))).toThrow(
      '`mcpServers.s.toolTimeoutMs` must be a positive number of milliseconds or a duration such as 30s, 5m, got "soon"',
    );
  });
});
