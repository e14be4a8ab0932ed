import type { ConversationMessage, OpNode } from '@agent/protocol';
import { finalReport, type ScriptedModel, scriptedModel, startModelServer, text } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { runAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

const COUNT_SCHEMA = {
  type: 'object',
  required: ['count'],
  properties: { count: { type: 'integer' } },
  additionalProperties: false,
};

function toolMessage(conversation: readonly ConversationMessage[], name: string) {
  return conversation.find(
    (m): m is Extract<ConversationMessage, { role: 'tool' }> => m.role === 'tool' && m.toolName === name,
  );
}

function nodes(node: OpNode): OpNode[] {
  return [node, ...node.children.flatMap(nodes)];
}

describe('sub-agents as tools', () => {
  test('structured output over HTTP: the child answers off-schema, is told, retries, and the parent receives valid JSON', async () => {
    const server = await startModelServer({
      steps: [
        {
          toolCalls: [
            {
              id: 'call_count',
              name: 'agent__counter',
              arguments: {
                prompt: 'Count the cities: Oslo, Rome, Lima.',
                reason: 'need a number',
                output_schema: COUNT_SCHEMA,
              },
            },
          ],
        },
        finalReport({ count: 'three' }),
        (request) => {
          // The child was told why its first report was rejected.
          const feedback = request.messages.map((m) => m.content).join('\n');
          return feedback.includes('count') && feedback.includes('integer')
            ? finalReport({ count: 3 })
            : text('no feedback seen');
        },
        (request) => finalReport(`Counted: ${toolMessage(request.messages, 'agent__counter')?.content}`),
      ],
    });
    try {
      const root = tempTree({
        'agent.json': localConfig({}, `${server.url}/v1`),
        'parent.ai': agentFile(
          'models: [local/parent-model]\nagents: [./counter.ai]',
          'You delegate counting.',
        ),
        'counter.ai': agentFile(
          'models: [local/child-model]\ndescription: Counts things.',
          'You count things.',
        ),
      });
      const progress: string[] = [];
      const result = await runAgentFile('parent.ai', 'How many cities?', {
        ...isolated(root),
        onEvent: (event) => {
          if (event.type === 'progress' && event.event.type === 'tool_progress')
            progress.push(String(event.event.message));
        },
      });
      expect(result.error).toBeUndefined();
      expect(progress).toEqual(['need a number']);
      expect(result.finalReport?.content).toBe('Counted: {"count":3}');
      expect(server.requests.map((r) => r.model)).toEqual([
        'parent-model',
        'child-model',
        'child-model',
        'parent-model',
      ]);
      server.assertAllConsumed();

      // The child got the tool's prompt as its user message, and the parent's schema as its contract.
      const childFirst = server.requests[1]!;
      expect(childFirst.messages.find((m) => m.role === 'user')?.content).toBe(
        'Count the cities: Oslo, Rome, Lima.',
      );
      expect(childFirst.messages.map((m) => m.content).join('\n')).toContain('"required":["count"]');

      const received = toolMessage(result.conversation, 'agent__counter');
      expect(JSON.parse(received!.content)).toEqual({ count: 3 });
      expect(received?.isError).toBeUndefined();

      // Accounting and the op tree of the child hang under the parent.
      const childLlm = result.accounting.filter((e) => e.type === 'llm' && e.agentPath === 'parent.counter');
      expect(childLlm).toHaveLength(2);
      const toolEntry = result.accounting.find((e) => e.type === 'tool' && e.command === 'agent__counter');
      expect(toolEntry).toMatchObject({ mcpServer: 'counter', status: 'ok', agentPath: 'parent' });
      const childSession = nodes(result.opTree!).find((n) => n.kind === 'session' && n.label === 'counter');
      expect(childSession).toBeDefined();
      expect(result.opTree?.totals.llmCalls).toBe(4);
    } finally {
      await server.close();
    }
  });

  function tree(files: Record<string, string>, models: Record<string, ScriptedModel>) {
    const root = tempTree({ 'agent.json': localConfig(), ...files });
    return {
      root,
      options: { ...isolated(root), clientFactory: ({ model }: { model: string }) => models[model]! },
    };
  }

  test('without output_schema the parent receives the child report text (format sub-agent)', async () => {
    const child = scriptedModel([(r) => ({ text: finalAnswer(r.messages, 'Three cities.', 'sub-agent') })]);
    const parent = scriptedModel([
      { toolCalls: [{ name: 'agent__counter', arguments: { prompt: 'Count: Oslo, Rome, Lima' } }] },
      (r) => ({ text: finalAnswer(r.messages, toolMessage(r.messages, 'agent__counter')?.content ?? '') }),
    ]);
    const { options } = tree(
      {
        'parent.ai': agentFile('models: [local/parent]\nagents: [./counter.ai]'),
        'counter.ai': agentFile('models: [local/child]'),
      },
      { parent, child },
    );
    const result = await runAgentFile('parent.ai', 'go', options);
    expect(result.finalReport?.content).toBe('Three cities.');
    expect(child.requests[0]!.messages.map((m) => m.content).join('\n')).toContain('format="sub-agent"');
  });

  test('a child with a json input schema takes structured arguments; bad ones are a tool error', async () => {
    const child = scriptedModel([
      (r) => ({ text: finalAnswer(r.messages, `weather for ${r.messages.at(-2)?.content}`, 'sub-agent') }),
    ]);
    const parent = scriptedModel([
      { toolCalls: [{ name: 'agent__weather', arguments: { town: 'Oslo' } }] },
      { toolCalls: [{ name: 'agent__weather', arguments: { city: 'Oslo', days: 2 } }] },
      (r) => ({ text: finalAnswer(r.messages, 'done') }),
    ]);
    const { options } = tree(
      {
        'parent.ai': agentFile('models: [local/parent]\nagents: [./weather.ai]'),
        'weather.ai': agentFile(
          'models: [local/child]\ninput:\n  format: json\n  schema:\n    type: object\n    required: [city]\n    properties:\n      city: { type: string }\n      days: { type: integer }',
        ),
      },
      { parent, child },
    );
    const result = await runAgentFile('parent.ai', 'go', options);
    expect(result.success).toBe(true);
    const [tools] = parent.requests[0]!.tools ? [parent.requests[0]!.tools] : [[]];
    expect(tools.find((t) => t.name === 'agent__weather')?.inputSchema).toMatchObject({ required: ['city'] });
    const messages = result.conversation.filter((m) => m.role === 'tool' && m.toolName === 'agent__weather');
    expect(messages[0]).toMatchObject({
      isError: true,
      content: expect.stringContaining("must have required property 'city'"),
    });
    expect(child.requests[0]!.messages.find((m) => m.role === 'user')?.content).toBe(
      JSON.stringify({ city: 'Oslo', days: 2 }, null, 2),
    );
  });

  test('an output_schema that is not an object, and a child that fails, reach the parent as tool errors', async () => {
    const child = scriptedModel([{ error: { kind: 'auth' } }]);
    const parent = scriptedModel([
      { toolCalls: [{ name: 'agent__counter', arguments: { prompt: 'x', output_schema: 'integer' } }] },
      { toolCalls: [{ name: 'agent__counter', arguments: { prompt: 'x' } }] },
      (r) => ({ text: finalAnswer(r.messages, 'gave up') }),
    ]);
    const { options } = tree(
      {
        'parent.ai': agentFile('models: [local/parent]\nagents: [./counter.ai]'),
        'counter.ai': agentFile('models: [local/child]'),
      },
      { parent, child },
    );
    const result = await runAgentFile('parent.ai', 'go', options);
    expect(result.success).toBe(true);
    const messages = result.conversation.filter((m) => m.role === 'tool' && m.toolName === 'agent__counter');
    expect(messages.map((m) => m.content)).toEqual([
      '(tool failed: output_schema must be a JSON Schema object)',
      expect.stringMatching(/^\(tool failed: sub-agent counter failed \(EXIT-AUTH-FAILURE\)/),
    ]);
  });

  test('the caller sees the child events with isMaster false and the child agent path', async () => {
    const child = scriptedModel([(r) => ({ text: finalAnswer(r.messages, 'child says hi', 'sub-agent') })]);
    const parent = scriptedModel([
      { toolCalls: [{ name: 'agent__kid', arguments: { prompt: 'hi' } }] },
      (r) => ({ text: finalAnswer(r.messages, 'parent done') }),
    ]);
    const { options } = tree(
      {
        'parent.ai': agentFile('models: [local/parent]\nagents: [./child.ai]'),
        'child.ai': agentFile('models: [local/child]\ntoolName: kid'),
      },
      { parent, child },
    );
    const reports: [string, boolean, string][] = [];
    const result = await runAgentFile('parent.ai', 'go', {
      ...options,
      onEvent: (event, meta) => {
        if (event.type === 'final_report')
          reports.push([meta.agentPath, meta.isMaster, event.report.content ?? '']);
      },
    });
    expect(result.success).toBe(true);
    expect(reports).toEqual([
      ['parent.kid', false, 'child says hi'],
      ['parent', true, 'parent done'],
    ]);
  });
});
