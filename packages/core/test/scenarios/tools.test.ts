import { describe, expect, test } from 'vitest';
import { memoryTools, waitingTool } from '../helpers/memory-tools.js';
import { runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';

const report = { text: xmlReport('done') };

describe('tools', () => {
  test('native tool calls run, their results join the conversation and the next turn sees them', async () => {
    const tools = memoryTools('calc', { add: (args) => String(Number(args.a) + Number(args.b)) });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }] }, report]],
    });
    expect(run.result.success).toBe(true);
    expect(tools.calls).toEqual([{ name: 'add', arguments: { a: 2, b: 3 } }]);
    const second = run.models[0]!.requests[1]!;
    expect(second.messages).toContainEqual(
      expect.objectContaining({ role: 'tool', toolCallId: 'c1', content: '5' }),
    );
    expect(toolEntries(run.result)[0]).toMatchObject({
      command: 'add',
      mcpServer: 'calc',
      status: 'ok',
      charactersOut: 1,
    });
  });

  test('the model sees every tool definition plus the internal ones', async () => {
    const tools = memoryTools('fs', { read: () => 'x', write: () => 'y' });
    const run = await runScenario({ tools: [tools], scripts: [[report]] });
    const names = run.models[0]!.requests[0]!.tools.map((t) => t.name);
    expect(names).toEqual(['read', 'write', 'agent__task_status', 'agent__batch']);
  });

  test('several calls in one turn run in parallel', async () => {
    let running = 0;
    let peak = 0;
    const slow = async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running--;
      return 'ok';
    };
    const tools = memoryTools('t', { a: slow, b: slow, c: slow });
    await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              { name: 'a', arguments: {} },
              { name: 'b', arguments: {} },
              { name: 'c', arguments: {} },
            ],
          },
          report,
        ],
      ],
    });
    expect(peak).toBe(3);
  });

  test('an unknown tool becomes a message to the model listing what exists', async () => {
    const tools = memoryTools('t', { real: () => 'r' });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'u', name: 'imaginary', arguments: {} }] }, report]],
    });
    expect(run.result.success).toBe(true);
    const message = run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'u');
    expect(message?.content).toContain('unknown tool "imaginary"');
    expect(message?.content).toContain('real');
    expect(toolEntries(run.result)[0]).toMatchObject({
      status: 'failed',
      mcpServer: 'unknown',
      error: 'unknown_tool',
    });
  });

  test('arguments that are not valid JSON are reported to the model, the tool is not called', async () => {
    const tools = memoryTools('t', { echo: () => 'called' });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'j', name: 'echo', arguments: '{"a": ' }] }, report]],
    });
    expect(tools.calls).toHaveLength(0);
    const message = run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'j');
    expect(message?.content).toMatch(/not valid JSON/);
  });

  test('a tool error result is shown to the model as failed', async () => {
    const tools = memoryTools('t', {
      flaky: () => ({ ok: false, error: { kind: 'execution', message: 'disk on fire' } }),
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'f', name: 'flaky', arguments: {} }] }, report]],
    });
    const message = run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'f');
    expect(message).toMatchObject({ content: '(tool failed: disk on fire)', isError: true });
  });

  test('a tool that throws does not crash the session', async () => {
    const tools = memoryTools('t', {
      boom: () => {
        throw new Error('kaboom');
      },
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'b', name: 'boom', arguments: {} }] }, report]],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.conversation.find((m) => m.role === 'tool')?.content).toBe('(tool failed: kaboom)');
  });

  test('a tool that never answers times out and the model is told', async () => {
    const tools = memoryTools('t', { stuck: () => new Promise(() => {}) });
    const started = Date.now();
    const run = await runScenario({
      toolTimeoutMs: 100,
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 's', name: 'stuck', arguments: {} }] }, report]],
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(run.result.conversation.find((m) => m.role === 'tool')?.content).toMatch(
      /no answer within 100 ms/,
    );
    expect(toolEntries(run.result)[0]).toMatchObject({ status: 'failed', error: 'timeout' });
  });

  test('a tool provider whose listing fails leaves the others working, with a warning', async () => {
    const broken = {
      id: 'broken',
      listTools: async () => Promise.reject(new Error('server did not start')),
      execute: async () => ({ ok: true as const, text: '' }),
    };
    const good = memoryTools('good', { ping: () => 'pong' });
    const run = await runScenario({
      tools: [broken, good],
      scripts: [[{ toolCalls: [{ name: 'ping', arguments: {} }] }, report]],
    });
    expect(run.result.success).toBe(true);
    expect(
      run.result.logs.some((l) => l.severity === 'WRN' && l.message.includes('server did not start')),
    ).toBe(true);
  });

  test('maxToolCallsPerTurn refuses the extra calls with a message', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    const run = await runScenario({
      maxToolCallsPerTurn: 1,
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              { id: '1', name: 'a', arguments: {} },
              { id: '2', name: 'a', arguments: {} },
            ],
          },
          report,
        ],
      ],
    });
    expect(tools.calls).toHaveLength(1);
    expect(run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === '2')?.content).toMatch(
      /too many tool calls/,
    );
  });

  test('agent__batch runs several calls and returns each result under its id', async () => {
    const tools = memoryTools('t', {
      up: (args) => String(args.s).toUpperCase(),
      len: (args) => String(String(args.s).length),
    });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              {
                id: 'b',
                name: 'agent__batch',
                arguments: {
                  calls: [
                    { id: 'x', tool: 'up', parameters: { s: 'abc' } },
                    { id: 'y', tool: 'len', parameters: { s: 'abcd' } },
                  ],
                },
              },
            ],
          },
          report,
        ],
      ],
    });
    const content =
      run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'b')?.content ?? '';
    expect(content).toContain('result of call x (up)');
    expect(content).toContain('ABC');
    expect(content).toContain('result of call y (len)');
    expect(content).toContain('4');
    expect(
      toolEntries(run.result)
        .map((e) => e.command)
        .sort(),
    ).toEqual(['agent__batch', 'agent__final_report_xml', 'len', 'up'].sort());
  });

  test('agent__batch refuses to batch the final report, task status or itself', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            toolCalls: [
              {
                id: 'b',
                name: 'agent__batch',
                arguments: { calls: [{ id: 'z', tool: 'agent__batch', parameters: {} }] },
              },
            ],
          },
          report,
        ],
      ],
    });
    const content =
      run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'b')?.content ?? '';
    expect(content).toMatch(/cannot run inside agent__batch/);
  });

  test('agent__batch with malformed arguments tells the model what is expected', async () => {
    const run = await runScenario({
      scripts: [[{ toolCalls: [{ id: 'b', name: 'agent__batch', arguments: { calls: 'nope' } }] }, report]],
    });
    expect(run.result.conversation.find((m) => m.role === 'tool')?.content).toMatch(
      /"calls" must be a non-empty array/,
    );
  });

  test('the unknown-tool message lists exactly the tools the request offered', async () => {
    const tools = memoryTools('t', { real: () => 'r' });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'u', name: 'imaginary', arguments: {} }] }, report]],
    });
    const offered = run.models[0]!.requests[0]!.tools.map((t) => t.name);
    expect(offered).toContain('agent__task_status');
    const message = run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'u');
    const listed = /available tools: (.*)\)$/.exec(String(message?.content))?.[1]?.split(', ');
    expect(listed?.sort()).toEqual([...offered].sort());
  });

  test('with internal tools off, only the given tools are offered and agent__batch is an unknown tool', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    const run = await runScenario({
      internalTools: false,
      tools: [tools],
      scripts: [
        [
          {
            toolCalls: [
              { id: 'b', name: 'agent__batch', arguments: { calls: [{ tool: 'a', parameters: {} }] } },
            ],
          },
          report,
        ],
      ],
    });
    expect(run.models[0]!.requests[0]!.tools.map((t) => t.name)).toEqual(['a']);
    expect(run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'b')?.content).toMatch(
      /unknown tool "agent__batch"/,
    );
    expect(tools.calls).toHaveLength(0);
  });

  test('agent__task_status emits progress and status events', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            toolCalls: [
              {
                name: 'agent__task_status',
                arguments: { status: 'in-progress', done: 'read', pending: 'write', now: 'thinking' },
              },
            ],
          },
          report,
        ],
      ],
    });
    const progress = run.events.find((e) => e.event.type === 'progress')?.event;
    expect(progress).toMatchObject({
      event: {
        type: 'agent_update',
        message: 'thinking',
        done: 'read',
        pending: 'write',
        status: 'in-progress',
      },
    });
    expect(run.rhythm).toContain('status');
  });

  test('task status completed forces the final turn', async () => {
    const run = await runScenario({
      scripts: [
        [
          { toolCalls: [{ name: 'agent__task_status', arguments: { status: 'completed', now: 'done' } }] },
          report,
        ],
      ],
    });
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started[1]).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'task_status_completed' });
    expect(run.models[0]!.requests[1]!.tools).toEqual([]);
  });

  test('a second standalone task status in a row forces the final turn', async () => {
    const status = {
      toolCalls: [{ name: 'agent__task_status', arguments: { status: 'in-progress', now: 'still working' } }],
    };
    const run = await runScenario({ scripts: [[status, status, report]] });
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started[1]).toMatchObject({ isFinalTurn: false });
    expect(started[2]).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'task_status_only' });
  });

  test('tool calls on the final turn are not run and the model is told to report', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    const run = await runScenario({
      maxTurns: 1,
      tools: [tools],
      scripts: [[{ toolCalls: [{ name: 'a', arguments: {} }] }, report]],
    });
    expect(tools.calls).toHaveLength(0);
    expect(run.result.success).toBe(true);
    expect(
      run.models[0]!.requests[1]!.messages.some((m) => m.role === 'user' && m.content.includes('final turn')),
    ).toBe(true);
  });

  test('a tool provider that hangs past the timeout and ignores the signal still yields', async () => {
    const tools = memoryTools('t', { ignore: waitingTool(60_000) });
    const run = await runScenario({
      toolTimeoutMs: 50,
      tools: [tools],
      scripts: [[{ toolCalls: [{ name: 'ignore', arguments: {} }] }, report]],
    });
    expect(run.result.success).toBe(true);
  });
});
