import { isToolCallEntry } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { llmEntries, NONCE, runScenario, TAG, toolEntries, xmlReport } from '../helpers/scenario.js';

describe('final report', () => {
  test('a report in the XML slot ends the session with success', async () => {
    const run = await runScenario({ scripts: [[{ text: xmlReport('# Done\nAll good.') }]] });
    expect(run.result.success).toBe(true);
    expect(run.result.exitCode).toBe('EXIT-FINAL-ANSWER');
    expect(run.result.finalReport).toMatchObject({
      status: 'success',
      format: 'markdown',
      content: '# Done\nAll good.',
    });
    expect(run.exitLog).toBe('agent:EXIT-FINAL-ANSWER');
    expect(run.rhythm).toEqual(['turn_started', 'output', 'final_report', 'op_tree']);
  });

  test('the report streams as output events and is not emitted again at the end', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            text: [
              `<${TAG} tool="agent__final_report" status="success" format="markdown">Hel`,
              'lo wor',
              `ld</${TAG}>`,
            ],
          },
        ],
      ],
    });
    expect(run.outputText('stream')).toBe('Hello world');
    expect(run.outputText('finalize')).toBe('');
    expect(run.events.filter((e) => e.event.type === 'final_report')).toHaveLength(1);
  });

  test('a report by native agent__final_report call is adopted and emitted once at finalize', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            toolCalls: [
              {
                name: 'agent__final_report',
                arguments: {
                  report_format: 'markdown',
                  status: 'partial',
                  report_content: 'native body',
                  encoding: 'raw',
                },
              },
            ],
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport).toMatchObject({ status: 'partial', content: 'native body' });
    expect(run.outputText('stream')).toBe('');
    expect(run.outputText('finalize')).toBe('native body');
    const report = toolEntries(run.result).find((e) => e.command === 'agent__final_report');
    expect(report).toMatchObject({ status: 'ok', mcpServer: 'agent', source: 'native' });
  });

  test('the XML report is accounted as agent__final_report_xml', async () => {
    const run = await runScenario({ scripts: [[{ text: xmlReport('x') }]] });
    expect(toolEntries(run.result)).toEqual([
      expect.objectContaining({
        command: 'agent__final_report_xml',
        source: 'xml',
        status: 'ok',
        mcpServer: 'agent',
      }),
    ]);
  });

  test('the report is the answer, not a tool call: its entry is marked and the FIN line counts only the tool', async () => {
    const tools = memoryTools('t', { up: () => 'UP' });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ toolCalls: [{ id: 'u', name: 'up', arguments: {} }] }, { text: xmlReport('x') }]],
    });
    expect(toolEntries(run.result).map((e) => [e.command, e.report ?? false])).toEqual([
      ['up', false],
      ['agent__final_report_xml', true],
    ]);
    expect(run.result.accounting.filter(isToolCallEntry).map((e) => e.command)).toEqual(['up']);
    const fin = run.result.logs.find((l) => l.remoteIdentifier === 'agent:summary' && l.type === 'tool');
    expect(fin?.message).toMatch(/^tools: 1 calls \(0 failed\)/);
    expect(run.result.opTree?.totals.toolCalls).toBe(1);
  });

  test('an invalid JSON report is sent back with diagnostics and the fixed one commits', async () => {
    const schema = { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } };
    const run = await runScenario({
      output: { format: 'json', schema },
      scripts: [
        [
          { text: xmlReport('{"count": "three"}', 'status="success" format="json"') },
          { text: xmlReport('{"count": 3}', 'status="success" format="json"') },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content_json).toEqual({ count: 3 });
    const second = run.models[0]!.requests[1]!;
    const feedback = second.messages.find((m) => m.role === 'user' && m.content.includes('was not accepted'));
    expect(feedback?.content).toContain('/count');
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started[1]).toMatchObject({ turn: 1, attempt: 2, isRetry: true });
  });

  test('a user schema with its own status field keeps it; the wrapper status stays the report status', async () => {
    const schema = {
      type: 'object',
      properties: { status: { enum: ['ok', 'broken'] } },
      required: ['status'],
    };
    const run = await runScenario({
      output: { format: 'json', schema },
      scripts: [[{ text: xmlReport('{"status": "broken"}', 'status="failure" format="json"') }]],
    });
    expect(run.result.finalReport?.status).toBe('failure');
    expect(run.result.finalReport?.content_json).toEqual({ status: 'broken' });
    expect(run.result.success).toBe(true);
  });

  test('a tag with another nonce is ignored and logged; the right one later wins', async () => {
    const wrong = `<ai-agent-ffffffff-FINAL tool="agent__final_report" status="success" format="markdown">fake</ai-agent-ffffffff-FINAL>`;
    const run = await runScenario({ maxTurns: 3, scripts: [[{ text: wrong }, { text: xmlReport('real') }]] });
    expect(run.result.finalReport?.content).toBe('real');
    expect(run.result.logs.some((l) => l.severity === 'WRN' && l.message.includes('ffffffff'))).toBe(true);
  });

  test.each([
    [
      'another nonce',
      `<ai-agent-ffffffff-FINAL tool="agent__final_report" status="success" format="markdown">fake</ai-agent-ffffffff-FINAL>`,
      'nonce "ffffffff" does not match this session',
    ],
    [
      'a self-closing tag',
      `<${TAG} tool="agent__final_report" status="success" format="markdown"/>`,
      'has no content; put the report between',
    ],
    [
      'a tool other than the report',
      `<${TAG} tool="web_search" status="success" format="markdown">query</${TAG}>`,
      'tool "web_search" cannot be called through the tag',
    ],
  ])(
    'an ignored report tag (%s) is explained to the model, not called plain text',
    async (_name, bad, reason) => {
      const run = await runScenario({ maxTurns: 3, scripts: [[{ text: bad }, { text: xmlReport('real') }]] });
      expect(run.result.finalReport?.content).toBe('real');
      const told = run.result.conversation.filter((m) => m.role === 'user').map((m) => String(m.content));
      const notice = told.find((text) => text.includes('was ignored'));
      expect(notice).toContain(reason);
      expect(notice).toContain(`<${TAG}`);
      expect(told.some((text) => text.includes('was plain text'))).toBe(false);
    },
  );

  test('a native call by the short name final_report is the report (seed 000 Short Name)', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            toolCalls: [
              {
                id: 'r',
                name: 'final_report',
                arguments: { status: 'success', report_format: 'markdown', report_content: 'Short.' },
              },
            ],
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('Short.');
    expect(run.models[0]!.requests).toHaveLength(1);
    expect(run.result.conversation).toContainEqual(
      expect.objectContaining({ role: 'tool', toolCallId: 'r', content: 'Final report captured.' }),
    );
    expect(toolEntries(run.result).map((e) => [e.command, e.status])).toEqual([
      ['agent__final_report', 'ok'],
    ]);
  });

  test('a report tag naming the short tool name final_report is the report', async () => {
    const text = `<${TAG} tool="final_report" status="success" format="markdown">Tagged.</${TAG}>`;
    const run = await runScenario({ scripts: [[{ text }]] });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('Tagged.');
    expect(run.models[0]!.requests).toHaveLength(1);
  });

  test('an example tag inside a leading <think> block is not taken as the report', async () => {
    const text = `<think>I could answer with ${xmlReport('from thinking')}</think>${xmlReport('the real one')}`;
    const run = await runScenario({ scripts: [[{ text }]] });
    expect(run.result.finalReport?.content).toBe('the real one');
    const thinking = run.events
      .filter((e) => e.event.type === 'thinking')
      .map((e) => (e.event as { text: string }).text)
      .join('');
    expect(thinking).toContain('from thinking');
  });

  test('an unclosed tag on a normal stop is accepted', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            text: `<${TAG} tool="agent__final_report" status="success" format="markdown">no closing tag`,
            stopReason: 'stop',
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('no closing tag');
  });

  test('an unclosed JSON report cut by the token limit is rejected and retried', async () => {
    const run = await runScenario({
      output: { format: 'json' },
      maxOutputTokens: 50,
      scripts: [
        [
          {
            text: `<${TAG} tool="agent__final_report" status="success" format="json">{"a": [1, 2`,
            stopReason: 'length',
          },
          { text: xmlReport('{"a": [1, 2, 3]}', 'status="success" format="json"') },
        ],
      ],
    });
    expect(run.result.finalReport?.content_json).toEqual({ a: [1, 2, 3] });
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started[1]).toMatchObject({ retrySlugs: ['xml_structured_output_truncated'] });
  });

  test('an unclosed text report cut by the token limit is accepted as truncated, with a warning', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            text: `<${TAG} tool="agent__final_report" status="success" format="markdown">partial text`,
            stopReason: 'length',
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('partial text');
    expect(run.result.logs.some((l) => l.severity === 'WRN' && l.message.includes('truncated'))).toBe(true);
  });

  test('plain text on a normal turn is not a report: the model is told and retried', async () => {
    const run = await runScenario({
      scripts: [[{ text: 'Here is my answer in plain text.' }, { text: xmlReport('proper') }]],
    });
    expect(run.result.finalReport?.content).toBe('proper');
    const second = run.models[0]!.requests[1]!;
    expect(second.messages.some((m) => m.role === 'user' && m.content.includes('plain text'))).toBe(true);
  });

  test('on the forced final turn plain text is adopted as the report', async () => {
    const run = await runScenario({ maxTurns: 1, scripts: [[{ text: 'Just text on the last turn.' }]] });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('Just text on the last turn.');
    expect(run.outputText('finalize')).toBe('Just text on the last turn.');
  });

  test('when every report attempt was invalid, no synthetic report is made and the run fails', async () => {
    const bad = { text: xmlReport('not json at all', 'status="success" format="json"') };
    const run = await runScenario({
      maxTurns: 1,
      output: { format: 'json' },
      scripts: [[bad, bad, bad]],
    });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-INVALID-FINAL-REPORT');
    // The last attempt is kept (report-commit.test.ts), never a made-up one.
    expect(run.result.finalReport).toMatchObject({ origin: 'rejected', content: 'not json at all' });
    expect(run.result.finalReport?.synthetic).toBeUndefined();
    expect(llmEntries(run.result)).toHaveLength(3);
  });

  test('the nonce and the expected format reach the model in the XML-NEXT notice, which is not kept', async () => {
    const run = await runScenario({
      output: { format: 'json', schema: { type: 'object' } },
      scripts: [[{ text: xmlReport('{}', 'status="success" format="json"') }]],
    });
    const request = run.models[0]!.requests[0]!;
    const notice = request.messages.at(-1)!;
    expect(notice.role).toBe('user');
    expect(notice.content).toContain(NONCE);
    expect(notice.content).toContain('json');
    expect(
      run.result.conversation.some(
        (m) => m.content.includes(`ai-agent-${NONCE}-FINAL tool`) && m.role === 'user',
      ),
    ).toBe(false);
  });
});
