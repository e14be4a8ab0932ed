import type { FinalReport, OpNode, ToolAccountingEntry } from '@agent/protocol';
import { finalReport, type RecordedRequest, text } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, toolEntries } from '../helpers/scenario.js';

// Seed 004 (report_back): with `reportBack: true` the session offers a native `report_back`
// tool whose input schema is the output schema. Calling it ends the session (after the other
// tools of that turn ran) with the arguments as the report; invalid arguments are answered
// with the reasons. Priority: report_back > the XML report > the last assistant message.

const COUNT = {
  type: 'object',
  required: ['count'],
  properties: { count: { type: 'integer' } },
  additionalProperties: false,
};
const output = { format: 'json' as const, schema: COUNT };

const reportBack = (args: Record<string, unknown>, id = 'rb') => ({
  toolCalls: [{ id, name: 'report_back', arguments: args }],
});

function finalReportEvent(run: Awaited<ReturnType<typeof runScenario>>): FinalReport | undefined {
  const found = run.events.find((e) => e.event.type === 'final_report')?.event;
  return found?.type === 'final_report' ? found.report : undefined;
}

describe('report_back', () => {
  test('the model gets a native report_back tool with the output schema; calling it ends the session with that JSON', async () => {
    const run = await runScenario({ output, reportBack: true, scripts: [[reportBack({ count: 3 })]] });
    const offered = run.models[0]!.requests[0]!.tools.find((t) => t.name === 'report_back');
    expect(offered?.inputSchema).toEqual(COUNT);
    expect(offered?.description).toMatch(/ends the task/i);
    expect(run.result.success).toBe(true);
    expect(run.result.exitCode).toBe('EXIT-FINAL-ANSWER');
    expect(run.result.finalReport).toMatchObject({
      status: 'success',
      format: 'json',
      content_json: { count: 3 },
      origin: 'declared',
      source: 'report_back',
    });
    // Said in the events too: the final_report event carries the same report, flagged.
    expect(finalReportEvent(run)).toMatchObject({ source: 'report_back', content_json: { count: 3 } });
    expect(JSON.parse(run.outputText('finalize'))).toEqual({ count: 3 });
    expect(run.models[0]!.requests).toHaveLength(1);
    const entry = toolEntries(run.result).at(-1) as ToolAccountingEntry;
    expect(entry).toMatchObject({
      command: 'report_back',
      mcpServer: 'agent',
      status: 'ok',
      charactersIn: JSON.stringify({ count: 3 }).length,
    });
  });

  test('the other tools of that turn run before the session ends', async () => {
    const saved: unknown[] = [];
    const tools = memoryTools('notes', {
      save: (args) => {
        saved.push(args.n);
        return 'saved';
      },
    });
    const run = await runScenario({
      output,
      reportBack: true,
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              { id: 'rb', name: 'report_back', arguments: { count: 2 } },
              { id: 's', name: 'save', arguments: { n: 2 } },
            ],
          },
        ],
      ],
    });
    expect(run.result.finalReport?.content_json).toEqual({ count: 2 });
    expect(saved).toEqual([2]);
    expect(
      run.result.conversation.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content]),
    ).toEqual([
      ['rb', 'Final report captured.'],
      ['s', 'saved'],
    ]);
    expect(toolEntries(run.result).map((e) => (e as ToolAccountingEntry).command)).toEqual([
      'save',
      'report_back',
    ]);
  });

  test('an invalid call is answered with the reasons; the model calls again and that ends the session', async () => {
    let answeredWith = '';
    const run = await runScenario({
      output,
      reportBack: true,
      scripts: [
        [
          reportBack({ count: 'three' }, 'bad'),
          (r: RecordedRequest) => {
            const message = r.messages.find((m) => m.role === 'tool' && m.toolCallId === 'bad');
            answeredWith = message?.content ?? '';
            return reportBack({ count: 3 }, 'good');
          },
        ],
      ],
    });
    expect(answeredWith).toMatch(/^\(tool failed: /);
    expect(answeredWith).toContain('/count');
    expect(answeredWith).toContain('must be integer');
    expect(answeredWith).toContain('call report_back again');
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport).toMatchObject({ content_json: { count: 3 }, source: 'report_back' });
    const rejected = run.result.logs.find((l) => l.message.startsWith('final report rejected'));
    expect(rejected?.severity).toBe('WRN');
    const retry = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(retry[1]).toMatchObject({ turn: 1, attempt: 2, isRetry: true });
  });

  test('priority: report_back beats an XML report in the same answer', async () => {
    const run = await runScenario({
      output,
      reportBack: true,
      scripts: [[{ ...finalReport({ count: 1 }), ...reportBack({ count: 2 }) }]],
    });
    expect(run.result.finalReport).toMatchObject({ content_json: { count: 2 }, source: 'report_back' });
  });

  test('an invalid report_back beside a valid XML report: the XML report commits', async () => {
    const run = await runScenario({
      output,
      reportBack: true,
      scripts: [[{ ...finalReport({ count: 1 }), ...reportBack({ count: 'x' }) }]],
    });
    expect(run.result.finalReport).toMatchObject({ content_json: { count: 1 }, source: 'xml' });
  });

  test('the XML slot with the json format stays accepted, flagged as xml', async () => {
    const run = await runScenario({ output, reportBack: true, scripts: [[finalReport({ count: 4 })]] });
    expect(run.result.finalReport).toMatchObject({ content_json: { count: 4 }, source: 'xml' });
    expect(finalReportEvent(run)?.source).toBe('xml');
  });

  test('the last assistant message, adopted on the final turn, is flagged as text', async () => {
    const run = await runScenario({
      output,
      reportBack: true,
      maxTurns: 1,
      scripts: [[text('{"count": 5}')]],
    });
    expect(run.result.finalReport).toMatchObject({
      content_json: { count: 5 },
      origin: 'adopted-text',
      source: 'text',
    });
  });

  test('on the final turn report_back is the only tool offered, and the notice names it', async () => {
    const tools = memoryTools('notes', { save: () => 'saved' });
    const run = await runScenario({
      output,
      reportBack: true,
      tools: [tools],
      maxTurns: 1,
      scripts: [[reportBack({ count: 6 })]],
    });
    const request = run.models[0]!.requests[0]!;
    expect(request.tools.map((t) => t.name)).toEqual(['report_back']);
    const notice = request.messages.at(-1)?.content ?? '';
    expect(notice).toContain('You may still call only these tools: report_back.');
    expect(notice).toContain('report_back');
    expect(run.result.finalReport?.source).toBe('report_back');
  });

  test('the notice of every turn tells the model it may report through report_back', async () => {
    const run = await runScenario({ output, reportBack: true, scripts: [[reportBack({ count: 1 })]] });
    const notice = run.models[0]!.requests[0]!.messages.at(-1)?.content ?? '';
    expect(notice).toMatch(/call the report_back tool/);
  });

  test('report_back cannot be batched: the batch answers why and the model reports on its own', async () => {
    const run = await runScenario({
      output,
      reportBack: true,
      scripts: [
        [
          {
            toolCalls: [
              {
                id: 'b',
                name: 'agent__batch',
                arguments: { calls: [{ id: '1', tool: 'report_back', parameters: { count: 1 } }] },
              },
            ],
          },
          reportBack({ count: 1 }),
        ],
      ],
    });
    const batch = run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'b');
    expect(batch?.content).toContain('(tool failed: report_back cannot run inside agent__batch)');
    expect(run.result.finalReport).toMatchObject({ content_json: { count: 1 }, source: 'report_back' });
  });

  test('a huge schema that would fit once but not twice (notice and report_back) is refused before any call', async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`field_${i}`, { type: 'string', description: `Field ${i}.` }]),
    );
    const schema = { type: 'object', properties };
    const tokens = Math.ceil(JSON.stringify(schema).length / 4);
    const base = {
      output: { format: 'json' as const, schema },
      targetOptions: [{ contextWindow: tokens * 2 }],
    };
    const once = await runScenario({ ...base, scripts: [[finalReport({})]] });
    expect(once.result.success).toBe(true);
    const twice = await runScenario({ ...base, reportBack: true, scripts: [[reportBack({})]] });
    expect(twice.result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(twice.result.error).toContain('do not fit the context window');
    expect(twice.models[0]!.requests).toHaveLength(0);
  });

  test('a zod output schema works too (Standard JSON Schema)', async () => {
    const run = await runScenario({
      output: { format: 'json', schema: z.object({ city: z.string() }) },
      reportBack: true,
      scripts: [[reportBack({ city: 'Oslo' })]],
    });
    const offered = run.models[0]!.requests[0]!.tools.find((t) => t.name === 'report_back');
    expect(offered?.inputSchema).toMatchObject({ type: 'object', required: ['city'] });
    expect(run.result.finalReport?.content_json).toEqual({ city: 'Oslo' });
  });

  test('without reportBack there is no report_back tool, and a tool of that name is the user’s own', async () => {
    const tools = memoryTools('mine', { report_back: () => 'my own tool' });
    const run = await runScenario({
      output,
      tools: [tools],
      scripts: [[reportBack({ count: 1 }), finalReport({ count: 1 })]],
    });
    expect(tools.calls).toHaveLength(1);
    expect(run.result.finalReport?.source).toBe('xml');
  });

  test('with reportBack a provider tool named report_back is not added, with a warning', async () => {
    const tools = memoryTools('mine', { report_back: () => 'my own tool' });
    const run = await runScenario({
      output,
      reportBack: true,
      tools: [tools],
      scripts: [[reportBack({ count: 1 })]],
    });
    expect(tools.calls).toHaveLength(0);
    expect(run.result.logs.some((l) => l.message.includes('"report_back" is reserved'))).toBe(true);
    expect(run.result.finalReport?.source).toBe('report_back');
  });

  test.each([
    [{ reportBack: true }, 'reportBack', 'output { format: "json", schema } whose root is "type": "object"'],
    [{ reportBack: true, output: { format: 'json' as const } }, 'reportBack', 'root is "type": "object"'],
    [
      { reportBack: true, output: { format: 'json' as const, schema: { type: 'array' } } },
      'reportBack',
      'root is "type": "object"',
    ],
    [{ reportBack: 'yes' as unknown as boolean, output }, 'reportBack', 'a boolean'],
  ])(
    'reportBack that cannot work is a configuration error naming it (%#)',
    async (config, field, allowed) => {
      const run = await runScenario({ ...config, scripts: [[]] });
      expect(run.result.exitCode).toBe('EXIT-CONFIGURATION');
      expect(run.result.error).toContain(field);
      expect(run.result.error).toContain(allowed);
      expect(run.models[0]!.requests).toHaveLength(0);
    },
  );
});

describe('structured tool results reach the events and the op tree', () => {
  test('a tool answering structured content: tool_finished and the op-tree node carry structuredOutput', async () => {
    const tools = memoryTools('calc', {
      sum: () => ({ ok: true, text: '{"sum":5}', structured: { sum: 5 } }),
      plain: () => 'no structure',
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              { id: 'a', name: 'sum', arguments: {} },
              { id: 'b', name: 'plain', arguments: {} },
            ],
          },
          finalReport('done'),
        ],
      ],
    });
    const finished = run.events.flatMap((e) =>
      e.event.type === 'progress' && e.event.event.type === 'tool_finished' ? [e.event.event] : [],
    );
    expect(finished.find((e) => e.tool === 'sum')).toMatchObject({ structuredOutput: { sum: 5 } });
    expect(finished.find((e) => e.tool === 'plain')).not.toHaveProperty('structuredOutput');
    const nodes = (node: OpNode): OpNode[] => [node, ...node.children.flatMap(nodes)];
    const toolNodes = nodes(run.result.opTree!).filter((n) => n.kind === 'tool');
    expect(toolNodes.find((n) => n.label === 'sum')?.structuredOutput).toEqual({ sum: 5 });
    expect(toolNodes.find((n) => n.label === 'plain')).not.toHaveProperty('structuredOutput');
  });
});
