// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import type { AgentSessionConfig } from '@agent/core';
import type { ModelTarget, ToolProvider } from '@agent/protocol';
import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { FRONTMATTER_KEYS } from '../src/agent-file/keys.js';
import type { ClientRequest } from '../src/api.js';
import { type RunAgentFileOptions, runAgentFile } from '../src/index.js';
import type { PreparedRunner } from '../src/session-run/session-request.js';
import { sessionConfigOf } from './helpers/prepare.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

interface Case {
  key: string;
  yaml: string;
  files?: Record<string, string | object>;
  config?: object;
  options?: Partial<RunAgentFileOptions>;
  check: (config: AgentSessionConfig, prepared: PreparedRunner) => void | Promise<void>;
}

const childFile = agentFile(
  'models: [local/m1]\ndescription: The child.\ninput:\n  format: json\n  schema: { type: object, properties: { city: { type: string } }, required: [city] }',
);
const leaf = (name: string) => ({ [`${name}.ai`]: agentFile(`models: [local/m1]\ndescription: ${name}`) });
const toolNames = async (c: AgentSessionConfig) =>
  (await Promise.all(providersOf(c).map((p) => p.listTools()))).flat().map((t) => t.name);
/** The client configs the runtime asked for, per test. */
const built: ClientRequest[] = [];
const recording: Partial<RunAgentFileOptions> = {
  clientFactory: (request) => {
    built.push(request);
    return scriptedModel([], { provider: request.provider, model: request.model });
  },
};
const reportSchema = { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } };

/** The runtime builds targets and providers (never bare clients or tool()s). */
const targetsOf = (c: AgentSessionConfig) => (c.models ?? []) as ModelTarget[];
const providersOf = (c: AgentSessionConfig) => (c.tools ?? []) as ToolProvider[];

const cases: Case[] = [
  {
    key: 'description',
    yaml: 'description: Finds things fast.',
    check: (_, p) => expect(p.context.tree.root.description).toBe('Finds things fast.'),
  },
  {
    key: 'usage',
    yaml: 'usage: finder "what to find"',
    check: (_, p) => expect(p.context.tree.root.usage).toBe('finder "what to find"'),
  },
  { key: 'toolName', yaml: 'toolName: finder', check: (c) => expect(c.name).toBe('finder') },
  {
    key: 'models',
    yaml: 'models: [local/m1, other/m2]',
    config: {
      providers: {
        local: {
          type: 'openai-compatible',
          baseURL: 'http://127.0.0.1:9/v1',
          models: { m1: { contextWindow: 4096 } },
        },
        other: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' },
      },
    },
    check: (c) => {
      expect(targetsOf(c).map((t) => `${t.client.provider}/${t.client.model}`)).toEqual([
        'local/m1',
        'other/m2',
      ]);
      expect(targetsOf(c).map((t) => t.contextWindow)).toEqual([4096, undefined]);
    },
  },
  {
    key: 'tools',
    yaml: 'tools: [fs]',
    files: { 'data/x.txt': 'x\n' },
    config: localConfig({ mcpServers: { fs: { command: 'agent-fs-mcp', args: ['./data'] } } }),
    check: async (c) => {
      const provider = providersOf(c).find((t) => t.id === 'fs');
      expect(provider?.kind).toBe('mcp');
      expect((await provider!.listTools()).map((t) => t.name)).toContain('fs__Read');
    },
  },
  {
    key: 'cache',
    yaml: 'cache: 90s',
    config: localConfig({ cache: { backend: 'memory' } }),
    check: (_, p) => {
      expect(p.context.tree.root.cacheTtlMs).toBe(90_000);
      // The runner opened the store the agent's answers go to.
      expect(p.context.cache?.backend).toBe('memory');
      expect(p.context.cache?.responses).toBeDefined();
    },
  },
  {
    key: 'agents',
    yaml: 'agents: [./sub/child.ai]',
    files: { 'sub/child.ai': childFile },
    check: async (c) => {
      const provider = providersOf(c).find((t) => t.kind === 'subagent');
      const [tool] = await provider!.listTools();
      expect(tool?.name).toBe('agent__child');
      expect(tool?.description).toBe('The child.');
      expect(tool?.inputSchema).toMatchObject({
        required: ['city'],
        properties: { city: {}, output_schema: {} },
      });
    },
  },
  // Orchestration keys act around the session (test/orchestration.test.ts runs them); here: they load.
  {
    key: 'advisors',
    yaml: 'advisors: [./sub/adv.ai]',
    files: { 'sub/adv.ai': agentFile('models: [local/m1]') },
    check: (_, p) => {
      const [ref] = p.context.tree.root.orchestration?.advisors ?? [];
      expect(p.context.tree.agents.get(ref!.path)?.toolName).toBe('adv');
    },
  },
  {
    key: 'advisorTimeout',
    yaml: 'advisors: [./adv.ai]\nadvisorTimeout: 1500',
    files: { 'adv.ai': agentFile('models: [local/m1]') },
    check: (_, p) => expect(p.context.tree.root.orchestration?.advisorTimeout).toBe(1500),
  },
  {
    key: 'router',
    yaml: 'router: { destinations: [./billing.ai] }',
    files: { 'billing.ai': agentFile('models: [local/m1]') },
    check: (_, p) => {
      const [ref] = p.context.tree.root.orchestration?.router ?? [];
      expect(p.context.tree.agents.get(ref!.path)?.toolName).toBe('billing');
    },
  },
  {
    key: 'handoff',
    yaml: 'handoff: ./fmt.ai',
    files: { 'fmt.ai': agentFile('models: [local/m1]') },
    check: (_, p) => {
      const ref = p.context.tree.root.orchestration?.handoff;
      expect(p.context.tree.agents.get(ref!.path)?.toolName).toBe('fmt');
    },
  },
  {
    key: 'guardrails',
    yaml: 'guardrails:\n  - { name: judge, on: output, kind: model, agent: ./judge.ai }',
    files: { 'judge.ai': agentFile('models: [local/m1]') },
    check: (c, p) => {
      expect(c.guardrails?.map((g) => [g.name, g.on])).toEqual([['judge', 'output']]);
      expect([...p.context.tree.agents.values()].map((a) => a.toolName)).toContain('judge');
    },
  },
  {
    key: 'toolPolicy',
    yaml: 'toolPolicy: { default: ask, rules: [{ tools: agent__*, decision: allow }] }',
    check: (c) =>
      expect(c.toolPolicy).toEqual({ default: 'ask', rules: [{ tools: ['agent__*'], decision: 'allow' }] }),
  },
  {
    key: 'toolsAllowed',
    yaml: 'agents: [./a.ai, ./b.ai, ./c.ai]\ntoolsAllowed: [agent__a, agent__c*]',
    files: { ...leaf('a'), ...leaf('b'), ...leaf('c') },
    check: async (c) => expect(await toolNames(c)).toEqual(['agent__a', 'agent__c']),
  },
  {
    key: 'toolsDenied',
    yaml: 'agents: [./a.ai, ./b.ai]\ntoolsDenied: agent__b',
    files: { ...leaf('a'), ...leaf('b') },
    check: async (c) => expect(await toolNames(c)).toEqual(['agent__a']),
  },
  { key: 'maxTurns', yaml: 'maxTurns: 4', check: (c) => expect(c.maxTurns).toBe(4) },
  { key: 'maxRetries', yaml: 'maxRetries: 2', check: (c) => expect(c.maxRetries).toBe(2) },
  {
    key: 'maxToolCallsPerTurn',
    yaml: 'maxToolCallsPerTurn: 3',
    check: (c) => expect(c.maxToolCallsPerTurn).toBe(3),
  },
  { key: 'llmTimeout', yaml: 'llmTimeout: 5000', check: (c) => expect(c.llmTimeoutMs).toBe(5000) },
  { key: 'toolTimeout', yaml: 'toolTimeout: 6000', check: (c) => expect(c.toolTimeoutMs).toBe(6000) },
  { key: 'temperature', yaml: 'temperature: 0.3', check: (c) => expect(c.temperature).toBe(0.3) },
  { key: 'topP', yaml: 'topP: 0.9', check: (c) => expect(c.topP).toBe(0.9) },
  { key: 'topK', yaml: 'topK: 40', check: (c) => expect(c.topK).toBe(40) },
  { key: 'repeatPenalty', yaml: 'repeatPenalty: 1.1', check: (c) => expect(c.repeatPenalty).toBe(1.1) },
  { key: 'maxOutputTokens', yaml: 'maxOutputTokens: 512', check: (c) => expect(c.maxOutputTokens).toBe(512) },
  {
    key: 'reasoning',
    yaml: 'reasoning: high',
    check: (c) => expect(c.reasoning).toEqual({ effort: 'high' }),
  },
  {
    key: 'reasoningTokens',
    yaml: 'reasoningTokens: 16000',
    check: (c) => expect(c.reasoning).toEqual({ budgetTokens: 16000 }),
  },
  {
    key: 'caching',
    yaml: 'caching: none',
    options: recording,
    check: () => expect(built.map((r) => r.config.promptCaching)).toEqual([false]),
  },
  {
    key: 'contextWindowBufferTokens',
    yaml: 'contextWindowBufferTokens: 1024',
    check: (c) => expect(targetsOf(c).map((t) => t.contextBuffer)).toEqual([1024]),
  },
  { key: 'contextWindow', yaml: 'contextWindow: 64000', check: (c) => expect(c.contextWindow).toBe(64000) },
  {
    key: 'toolResponseMaxBytes',
    yaml: 'toolResponseMaxBytes: 4096',
    check: (c) => expect(c.toolResponseMaxBytes).toBe(4096),
  },
  {
    key: 'compaction',
    yaml: 'compaction: { at: 0.75, keep: 3, attempts: 1, tokens: 512 }',
    check: (c) => expect(c.compaction).toEqual({ at: 0.75, keep: 3, attempts: 1, tokens: 512 }),
  },
  {
    key: 'toolSearch',
    yaml: 'toolSearch: { after: 30, alwaysOn: [fs__Read], maxResults: 8 }',
    check: (c) => expect(c.toolSearch).toEqual({ after: 30, alwaysOn: ['fs__Read'], maxResults: 8 }),
  },
  {
    key: 'toolOutput',
    yaml: 'toolOutput: { maxChunks: 3, overlapPercent: 5, avgLineBytesThreshold: 500, storeDir: /srv/agent-outputs }',
    check: (c) => {
      expect(c.toolOutput).toMatchObject({
        storeDir: '/srv/agent-outputs',
        maxChunks: 3,
        overlapPercent: 5,
        avgLineBytesThreshold: 500,
        createReadGrepTools: expect.any(Function),
      });
    },
  },
  {
    key: 'input',
    yaml: 'input: { format: json, schema: { type: object, properties: { q: { type: string } } } }',
    check: (_, p) =>
      expect(p.context.tree.root.input).toEqual({
        format: 'json',
        schema: { type: 'object', properties: { q: { type: 'string' } } },
      }),
  },
  {
    key: 'output',
    yaml: 'output:\n  format: json\n  schemaRef: ./schemas/report.json',
    files: { 'schemas/report.json': reportSchema },
    check: (c) => expect(c.output).toEqual({ format: 'json', schema: reportSchema }),
  },
  {
    key: 'approval',
    yaml: 'approval:\n  tools: [fs__Write*, agent__deploy]',
    check: (c) => expect(c.approval).toEqual({ tools: ['fs__Write*', 'agent__deploy'] }),
  },
];

describe('every frontmatter key reaches the session', () => {
  test('the table covers every key', () => {
    expect(cases.map((c) => c.key).sort()).toEqual([...FRONTMATTER_KEYS].sort());
  });

  test.each(cases)('$key', async ({ yaml, files, config, options, check }) => {
    built.length = 0;
    const models = yaml.startsWith('models:') ? '' : 'models: [local/m1]\n';
    const root = tempTree({
      'agent.json': config ?? localConfig(),
      'agent.ai': agentFile(`${models}${yaml}`),
      ...files,
    });
    const { config: session, prepared } = await sessionConfigOf(`${root}/agent.ai`, {
      ...isolated(root),
      ...options,
    });
    await check(session, prepared);
  });

  test('shorthands: a comma-separated string for lists, an object for reasoning, false for toolOutput', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'agent.ai': agentFile(
        'models: local/a, local/b\nreasoning: { budgetTokens: 2048 }\ntoolOutput: false\noutput: markdown',
      ),
    });
    const { config } = await sessionConfigOf(`${root}/agent.ai`, isolated(root));
    expect(targetsOf(config).map((t) => t.client.model)).toEqual(['a', 'b']);
    expect(config.reasoning).toEqual({ budgetTokens: 2048 });
    expect(config.toolOutput).toEqual({ enabled: false });
    expect(config.output).toEqual({ format: 'markdown' });
  });

  test('file settings beat config defaults; defaults fill the rest', async () => {
    const root = tempTree({
      'agent.json': localConfig({ defaults: { maxTurns: 7, temperature: 0.5, models: ['local/fallback'] } }),
      'agent.ai': agentFile('temperature: 0.1'),
    });
    const { config } = await sessionConfigOf(`${root}/agent.ai`, isolated(root));
    expect(config.temperature).toBe(0.1);
    expect(config.maxTurns).toBe(7);
    expect(targetsOf(config).map((t) => t.client.model)).toEqual(['fallback']);
  });

  test('sampling settings and the prompt reach the model request', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'agent.ai': agentFile(
        'models: [local/m1]\ntemperature: 0.3\ntopP: 0.8\nmaxOutputTokens: 300\nreasoning: low\nllmTimeout: 4321',
        'Answer in ${FORMAT}. Directory: ${CWD}.',
      ),
    });
    const model = scriptedModel([(request) => ({ text: finalAnswer(request.messages, 'done') })]);
    const result = await runAgentFile(`${root}/agent.ai`, 'go', {
      ...isolated(root),
      clientFactory: () => model,
    });
    expect(result.success).toBe(true);
    const request = model.requests[0]!;
    expect(request.options).toMatchObject({
      temperature: 0.3,
      topP: 0.8,
      maxOutputTokens: 300,
      reasoning: { effort: 'low' },
    });
    expect(request.callOptions?.timeoutMs).toBe(4321);
    expect(request.messages[0]).toEqual({
      role: 'system',
      content: expect.stringContaining(`Answer in GitHub-flavoured Markdown. Directory: ${root}.`),
    });
  });
});
