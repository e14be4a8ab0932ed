import { finalReport, startModelServer, toolCall } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
// The loopback WebSocket MCP server of @agent/mcp's tests (the SDK's Server over `ws`).
import { startWebSocketMcpServer } from '../../mcp/test/fixtures/websocket-mcp-server.js';
import { runAgentFile, validateAgentFile } from '../src/index.js';
import { configOf } from './helpers/ai-agent-config.js';
import { finalAnswer } from './helpers/reports.js';
import { startRoleServer } from './helpers/role-server.js';
import { agentFile, isolated, tempTree } from './helpers/temp-tree.js';

// ai-agent's `.ai-agent.json`: what it says about models and MCP transports (provider tool
// filters, websocket servers, interleaved reasoning, string formats), each through a real run.

const _ref = (spec: string) => {
  const [provider, ...model] = spec.split('/');
  return { spec, provider: provider!, model: model.join('/') };
};

describe('.ai-agent.json: provider-level tool filters', () => {
  test('a provider keeps its toolsAllowed / toolsDenied as allowTools / denyTools', () => {
    const config = configOf({
      providers: {
        p: { type: 'openai', apiKey: 'k', toolsAllowed: ['mcp__*'], toolsDenied: ['agent__batch'] },
      },
    });
    expect(config.providers.get('p')?.value).toMatchObject({
      allowTools: ['mcp__*'],
      denyTools: ['agent__batch'],
    });
  });

  test("ANDed with the agent's own filter and that of every provider of its models", async () => {
    const server = await startModelServer({
      handler: (request) => ({ text: finalAnswer(request.messages, 'filtered') }),
    });
    try {
      const leaf = (name: string) => agentFile(`models: [main/m]\ndescription: Leaf ${name}`);
      const provider = (filters: object) => ({
        type: 'openai-compatible',
        baseUrl: `${server.url}/v1`,
        apiKey: 'k',
        ...filters,
      });
      const root = tempTree({
        '.ai-agent.json': {
          providers: {
            main: provider({ toolsDenied: ['agent__b'] }),
            backup: provider({ toolsAllowed: ['agent__*'], toolsDenied: ['agent__d'] }),
          },
        },
        'main.ai': agentFile(
          'models: [main/m, backup/m]\nagents: [./a.ai, ./b.ai, ./c.ai, ./d.ai]\ntoolsAllowed: [agent__a, agent__b, agent__d]',
        ),
        'a.ai': leaf('a'),
        'b.ai': leaf('b'),
        'c.ai': leaf('c'),
        'd.ai': leaf('d'),
      });
      const result = await runAgentFile('main.ai', 'hello', isolated(root));
      expect(result.success, result.error).toBe(true);
      const body = server.requests[0]!.body as { tools?: { function: { name: string } }[] };
      const names = (body.tools ?? []).map((t) => t.function.name).filter((n) => /^agent__[a-d]$/.test(n));
      // c: not in the agent's list; b: denied by `main`; d: denied by `backup`, a fallback model.
      expect(names).toEqual(['agent__a']);
    } finally {
      await server.close();
    }
  });
});

describe('.ai-agent.json: an MCP server of type websocket', () => {
  test("its tools reach the model and its answers come back through the SDK's WebSocket transport", async () => {
    const mcp = await startWebSocketMcpServer();
    const { server, requestsOf, assertAllConsumed } = await startRoleServer({
      m: [toolCall('live__shout', { text: 'quiet please' }), finalReport('done')],
    });
    try {
      const root = tempTree({
        '.ai-agent.json': {
          providers: { p: { type: 'openai-compatible', baseUrl: `${server.url}/v1`, apiKey: 'k' } },
          mcpServers: { live: { type: 'websocket', url: mcp.url } },
        },
        'main.ai': agentFile('models: [p/m]\ntools: [live]'),
      });
      const validation = await validateAgentFile('main.ai', isolated(root));
      expect(validation.problems).toEqual([]);
      const result = await runAgentFile('main.ai', 'shout', isolated(root));
      expect(result.success, result.error).toBe(true);
      assertAllConsumed();
      const second = JSON.stringify(requestsOf('m')[1]?.messages);
      expect(second).toContain('QUIET PLEASE');
    } finally {
      await server.close();
      await mcp.stop();
    }
  });

  test('a websocket server with headers is an error at validate (they could not be sent)', async () => {
    const root = tempTree({
      '.ai-agent.json': {
        providers: { p: { type: 'openai', apiKey: 'k' } },
        mcpServers: {
          live: { type: 'websocket', url: 'wss://mcp.test/ws', headers: { 'x-key': 'secret-1' } },
        },
      },
      'main.ai': agentFile('models: [p/m]\ntools: [live]'),
    });
    const { ok, problems } = await validateAgentFile('main.ai', isolated(root));
    expect(ok).toBe(false);
    expect(problems.map((p) => p.message).join('\n')).toMatch(
      /MCP server `live`: `headers` cannot be used with the websocket transport/,
    );
    expect(JSON.stringify(problems)).not.toContain('secret-1');
  });
});

describe('.ai-agent.json: a model with interleaved reasoning', () => {
  const run = async (models: object) => {
    const { server, requestsOf } = await startRoleServer({
      m: [
        toolCall('missing__tool', {}, { answer: { reasoning: { text: 'I should look first.' } } }),
        finalReport('done'),
      ],
    });
    try {
      const root = tempTree({
        '.ai-agent.json': {
          providers: { p: { type: 'openai-compatible', baseUrl: `${server.url}/v1`, apiKey: 'k', models } },
        },
        'main.ai': agentFile('models: [p/m]'),
      });
      const result = await runAgentFile('main.ai', 'go', isolated(root));
      expect(result.success, result.error).toBe(true);
      const body = requestsOf('m')[1]?.body as { messages: Record<string, unknown>[] };
      const messages = body.messages;
      return messages.find((m) => m.role === 'assistant' && m.tool_calls !== undefined);
    } finally {
      await server.close();
    }
  };

  test('interleaved: true sends the reasoning back in reasoning_content on the next call', async () => {
    expect((await run({ m: { interleaved: true } }))?.reasoning_content).toBe('I should look first.');
  });

  test('a field name picks the field; without interleaved nothing is replayed', async () => {
    expect((await run({ m: { interleaved: 'reasoning' } }))?.reasoning).toBe('I should look first.');
    const plain = await run({ m: {} });
    expect(plain).toBeDefined();
    expect(plain).not.toHaveProperty('reasoning_content');
    expect(plain).not.toHaveProperty('reasoning');
  });

  test('a field this runtime cannot send, or a provider without the field, is a warning', async () => {
    const root = tempTree({
      '.ai-agent.json': {
        providers: {
          p: {
            type: 'openai-compatible',
            baseUrl: 'http://p.test/v1',
            models: { m: { interleaved: 'thoughts' } },
          },
          a: { type: 'anthropic', apiKey: 'k', models: { c: { interleaved: true } } },
        },
      },
      'main.ai': agentFile('models: [p/m, a/c]'),
    });
    const { ok, warnings } = await validateAgentFile('main.ai', isolated(root));
    expect(ok).toBe(true);
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /`interleaved: thoughts` is ignored: reasoning can be replayed in reasoning_content or reasoning only/,
      ),
      expect.stringMatching(/`interleaved` is ignored for a `anthropic` provider/),
    ]);
  });
});

describe('.ai-agent.json: provider stringSchemaFormatsAllowed / Denied', () => {
  test("the refused string formats are taken out of the tool schemas sent to that provider's models", async () => {
    const server = await startModelServer({
      handler: (request) => ({ text: finalAnswer(request.messages, 'ok') }),
    });
    try {
      const root = tempTree({
        '.ai-agent.json': {
          providers: {
            strict: {
              type: 'openai-compatible',
              baseUrl: `${server.url}/v1`,
              apiKey: 'k',
              stringSchemaFormatsDenied: ['uri'],
            },
            plain: { type: 'openai-compatible', baseUrl: `${server.url}/v1`, apiKey: 'k' },
          },
        },
        'strict.ai': agentFile('models: [strict/m]\nagents: [./child.ai]'),
        'plain.ai': agentFile('models: [plain/m]\nagents: [./child.ai]'),
        'child.ai': agentFile(
          [
            'models: [plain/m]',
            'description: Checks a site',
            'input:',
            '  format: json',
            '  schema:',
            '    type: object',
            '    required: [site]',
            '    properties: { site: { type: string, format: uri }, mail: { type: string, format: email } }',
          ].join('\n'),
        ),
      });
      const propertiesSent = async (file: string) => {
        const before = server.requests.length;
        const result = await runAgentFile(file, 'go', isolated(root));
        expect(result.success, result.error).toBe(true);
        const body = server.requests[before]!.body as {
          tools: { function: { name: string; parameters: { properties: Record<string, unknown> } } }[];
        };
        return body.tools.find((t) => t.function.name === 'agent__child')!.function.parameters.properties;
      };
      const strict = await propertiesSent('strict.ai');
      expect(strict.site).toEqual({ type: 'string' });
      expect(strict.mail).toEqual({ type: 'string', format: 'email' });
      // Another provider's models get the schema as written.
      expect((await propertiesSent('plain.ai')).site).toEqual({ type: 'string', format: 'uri' });
    } finally {
      await server.close();
    }
  });
});
