import type { ToolAccountingEntry } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';

// Seed 003 "Execution Flow" 2-4 and seed 004 decision 3: native tool calls that come in the
// same answer as the final report are kept and run; their results and accounting are recorded;
// then the report commits and the session ends.

function notesTool() {
  const written: string[] = [];
  const tools = memoryTools('notes', {
    save: (args) => {
      written.push(String(args.text));
      return `saved ${String(args.text).length} characters`;
    },
  });
  return { tools, written };
}

describe('tool calls sent beside a final report', () => {
  test('beside the XML report: the tools run, their results and accounting are recorded, then the report commits', async () => {
    const { tools, written } = notesTool();
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            text: xmlReport('All done; the summary is saved.'),
            toolCalls: [{ id: 's1', name: 'save', arguments: { text: 'the summary' } }],
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('All done; the summary is saved.');
    // The tool ran: its side effect happened and the model's call got the real answer.
    expect(written).toEqual(['the summary']);
    expect(run.result.conversation).toContainEqual(
      expect.objectContaining({ role: 'tool', toolCallId: 's1', content: 'saved 11 characters' }),
    );
    // One model call: the session ended with that answer.
    expect(run.models[0]!.requests).toHaveLength(1);
    // Accounting: the tool first, then the report.
    const entries = toolEntries(run.result) as ToolAccountingEntry[];
    expect(entries.map((e) => [e.command, e.status])).toEqual([
      ['save', 'ok'],
      ['agent__final_report_xml', 'ok'],
    ]);
    expect(entries[0]).toMatchObject({ mcpServer: 'notes', charactersOut: 'saved 11 characters'.length });
    // Events: the tool's run is visible before the report.
    const progress = run.events.flatMap((e) =>
      e.event.type === 'progress' && e.event.event.type.startsWith('tool_') ? [e.event.event.type] : [],
    );
    expect(progress).toEqual(['tool_started', 'tool_finished']);
    const finished = run.rhythm.lastIndexOf('progress');
    expect(run.rhythm.indexOf('final_report')).toBeGreaterThan(finished);
    // The op tree shows the tool call under the turn.
    const turn = run.result.opTree!.children[0]!;
    expect(turn.children.map((c) => [c.kind, c.label, c.status])).toEqual([
      ['llm', 'p1:m1', 'ok'],
      ['tool', 'save', 'ok'],
    ]);
    expect(run.exitLog).toBe('agent:EXIT-FINAL-ANSWER');
  });

  test('beside a native agent__final_report call: the other calls run, the report call is answered as captured', async () => {
    const { tools, written } = notesTool();
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              { id: 'a', name: 'save', arguments: { text: 'one' } },
              {
                id: 'r',
                name: 'agent__final_report',
                arguments: { status: 'success', report_format: 'markdown', report_content: 'Saved both.' },
              },
              { id: 'b', name: 'save', arguments: { text: 'three' } },
            ],
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('Saved both.');
    expect(written.sort()).toEqual(['one', 'three']);
    const toolMessages = run.result.conversation.filter((m) => m.role === 'tool');
    // Every call answered, in the order the model wrote them.
    expect(toolMessages.map((m) => [m.toolCallId, m.content])).toEqual([
      ['a', 'saved 3 characters'],
      ['r', 'Final report captured.'],
      ['b', 'saved 5 characters'],
    ]);
    const entries = toolEntries(run.result) as ToolAccountingEntry[];
    expect(entries.map((e) => e.command)).toEqual(['save', 'save', 'agent__final_report']);
  });

  test('a failing tool beside the report is recorded as failed; the report still commits', async () => {
    const tools = memoryTools('notes', {
      save: () => ({ ok: false, error: { kind: 'execution', message: 'disk full' } }),
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ text: xmlReport('Done.'), toolCalls: [{ id: 'x', name: 'save', arguments: {} }] }]],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.conversation).toContainEqual(
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'x',
        content: '(tool failed: disk full)',
        isError: true,
      }),
    );
    expect(toolEntries(run.result)[0]).toMatchObject({
      command: 'save',
      status: 'failed',
      error: 'execution',
    });
  });

  test('on the final turn no tools run, even beside a report: the report commits and the calls are answered', async () => {
    const { tools, written } = notesTool();
    const run = await runScenario({
      tools: [tools],
      maxTurns: 1,
      scripts: [
        [{ text: xmlReport('Final.'), toolCalls: [{ id: 'late', name: 'save', arguments: { text: 'x' } }] }],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(written).toEqual([]);
    expect(run.result.conversation).toContainEqual(
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'late',
        content: '(tool failed: no tools can run on the final turn)',
      }),
    );
  });

  test('an abort while those tools run ends the session as aborted, without the report', async () => {
    let release: () => void = () => {};
    const tools = memoryTools('slow', {
      wait: (_args, options) =>
        new Promise<string>((resolve) => {
          release = () => resolve('late');
          options.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
        }),
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ text: xmlReport('Done.'), toolCalls: [{ id: 'w', name: 'wait', arguments: {} }] }]],
      control: (session) => (event) => {
        if (event.type === 'progress' && event.event.type === 'tool_started') session.stop('abort');
      },
    });
    release();
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-ABORTED');
  });

  test('an abort while those tools run takes back the report text that streamed', async () => {
    const tools = memoryTools('slow', {
      wait: (_args, options) =>
        new Promise<string>((resolve) => {
          options.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
        }),
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [{ text: xmlReport('Never the report.'), toolCalls: [{ id: 'w', name: 'wait', arguments: {} }] }],
      ],
      control: (session) => (event) => {
        if (event.type === 'progress' && event.event.type === 'tool_started') session.stop('abort');
      },
    });
    expect(run.result.exitCode).toBe('EXIT-ABORTED');
    // The text went out as the report streamed; a consumer must be told it never became one.
    expect(run.outputText('stream')).toBe('Never the report.');
    const retracted = run.events.flatMap((e) => (e.event.type === 'output_retracted' ? [e.event] : []));
    expect(retracted).toEqual([
      expect.objectContaining({ characters: 'Never the report.'.length, slug: 'aborted' }),
    ]);
    expect(run.rhythm.indexOf('output_retracted')).toBeGreaterThan(run.rhythm.lastIndexOf('output'));
  });
});
