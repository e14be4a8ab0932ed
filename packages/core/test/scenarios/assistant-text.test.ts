import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, type ScenarioRun, TAG, xmlReport } from '../helpers/scenario.js';

// Seed 002, Lifecycle 4: "Streams assistant text via onEvent(type='output')". Here `output` is
// the report; the rest of what the model writes goes out as `assistant_text`, never both.
function assistantText(run: ScenarioRun, source?: 'stream' | 'finalize'): string {
  return run.events
    .filter((e) => e.event.type === 'assistant_text' && (source === undefined || e.meta.source === source))
    .map((e) => (e.event as { text: string }).text)
    .join('');
}

describe('assistant text outside the report', () => {
  test('text beside tool calls and before the report goes out as assistant_text as it streams; the report once as output', async () => {
    const tools = memoryTools('logs', { tail: () => 'disk full at 03:12' });
    const run = await runScenario({
      tools: [tools],
      scripts: [
        [
          {
            text: ['Let me ', 'check the logs.'],
            toolCalls: [{ id: 'c1', name: 'tail', arguments: {} }],
          },
          {
            text: [
              'The logs say enough.\n\n',
              `<${TAG} tool="agent__final_report" status="success" format="markdown">Disk `,
              `full.</${TAG}>\n`,
            ],
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(assistantText(run, 'stream')).toBe('Let me check the logs.The logs say enough.\n\n');
    expect(run.outputText()).toBe('Disk full.');
    // It streamed: the first piece went out before the tool ran.
    const first = run.events.findIndex((e) => e.event.type === 'assistant_text');
    const toolStarted = run.events.findIndex(
      (e) => e.event.type === 'progress' && e.event.event.type === 'tool_started',
    );
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(toolStarted);
    expect(run.events.find((e) => e.event.type === 'assistant_text')?.meta).toMatchObject({
      isMaster: true,
      source: 'stream',
    });
  });

  test('plain text adopted as the report on the final turn goes out once, as output only', async () => {
    const run = await runScenario({ maxTurns: 1, scripts: [[{ text: ['Here is ', 'what I found.'] }]] });
    expect(run.result.finalReport).toMatchObject({
      origin: 'adopted-text',
      content: 'Here is what I found.',
    });
    expect(assistantText(run)).toBe('');
    expect(run.outputText()).toBe('Here is what I found.');
  });

  test('on the final turn, text beside the report goes out once the answer is judged, not as the report', async () => {
    const run = await runScenario({
      maxTurns: 1,
      scripts: [[{ text: ['Summing up:\n', xmlReport('All green.')] }]],
    });
    expect(run.result.finalReport).toMatchObject({ content: 'All green.' });
    expect(assistantText(run, 'finalize')).toBe('Summing up:');
    expect(run.outputText()).toBe('All green.');
  });

  test('a plain-text answer retried with a notice was still said: it goes out as assistant_text', async () => {
    const run = await runScenario({ scripts: [[{ text: 'I think it is 42.' }, { text: xmlReport('42') }]] });
    expect(run.result.finalReport).toMatchObject({ content: '42' });
    expect(assistantText(run)).toBe('I think it is 42.');
    expect(run.outputText()).toBe('42');
  });
});
