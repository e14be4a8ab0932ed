// Tool accounting records as seed 002 defines them ("Accounting Records: Structure and Emission Semantics").
import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';

const report = { text: xmlReport('done') };

describe('tool accounting records (seed 002)', () => {
  test('a native agent__final_report records the size of its parameters as charactersIn, 12 out', async () => {
    const args = '{"status": "success", "report_format": "markdown", "report_content": "native body"}';
    const run = await runScenario({
      scripts: [[{ toolCalls: [{ name: 'agent__final_report', arguments: args }] }]],
    });
    expect(run.result.finalReport?.content).toBe('native body');
    expect(toolEntries(run.result)).toEqual([
      expect.objectContaining({
        command: 'agent__final_report',
        status: 'ok',
        mcpServer: 'agent',
        charactersIn: args.length,
        charactersOut: 12,
      }),
    ]);
  });

  test('the FINAL tag records the size of its body as charactersIn', async () => {
    const run = await runScenario({ scripts: [[{ text: xmlReport('twelve chars') }]] });
    expect(toolEntries(run.result)[0]).toMatchObject({
      command: 'agent__final_report_xml',
      charactersIn: 'twelve chars'.length,
    });
  });

  test('a failed external tool records charactersOut 0 with its resolved server', async () => {
    const tools = memoryTools('calc', {
      divide: () => ({ ok: false, error: { kind: 'execution', message: 'division by zero' } }),
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'd', name: 'divide', arguments: { a: 1, b: 0 } }] }, report]],
    });
    const message = run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'd');
    expect(message?.content).toBe('(tool failed: division by zero)');
    expect(toolEntries(run.result)[0]).toMatchObject({
      command: 'divide',
      status: 'failed',
      mcpServer: 'calc',
      charactersIn: JSON.stringify({ a: 1, b: 0 }).length,
      charactersOut: 0,
      error: 'execution',
    });
  });

  test('a tool that cannot be resolved records mcpServer unknown and charactersOut 0', async () => {
    const run = await runScenario({
      scripts: [[{ toolCalls: [{ name: 'imaginary', arguments: {} }] }, report]],
    });
    expect(toolEntries(run.result)[0]).toMatchObject({
      command: 'imaginary',
      status: 'failed',
      mcpServer: 'unknown',
      charactersOut: 0,
      error: 'unknown_tool',
    });
  });

  test('agent__task_status records ok on server agent, charactersOut from its done/pending/now', async () => {
    const first = { status: 'in-progress', done: 'read the file', pending: 'summarise', now: 'counting' };
    const second = { status: 'in-progress', now: 'writing the summary now' };
    const run = await runScenario({
      scripts: [
        [
          { toolCalls: [{ name: 'agent__task_status', arguments: first }] },
          { toolCalls: [{ name: 'agent__task_status', arguments: second }] },
          report,
        ],
      ],
    });
    const entries = toolEntries(run.result).filter((e) => e.command === 'agent__task_status');
    expect(entries).toEqual([
      expect.objectContaining({
        status: 'ok',
        mcpServer: 'agent',
        charactersOut: first.done.length + first.pending.length + first.now.length,
      }),
      expect.objectContaining({ status: 'ok', mcpServer: 'agent', charactersOut: second.now.length }),
    ]);
  });
});
