import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';

// A tool whose result carries `endSession` is the session's answer (a router's handoff, a
// `report_back`): the session ends after that turn with the tool's report, no further model call.
const handoffTools = () =>
  memoryTools('router', {
    'handoff-to': (args) => ({
      ok: true,
      text: `Handed off to ${String(args.agent)}.`,
      endSession: { content: String(args.message ?? ''), metadata: { agent: args.agent } },
    }),
    lookup: () => 'looked up',
  });

describe('a tool that ends the session', () => {
  test('the session ends after that turn with the tool report; other calls of the turn still run', async () => {
    const run = await runScenario({
      tools: [handoffTools()],
      output: { format: 'json', schema: { type: 'object', required: ['never'] } },
      scripts: [
        [
          {
            toolCalls: [
              { id: 'a', name: 'lookup', arguments: {} },
              { id: 'b', name: 'handoff-to', arguments: { agent: 'billing', message: 'refund' } },
            ],
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.exitCode).toBe('EXIT-FINAL-ANSWER');
    // The report is the tool's, in the asked format, not checked against the schema.
    expect(run.result.finalReport).toMatchObject({
      status: 'success',
      format: 'json',
      content: 'refund',
      metadata: { agent: 'billing' },
      origin: 'declared',
    });
    expect(run.models[0]!.requests).toHaveLength(1);
    expect(toolEntries(run.result).map((e) => [e.command, e.status])).toEqual([
      ['lookup', 'ok'],
      ['handoff-to', 'ok'],
    ]);
    const tools = run.result.conversation.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toEqual(['looked up', 'Handed off to billing.']);
    expect(run.events.filter((e) => e.event.type === 'final_report')).toHaveLength(1);
    expect(run.result.logs.map((l) => l.message)).toContain(
      'the tool handoff-to ended the session with its result',
    );
  });

  test('inside agent__batch it ends the session too', async () => {
    const run = await runScenario({
      tools: [handoffTools()],
      scripts: [
        [
          {
            toolCalls: [
              {
                name: 'agent__batch',
                arguments: {
                  calls: [{ id: '1', tool: 'handoff-to', parameters: { agent: 'tech' } }],
                },
              },
            ],
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.metadata).toEqual({ agent: 'tech' });
  });

  test('a report in the same answer wins: the tool calls beside it run, the report is the answer', async () => {
    const handoff = handoffTools();
    const run = await runScenario({
      tools: [handoff],
      scripts: [
        [
          {
            text: xmlReport('answered myself'),
            toolCalls: [{ name: 'handoff-to', arguments: { agent: 'billing' } }],
          },
        ],
      ],
    });
    expect(run.result.finalReport?.content).toBe('answered myself');
    expect(run.result.finalReport?.source).toBe('xml');
    // Tools beside a report run (seed 003), but their endSession does not replace the report.
    expect(handoff.calls).toHaveLength(1);
  });

  test('a failed call or a tool error does not end the session', async () => {
    const failing = memoryTools('r', {
      end: () => ({
        ok: true,
        isError: true,
        text: 'no such destination',
        endSession: { content: 'x' },
      }),
    });
    const run = await runScenario({
      tools: [failing],
      scripts: [[{ toolCalls: [{ name: 'end', arguments: {} }] }, { text: xmlReport('after all') }]],
    });
    expect(run.result.finalReport?.content).toBe('after all');
    expect(run.models[0]!.requests).toHaveLength(2);
  });
});
