// What the CLI prints when report attempts are refused: only a committed report reaches stdout.
import type { AgentResult } from '@agent/protocol';
import { finalReport, streamedFinalReport } from '@agent/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { handWrittenSlot, removeWorkspaces, report, type Step, scriptedAgent } from './helpers.js';

afterAll(removeWorkspaces);

const usage = { inputTokens: 10, outputTokens: 5 };
const COUNT_SCHEMA = JSON.stringify({
  type: 'object',
  required: ['count'],
  properties: { count: { type: 'integer' } },
});

describe('agent run: refused report attempts', () => {
  it('retries a report with an unknown status; a failure report is printed and exits 1', async () => {
    const unknownStatus: Step = (_request, nonce) => ({
      text: handWrittenSlot(nonce(), 'Looks done to me.', 'done'),
      usage,
    });
    const { run, file, server } = await scriptedAgent([
      unknownStatus,
      report('The data is not there.', { status: 'failure' }),
    ]);
    const result = await run(['run', file, 'Find the data']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('The data is not there.\n');
    expect(result.stderr).toMatch(/WRN .*final report rejected \(final_report_status_invalid\)/);
    expect(result.stderr).toMatch(/reported status 'failure' \(exit 1\)/);
    expect(server.requests).toHaveLength(2);
  });

  it('exits 11 and prints the last parsed report when every attempt misses the schema', async () => {
    const invalid: Step = () => finalReport('{"count": "three"}', { format: 'json', answer: { usage } });
    const { run, file, ws } = await scriptedAgent([invalid, invalid, invalid, invalid, invalid, invalid]);
    const schema = ws.write('schema.json', COUNT_SCHEMA);
    const args = ['run', file, 'Count', '--format', 'json', '--schema', schema, '--max-turns', '1'];
    const plain = await run(args);
    expect(plain.code, plain.stderr).toBe(11);
    expect(JSON.parse(plain.stdout)).toEqual({ count: 'three' });
    expect(plain.stderr).toMatch(
      /agent: EXIT-FINAL-REPORT-SCHEMA-MISMATCH: the report does not match the output schema: \/count: must be integer \(exit 11\)/,
    );
    const json = await run([...args, '--json']);
    expect(json.code).toBe(11);
    const parsed = JSON.parse(json.stdout) as AgentResult;
    expect(parsed.success).toBe(false);
    expect(parsed.exitCode).toBe('EXIT-FINAL-REPORT-SCHEMA-MISMATCH');
    expect(parsed.finalReport).toMatchObject({
      status: 'success',
      origin: 'declared',
      content_json: { count: 'three' },
      validationErrors: [{ instancePath: '/count', message: 'must be integer' }],
    });
  });

  it('exits 3 with nothing on stdout when no attempt parsed as JSON; --json keeps the last one', async () => {
    const invalid: Step = () => finalReport('three, I think', { format: 'json', answer: { usage } });
    const { run, file, ws } = await scriptedAgent([invalid, invalid, invalid, invalid, invalid, invalid]);
    const schema = ws.write('schema.json', COUNT_SCHEMA);
    const args = ['run', file, 'Count', '--format', 'json', '--schema', schema, '--max-turns', '1'];
    const plain = await run(args);
    expect(plain.code, plain.stderr).toBe(3);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(
      /agent: EXIT-INVALID-FINAL-REPORT: the final report was invalid on every attempt; the last one \(final_report_json_invalid\): .* \(exit 3\)/,
    );
    const json = await run([...args, '--json']);
    expect(json.code).toBe(3);
    const parsed = JSON.parse(json.stdout) as AgentResult;
    expect(parsed.success).toBe(false);
    expect(parsed.finalReport).toMatchObject({
      status: 'failure',
      origin: 'rejected',
      content: 'three, I think',
      rejection: { slug: 'final_report_json_invalid' },
    });
  });

  it('prints only the committed report when an earlier answer broke off mid-report', async () => {
    const { run, file } = await scriptedAgent([
      () =>
        streamedFinalReport(['The answer is 4'], {
          unclosed: true,
          answer: { error: { kind: 'server', message: 'upstream reset', midStream: true } },
        }),
      report('The answer is 42.'),
    ]);
    const result = await run(['run', file, 'What is the answer?']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('The answer is 42.\n');
  });
});
