import { describe, expect, test } from 'vitest';
import { runScenario, TAG, xmlReport } from '../helpers/scenario.js';

describe('a payload that would break the FINAL tag (seed 000: encoding base64)', () => {
  // A report about this very transport: its text holds the closing tag itself.
  const text = `To end a report, write </${TAG}> after it.`;

  test('the XML-NEXT notice tells the model to send it base64 with encoding="base64"', async () => {
    const run = await runScenario({ scripts: [[{ text: xmlReport('ok') }]] });
    const notice = run.models[0]!.requests[0]!.messages.at(-1)!.content;
    expect(notice).toContain('If it contains the closing tag, send it base64 with encoding="base64".');
  });

  test('a report sent that way commits decoded, whole, and its output is the decoded text', async () => {
    const encoded = Buffer.from(text, 'utf8').toString('base64');
    const run = await runScenario({
      scripts: [[{ text: xmlReport(encoded, 'status="success" format="markdown" encoding="base64"') }]],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content).toBe(text);
    // The encoded body is not streamed as if it were the report: the decoded text goes out once.
    expect(run.outputText('stream')).toBe('');
    expect(run.outputText('finalize')).toBe(text);
  });
});
