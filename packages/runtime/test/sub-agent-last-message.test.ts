import type { AgentEvent, AgentEventMeta, ConversationMessage, FinalReport } from '@agent/protocol';
import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { runAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// Seed 004, decision 4: a sub-agent's result is its report_back call, else its last assistant
// message. A child answer with no tool call and no report is that message: it is adopted on
// that turn, not retried into a tool error.

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

async function delegateTo(childAnswer: string, outputSchema?: object) {
  const child = scriptedModel([{ text: childAnswer }]);
  const parent = scriptedModel([
    {
      toolCalls: [
        {
          id: 'call_count',
          name: 'agent__counter',
          arguments: {
            prompt: 'Count the cities: Oslo, Rome, Lima.',
            ...(outputSchema === undefined ? {} : { output_schema: outputSchema }),
          },
        },
      ],
    },
    (r) => ({ text: finalAnswer(r.messages, 'done') }),
  ]);
  const root = tempTree({
    'agent.json': localConfig(),
    'parent.ai': agentFile('models: [local/parent]\nagents: [./counter.ai]'),
    'counter.ai': agentFile('models: [local/child]'),
  });
  const events: { event: AgentEvent; meta: AgentEventMeta }[] = [];
  const result = await runAgentFile('parent.ai', 'How many cities?', {
    ...isolated(root),
    onEvent: (event, meta) => void events.push({ event, meta }),
    clientFactory: ({ model }: { model: string }) => (model === 'parent' ? parent : child),
  });
  const childReport = events.find(
    (e) => e.event.type === 'final_report' && e.meta.agentPath === 'parent.counter',
  )?.event as { report: FinalReport } | undefined;
  const finished = events.flatMap(({ event }) =>
    event.type === 'progress' && event.event.type === 'tool_finished' && event.event.tool === 'agent__counter'
      ? [event.event]
      : [],
  );
  return { result, child, parent, childReport: childReport?.report, finished };
}

describe('a sub-agent that answers without a report (seed 004, decision 4)', () => {
  test('plain JSON that meets the output schema is adopted at once, as structured output', async () => {
    const run = await delegateTo('{"count": 3}', COUNT_SCHEMA);
    expect(run.result.success).toBe(true);
    expect(run.child.requests).toHaveLength(1);
    expect(JSON.parse(toolMessage(run.result.conversation, 'agent__counter')!.content)).toEqual({ count: 3 });
    expect(run.finished[0]).toMatchObject({ structuredOutput: { count: 3 } });
    expect(run.childReport).toMatchObject({ origin: 'adopted-text', source: 'text', status: 'success' });
  });

  test('prose against an output schema: the parent gets the text and what was wrong, not a tool error', async () => {
    const run = await delegateTo('There are three cities: Oslo, Rome and Lima.', COUNT_SCHEMA);
    expect(run.result.success).toBe(true);
    expect(run.child.requests).toHaveLength(1);
    const received = toolMessage(run.result.conversation, 'agent__counter')!;
    expect(received.isError).not.toBe(true);
    expect(received.content).toContain('There are three cities: Oslo, Rome and Lima.');
    expect(received.content).toContain('does not meet the output schema');
    expect(run.finished[0]).not.toHaveProperty('structuredOutput');
    expect(run.childReport).toMatchObject({ origin: 'adopted-text', source: 'text', status: 'partial' });
    expect(run.childReport?.rejection?.reason).toBeTruthy();
  });

  test('JSON that misses the schema: the parent reads the JSON text and the validation errors', async () => {
    const run = await delegateTo('{"count": "three"}', COUNT_SCHEMA);
    expect(run.child.requests).toHaveLength(1);
    const received = toolMessage(run.result.conversation, 'agent__counter')!;
    expect(received.isError).not.toBe(true);
    expect(received.content).toContain('{"count": "three"}');
    expect(received.content).toContain('/count');
    expect(received.content).toContain('must be integer');
  });

  test('without output_schema, prose is the answer on its first turn', async () => {
    const run = await delegateTo('Three cities.');
    expect(run.child.requests).toHaveLength(1);
    expect(toolMessage(run.result.conversation, 'agent__counter')!.content).toBe('Three cities.');
    expect(run.childReport).toMatchObject({ origin: 'adopted-text', source: 'text' });
  });
});
