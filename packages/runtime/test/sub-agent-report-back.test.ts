import type {
  AgentEvent,
  AgentEventMeta,
  ConversationMessage,
  FinalReport,
  OpNode,
  ProgressEvent,
} from '@agent/protocol';
import { type RecordedRequest, scriptedModel, startModelServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { runAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// Seed 004 through agent files: a parent passes `output_schema` to a sub-agent; the child gets a
// native `report_back` tool with that schema, calling it ends the child, and the structured
// output reaches the parent as the tool result's JSON and as structured data on the parent's
// events and op tree.

const COUNT_SCHEMA = {
  type: 'object',
  required: ['count', 'cities'],
  properties: { count: { type: 'integer' }, cities: { type: 'array', items: { type: 'string' } } },
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

function recorder() {
  const events: { event: AgentEvent; meta: AgentEventMeta }[] = [];
  return {
    events,
    onEvent: (event: AgentEvent, meta: AgentEventMeta) => void events.push({ event, meta }),
    finalReports: () =>
      events.flatMap(({ event, meta }) =>
        event.type === 'final_report' ? [{ report: event.report as FinalReport, meta }] : [],
      ),
    toolFinished: (tool: string) =>
      events.flatMap(({ event }) =>
        event.type === 'progress' && event.event.type === 'tool_finished' && event.event.tool === tool
          ? [event.event as Extract<ProgressEvent, { type: 'tool_finished' }>]
          : [],
      ),
  };
}

const delegate = (schema: object) => ({
  toolCalls: [
    {
      id: 'call_count',
      name: 'agent__counter',
      arguments: { prompt: 'Count the cities: Oslo, Rome, Lima.', output_schema: schema },
    },
  ],
});

describe('report_back for sub-agents', () => {
  test('over HTTP: the child reports through report_back; the parent gets the JSON as tool result, event and op-tree data', async () => {
    let childTools: RecordedRequest['tools'] = [];
    let retryFeedback = '';
    const server = await startModelServer({
      steps: [
        delegate(COUNT_SCHEMA),
        (r) => {
          childTools = r.tools;
          // Off-schema first: the child is told why and calls again.
          return { toolCalls: [{ id: 'rb1', name: 'report_back', arguments: { count: 'three' } }] };
        },
        (r) => {
          retryFeedback = r.messages.find((m) => m.role === 'tool' && m.toolCallId === 'rb1')?.content ?? '';
          return {
            toolCalls: [
              { id: 'rb2', name: 'report_back', arguments: { count: 3, cities: ['Oslo', 'Rome', 'Lima'] } },
            ],
          };
        },
        (r) => ({
          text: finalAnswer(r.messages, `Counted: ${toolMessage(r.messages, 'agent__counter')?.content}`),
        }),
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
      const seen = recorder();
      const result = await runAgentFile('parent.ai', 'How many cities?', {
        ...isolated(root),
        onEvent: seen.onEvent,
      });
      expect(result.error).toBeUndefined();
      expect(server.requests.map((r) => r.model)).toEqual([
        'parent-model',
        'child-model',
        'child-model',
        'parent-model',
      ]);
      server.assertAllConsumed();

      // The child was offered report_back with the parent's schema, over the OpenAI wire.
      const offered = childTools.find((t) => t.name === 'report_back');
      expect(offered?.inputSchema).toEqual(COUNT_SCHEMA);
      // The parent's own tools do not include it.
      expect(server.requests[0]!.tools.map((t) => t.name)).not.toContain('report_back');
      // The off-schema call was answered with the reasons.
      expect(retryFeedback).toContain('/count');
      expect(retryFeedback).toContain('must be integer');

      const expected = { count: 3, cities: ['Oslo', 'Rome', 'Lima'] };
      // 1. The parent's tool result is the JSON.
      const received = toolMessage(result.conversation, 'agent__counter');
      expect(JSON.parse(received!.content)).toEqual(expected);
      expect(result.finalReport?.content).toBe(`Counted: ${JSON.stringify(expected)}`);
      // 2. The parent's tool_finished event carries it as structured data.
      const finished = seen.toolFinished('agent__counter');
      expect(finished).toHaveLength(1);
      expect(finished[0]).toMatchObject({ agentPath: 'parent', structuredOutput: expected });
      // 3. So does the parent's op-tree node of the call, with the child's session under it.
      const toolNode = nodes(result.opTree!).find((n) => n.kind === 'tool' && n.label === 'agent__counter');
      expect(toolNode?.structuredOutput).toEqual(expected);
      expect(toolNode?.children.map((c) => [c.kind, c.label])).toEqual([['session', 'counter']]);
      // The child's result says where it came from: report_back.
      const childReport = seen.finalReports().find((r) => r.meta.agentPath === 'parent.counter');
      expect(childReport?.meta.isMaster).toBe(false);
      expect(childReport?.report).toMatchObject({ source: 'report_back', content_json: expected });
      const parentReport = seen.finalReports().find((r) => r.meta.agentPath === 'parent');
      expect(parentReport?.report.source).toBe('xml');
      // The child's report_back is accounted under the child's path.
      expect(
        result.accounting.find(
          (e) => e.type === 'tool' && e.command === 'report_back' && e.agentPath === 'parent.counter',
        ),
      ).toMatchObject({ status: 'ok', mcpServer: 'agent' });
    } finally {
      await server.close();
    }
  });

  test('the XML slot with the json format stays accepted (flagged xml); without output_schema there is no report_back', async () => {
    const child = scriptedModel([
      (r) => ({ text: finalAnswer(r.messages, '{"count": 2, "cities": ["Oslo", "Rome"]}', 'json') }),
      (r) => ({ text: finalAnswer(r.messages, 'two cities', 'sub-agent') }),
    ]);
    const parent = scriptedModel([
      delegate(COUNT_SCHEMA),
      { toolCalls: [{ id: 'plain', name: 'agent__counter', arguments: { prompt: 'again, in words' } }] },
      (r) => ({ text: finalAnswer(r.messages, 'done') }),
    ]);
    const root = tempTree({
      'agent.json': localConfig(),
      'parent.ai': agentFile('models: [local/parent]\nagents: [./counter.ai]'),
      'counter.ai': agentFile('models: [local/child]'),
    });
    const seen = recorder();
    const result = await runAgentFile('parent.ai', 'go', {
      ...isolated(root),
      onEvent: seen.onEvent,
      clientFactory: ({ model }: { model: string }) => (model === 'parent' ? parent : child),
    });
    expect(result.success).toBe(true);
    expect(child.requests[0]!.tools.map((t) => t.name)).toContain('report_back');
    expect(child.requests[1]!.tools.map((t) => t.name)).not.toContain('report_back');
    const childReports = seen.finalReports().filter((r) => r.meta.agentPath === 'parent.counter');
    expect(childReports.map((r) => r.report.source)).toEqual(['xml', 'xml']);
    const finished = seen.toolFinished('agent__counter');
    expect(finished[0]?.structuredOutput).toEqual({ count: 2, cities: ['Oslo', 'Rome'] });
    expect(finished[1]).not.toHaveProperty('structuredOutput');
  });

  test('an output_schema whose root is not an object keeps the XML slot only (providers take object tool inputs)', async () => {
    const child = scriptedModel([(r) => ({ text: finalAnswer(r.messages, '[1, 2, 3]', 'json') })]);
    const parent = scriptedModel([
      delegate({ type: 'array', items: { type: 'integer' } }),
      (r) => ({ text: finalAnswer(r.messages, 'done') }),
    ]);
    const root = tempTree({
      'agent.json': localConfig(),
      'parent.ai': agentFile('models: [local/parent]\nagents: [./counter.ai]'),
      'counter.ai': agentFile('models: [local/child]'),
    });
    const result = await runAgentFile('parent.ai', 'go', {
      ...isolated(root),
      clientFactory: ({ model }: { model: string }) => (model === 'parent' ? parent : child),
    });
    expect(result.success).toBe(true);
    expect(child.requests[0]!.tools.map((t) => t.name)).not.toContain('report_back');
    expect(toolMessage(result.conversation, 'agent__counter')?.content).toBe('[1,2,3]');
  });
});
