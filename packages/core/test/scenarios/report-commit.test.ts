import type { AgentEvent } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { type RecordedEvent, runScenario, TAG, xmlReport } from '../helpers/scenario.js';

/** What a consumer that honours retractions shows: streamed text minus what was taken back. */
function shownText(events: readonly RecordedEvent[]): string {
  let shown = '';
  for (const { event } of events) {
    if (event.type === 'output') shown += event.text;
    if (event.type === 'output_retracted') shown = shown.slice(0, shown.length - event.characters);
  }
  return shown;
}

function retractions(events: readonly RecordedEvent[]) {
  return events
    .map((e) => e.event)
    .filter((e): e is Extract<AgentEvent, { type: 'output_retracted' }> => e.type === 'output_retracted');
}

const COUNT_SCHEMA = { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } };

describe('a rejected report never reaches a consumer', () => {
  test('a json report is emitted only once committed: the invalid attempt is never output', async () => {
    const run = await runScenario({
      output: { format: 'json', schema: COUNT_SCHEMA },
      scripts: [
        [
          {
            text: [
              `<${TAG} tool="agent__final_report" status="success" format="json">{"count": `,
              '"three"}',
              `</${TAG}>`,
            ],
          },
          { text: xmlReport('{"count": 3}', 'status="success" format="json"') },
        ],
      ],
    });
    expect(run.result.finalReport?.content_json).toEqual({ count: 3 });
    expect(run.outputText()).not.toContain('three');
    expect(run.outputText('stream')).toBe('');
    expect(run.outputText('finalize')).toBe(run.result.finalReport?.content);
    expect(retractions(run.events)).toEqual([]);
    // The output comes after the attempts, right before the report event.
    expect(run.rhythm).toEqual(['turn_started', 'turn_started', 'output', 'final_report', 'op_tree']);
  });

  test.each([
    ['slack-block-kit', '[{"blocks":[{"type":"section","text":{"type":"mrkdwn","text":"hi"}}]}]'],
    ['sub-agent', 'opaque blob for the parent'],
  ] as const)('a %s report is held until committed too', async (format, payload) => {
    const run = await runScenario({
      output: { format },
      scripts: [[{ text: [xmlReport(payload, `status="success" format="${format}"`)] }]],
    });
    expect(run.result.success).toBe(true);
    expect(run.outputText('stream')).toBe('');
    expect(run.outputText('finalize')).toBe(run.result.finalReport?.content);
  });

  test('a markdown report with a valid wrapper streams live, once', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            text: [
              `<${TAG} tool="agent__final_report" status="partial" format="markdown">Hal`,
              'f done',
              `</${TAG}>`,
            ],
          },
        ],
      ],
    });
    expect(run.outputText('stream')).toBe('Half done');
    expect(run.outputText('finalize')).toBe('');
    expect(run.result.finalReport).toMatchObject({ status: 'partial', content: 'Half done' });
  });

  test('a base64 text report is not streamed as base64: the decoded report goes out once committed', async () => {
    const body = Buffer.from('# Décodé\nok', 'utf8').toString('base64');
    const run = await runScenario({
      scripts: [[{ text: xmlReport(body, 'status="success" format="markdown" encoding="base64"') }]],
    });
    expect(run.result.finalReport?.content).toBe('# Décodé\nok');
    expect(run.outputText('stream')).toBe('');
    expect(run.outputText('finalize')).toBe('# Décodé\nok');
  });

  test('a text report whose answer breaks off mid-stream is retracted before the retry streams', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            text: [
              `<${TAG} tool="agent__final_report" status="success" format="markdown">The ans`,
              'wer is 4',
            ],
            error: { kind: 'server', message: 'upstream reset', midStream: true },
          },
          { text: [xmlReport('The answer is 42.')] },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe('The answer is 42.');
    expect(run.rhythm).toEqual([
      'turn_started',
      'output',
      'output',
      'output_retracted',
      'turn_started',
      'output',
      'final_report',
      'op_tree',
    ]);
    expect(retractions(run.events)).toEqual([
      {
        type: 'output_retracted',
        characters: 'The answer is 4'.length,
        slug: 'server',
        reason: expect.stringContaining('upstream reset'),
      },
    ]);
    expect(shownText(run.events)).toBe('The answer is 42.');
    expect(
      run.result.logs.some((l) => l.message.startsWith('retracted 15 characters of streamed report')),
    ).toBe(true);
  });

  test('an answer aborted mid-report retracts what it streamed', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            text: [
              `<${TAG} tool="agent__final_report" status="success" format="markdown">Start`,
              ' more',
              ' more',
            ],
            tokenDelayMs: 30,
          },
        ],
      ],
      control: (session) => (event) => {
        if (event.type === 'output') session.stop('abort');
      },
    });
    expect(run.result.exitCode).toBe('EXIT-ABORTED');
    expect(retractions(run.events)).toEqual([
      expect.objectContaining({ characters: 'Start'.length, slug: 'aborted' }),
    ]);
    expect(shownText(run.events)).toBe('');
  });

  test('nothing is retracted when nothing streamed (a failing json answer)', async () => {
    const run = await runScenario({
      output: { format: 'json' },
      scripts: [
        [
          {
            text: [`<${TAG} tool="agent__final_report" status="success" format="json">{"a": `],
            error: { kind: 'server', midStream: true },
          },
          { text: xmlReport('{"a": 1}', 'status="success" format="json"') },
        ],
      ],
    });
    expect(run.result.finalReport?.content_json).toEqual({ a: 1 });
    expect(retractions(run.events)).toEqual([]);
  });
});

describe('status is validated against its enum', () => {
  test('an unknown status is rejected with a diagnostic and retried, and nothing of it streams', async () => {
    const run = await runScenario({
      scripts: [
        [
          { text: xmlReport('Looks done to me.', 'status="done" format="markdown"') },
          { text: xmlReport('Could not finish: the data is missing.', 'status="failure" format="markdown"') },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.exitCode).toBe('EXIT-FINAL-ANSWER');
    expect(run.result.finalReport).toMatchObject({
      status: 'failure',
      content: 'Could not finish: the data is missing.',
      origin: 'declared',
    });
    expect(run.outputText()).toBe('Could not finish: the data is missing.');
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started[1]).toMatchObject({ attempt: 2, retrySlugs: ['final_report_status_invalid'] });
    const feedback = run.models[0]!.requests[1]!.messages.find(
      (m) => m.role === 'user' && m.content.includes('was not accepted'),
    );
    expect(feedback?.content).toContain('status "done" is not allowed');
    expect(feedback?.content).toContain('status="failure"');
    expect(
      run.result.logs.some(
        (l) =>
          l.severity === 'WRN' && l.message.startsWith('final report rejected (final_report_status_invalid)'),
      ),
    ).toBe(true);
  });

  test('a missing status is rejected too, also through a native agent__final_report call', async () => {
    const run = await runScenario({
      scripts: [
        [
          { text: `<${TAG} tool="agent__final_report" format="markdown">no status</${TAG}>` },
          {
            toolCalls: [
              {
                name: 'agent__final_report',
                arguments: { report_format: 'markdown', report_content: 'still none', encoding: 'raw' },
              },
            ],
          },
          { text: xmlReport('with status') },
        ],
      ],
    });
    expect(run.result.finalReport).toMatchObject({ status: 'success', content: 'with status' });
    const slugs = run.events
      .filter((e) => e.event.type === 'turn_started')
      .map((e) => (e.event as { retrySlugs?: string[] }).retrySlugs);
    expect(slugs).toEqual([undefined, ['final_report_status_invalid'], ['final_report_status_invalid']]);
    expect(run.outputText()).toBe('with status');
  });

  test('plain text adopted on the final turn needs no status (the model declared none)', async () => {
    const run = await runScenario({ maxTurns: 1, scripts: [[{ text: 'Just the answer.' }]] });
    expect(run.result.finalReport).toMatchObject({ origin: 'adopted-text', status: 'success' });
  });

  test('with output.statusOptional a report without status is success; an unknown one is still refused', async () => {
    const run = await runScenario({
      output: { format: 'text', statusOptional: true },
      scripts: [
        [
          { text: `<${TAG} status="maybe" format="text">bogus</${TAG}>` },
          { text: `<${TAG} format="text">extracted</${TAG}>` },
        ],
      ],
    });
    expect(run.result.finalReport).toMatchObject({ status: 'success', content: 'extracted' });
    expect(run.outputText()).toBe('extracted');
  });

  test('output.statusOptional that is not a boolean is a configuration error', async () => {
    const run = await runScenario({
      output: { format: 'text', statusOptional: 'yes' as unknown as boolean },
      scripts: [[]],
    });
    expect(run.result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(run.result.error).toContain('output.statusOptional');
  });
});

describe('nothing is lost when retries run out on an invalid report', () => {
  test('a parsed JSON report that misses the schema on every attempt is the result, with its errors', async () => {
    const attempt = (count: string) => ({
      text: xmlReport(`{"count": "${count}"}`, 'status="success" format="json"'),
    });
    const run = await runScenario({
      maxTurns: 1,
      output: { format: 'json', schema: COUNT_SCHEMA },
      scripts: [[attempt('one'), attempt('two'), attempt('three')]],
    });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-FINAL-REPORT-SCHEMA-MISMATCH');
    expect(run.exitLog).toBe('agent:EXIT-FINAL-REPORT-SCHEMA-MISMATCH');
    expect(run.result.finalReport).toEqual({
      status: 'success',
      format: 'json',
      content: JSON.stringify({ count: 'three' }, null, 2),
      content_json: { count: 'three' },
      ts: expect.any(Number),
      origin: 'declared',
      source: 'xml',
      validationErrors: [{ instancePath: '/count', message: 'must be integer' }],
    });
    expect(run.result.error).toMatch(
      /^the final report does not match the output schema after 3 attempts; the last parsed one is the result: \/count: must be integer/,
    );
    // The report the run hands back is announced and emitted like any other.
    expect(run.rhythm).toEqual([
      'turn_started',
      'turn_started',
      'turn_started',
      'output',
      'final_report',
      'op_tree',
    ]);
  });

  test('the last PARSED attempt is the result even when a later attempt is not JSON', async () => {
    const run = await runScenario({
      maxTurns: 1,
      output: { format: 'json', schema: COUNT_SCHEMA },
      scripts: [
        [
          { text: xmlReport('{"count": "two"}', 'status="success" format="json"') },
          { text: xmlReport('{"count": "three"}', 'status="success" format="json"') },
          { text: xmlReport('no json here', 'status="success" format="json"') },
        ],
      ],
    });
    expect(run.result.exitCode).toBe('EXIT-FINAL-REPORT-SCHEMA-MISMATCH');
    expect(run.result.finalReport?.content_json).toEqual({ count: 'three' });
    expect(run.result.finalReport?.validationErrors).toEqual([
      { instancePath: '/count', message: 'must be integer' },
    ]);
  });

  test('no attempt parsed as JSON: the last attempt is kept as a rejected failure report (exit marker unchanged)', async () => {
    const attempt = (text: string) => ({ text: xmlReport(text, 'status="success" format="json"') });
    const run = await runScenario({
      maxTurns: 1,
      output: { format: 'json', schema: COUNT_SCHEMA },
      scripts: [[attempt('one'), attempt('two'), attempt('three')]],
    });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-INVALID-FINAL-REPORT');
    expect(run.exitLog).toBe('agent:EXIT-INVALID-FINAL-REPORT');
    expect(run.result.finalReport).toMatchObject({
      status: 'failure',
      format: 'json',
      content: 'three',
      origin: 'rejected',
      rejection: { slug: 'final_report_json_invalid' },
    });
    expect(run.result.finalReport?.content_json).toBeUndefined();
    expect(run.result.error).toMatch(
      /^the final report was invalid on every attempt; the last one \(final_report_json_invalid\): /,
    );
    // Kept for the caller, but never announced or emitted as the session's report.
    expect(run.rhythm).toEqual(['turn_started', 'turn_started', 'turn_started', 'op_tree']);
  });

  test('across turns the latest attempt is the one kept (a native call with broken arguments)', async () => {
    const xml = { text: xmlReport('not json', 'status="success" format="json"') };
    const broken = {
      toolCalls: [{ name: 'agent__final_report', arguments: '{"status": "success", "content_json": {' }],
    };
    const run = await runScenario({
      maxTurns: 2,
      maxRetries: 2,
      output: { format: 'json' },
      scripts: [[xml, xml, xml, broken]],
    });
    expect(run.result.exitCode).toBe('EXIT-INVALID-FINAL-REPORT');
    expect(run.result.finalReport).toMatchObject({
      origin: 'rejected',
      status: 'failure',
      content: '{"status": "success", "content_json": {',
      rejection: { slug: 'final_report_arguments_invalid' },
    });
  });
});
