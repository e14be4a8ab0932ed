import { describe, expect, test } from 'vitest';
import { memoryTools, waitingTool } from '../helpers/memory-tools.js';
import { runScenario, TAG, xmlReport } from '../helpers/scenario.js';

const open = (attributes: string) => `<${TAG} tool="agent__final_report" ${attributes}>`;

describe('unclosed reports under each stop reason', () => {
  test.each(['end_turn', 'eos', 'end'])(
    'an unclosed JSON report is accepted on a normal stop (%s)',
    async (raw) => {
      const run = await runScenario({
        output: { format: 'json' },
        scripts: [[{ text: `${open('status="success" format="json"')}{"ok": true}`, rawStopReason: raw }]],
      });
      expect(run.result.finalReport?.content_json).toEqual({ ok: true });
    },
  );

  test('an unclosed report on an unknown stop reason is accepted with a warning', async () => {
    const run = await runScenario({
      scripts: [
        [{ text: `${open('status="success" format="markdown"')}body`, rawStopReason: 'weird_reason' }],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('body');
  });

  test('an unclosed Slack report cut at max_tokens is rejected and retried', async () => {
    const blocks = '[{"blocks":[{"type":"section","text":{"type":"mrkdwn","text":"hi"}}]}]';
    const run = await runScenario({
      output: { format: 'slack-block-kit' },
      scripts: [
        [
          {
            text: `${open('status="success" format="slack-block-kit"')}[{"blocks":[{"type":"sec`,
            rawStopReason: 'max_tokens',
            stopReason: 'length',
          },
          { text: xmlReport(blocks, 'status="success" format="slack-block-kit"') },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.models[0]!.calls).toBe(2);
    expect(run.result.finalReport?.format).toBe('slack-block-kit');
  });
});

describe('formats', () => {
  test('a Slack Block Kit report comes back as messages', async () => {
    const payload = '[{"blocks":[{"type":"section","text":{"type":"mrkdwn","text":"**bold** news"}}]}]';
    const run = await runScenario({
      output: { format: 'slack-block-kit' },
      scripts: [[{ text: xmlReport(payload, 'status="success" format="slack-block-kit"') }]],
    });
    const messages = (run.result.finalReport!.content_json as { messages: unknown[] }).messages;
    expect(messages).toHaveLength(1);
    expect(JSON.stringify(messages)).toContain('*bold* news');
  });

  test('a sub-agent report is passed through untouched', async () => {
    const blob = '  {not: "json"} <b>raw</b>  ';
    const run = await runScenario({
      output: { format: 'sub-agent' },
      scripts: [[{ text: xmlReport(blob, 'status="success" format="sub-agent"') }]],
    });
    expect(run.result.finalReport?.content).toBe(blob);
  });

  test('a report in the wrong format attribute is normalised to the expected format, with a warning', async () => {
    const run = await runScenario({
      output: { format: 'markdown' },
      scripts: [[{ text: xmlReport('text', 'status="success" format="text"') }]],
    });
    expect(run.result.finalReport?.format).toBe('markdown');
    expect(
      run.result.logs.some((l) => l.severity === 'WRN' && l.remoteIdentifier === 'agent:final-report'),
    ).toBe(true);
  });

  test('JSON in plain text on the final turn is adopted when it matches the schema', async () => {
    const schema = { type: 'object', required: ['n'], properties: { n: { type: 'number' } } };
    const run = await runScenario({
      maxTurns: 1,
      output: { format: 'json', schema },
      scripts: [[{ text: 'Result: {"n": 7}' }]],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content_json).toEqual({ n: 7 });
  });

  test('a native report call with broken arguments is rejected with the reason, then fixed', async () => {
    const run = await runScenario({
      scripts: [
        [
          { toolCalls: [{ name: 'agent__final_report', arguments: '{"report_content": ' }] },
          {
            toolCalls: [
              {
                name: 'agent__final_report',
                arguments: {
                  report_format: 'markdown',
                  report_content: 'fixed',
                  encoding: 'raw',
                  status: 'success',
                },
              },
            ],
          },
        ],
      ],
    });
    expect(run.result.finalReport?.content).toBe('fixed');
    const feedback = run.models[0]!.requests[1]!.messages.find(
      (m) => m.role === 'user' && m.content.includes('not accepted'),
    );
    expect(feedback?.content).toMatch(/not valid JSON/);
  });

  test('a report together with other tool calls ends the session after those tools run (seed 003)', async () => {
    const tools = memoryTools('t', { side: () => 'effect' });
    const run = await runScenario({
      tools: [tools],
      scripts: [[{ text: xmlReport('final'), toolCalls: [{ name: 'side', arguments: {} }] }]],
    });
    expect(run.result.finalReport?.content).toBe('final');
    expect(tools.calls).toHaveLength(1);
    expect(run.result.conversation.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'effect',
    ]);
    expect(run.models[0]!.requests).toHaveLength(1);
  });
});

describe('stopping', () => {
  test('stop("stop") during a tool call lets the tool finish, then the final turn runs', async () => {
    const tools = memoryTools('t', { slow: waitingTool(80) });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [{ toolCalls: [{ id: 's', name: 'slow', arguments: {} }] }, { text: xmlReport('after stop') }],
      ],
      control: (session) => (event) => {
        if (event.type === 'log' && event.entry.type === 'tool' && event.entry.direction === 'request')
          session.stop('stop');
      },
    });
    expect(run.result.success).toBe(true);
    expect(run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 's')?.content).toBe(
      'finished waiting',
    );
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'user_stop' });
  });

  test('stop("stop") when the final turn gives no report ends with EXIT-USER-STOP', async () => {
    const run = await runScenario({
      maxRetries: 1,
      scripts: [
        [
          { toolCalls: [{ name: 'agent__task_status', arguments: { status: 'in-progress', now: 'x' } }] },
          { text: '' },
        ],
      ],
      control: (session) => (event) => {
        if (event.type === 'turn_started' && event.turn === 1) session.stop('stop');
      },
    });
    expect(run.result.exitCode).toBe('EXIT-USER-STOP');
  });
});
