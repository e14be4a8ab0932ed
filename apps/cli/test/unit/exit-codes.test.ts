import type { AccountingEntry, AgentResult, ExitCode, FinalReport } from '@agent/protocol';
import { EXIT_CODES } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { CLI_EXIT, EXIT_CODE_TABLE, exitCodeForResult } from '../../src/exit-codes.js';

function result(
  exitCode: ExitCode,
  report?: Partial<FinalReport>,
  accounting: AccountingEntry[] = [],
): AgentResult {
  return {
    success: exitCode === 'EXIT-FINAL-ANSWER',
    ...(exitCode === 'EXIT-FINAL-ANSWER' ? {} : { error: exitCode }),
    exitCode,
    ...(report === undefined ? {} : { finalReport: { status: 'success', format: 'text', ts: 1, ...report } }),
    conversation: [],
    logs: [],
    accounting,
    sessionId: 's',
  } as AgentResult;
}

function tool(status: 'ok' | 'failed', mcpServer = 'fs', agentPath = 'main'): AccountingEntry {
  return {
    type: 'tool',
    timestamp: 1,
    status,
    latency: 1,
    mcpServer,
    command: 'Read',
    charactersIn: 2,
    charactersOut: 0,
    agentPath,
  };
}

describe('exit codes', () => {
  it('maps every protocol exit code', () => {
    for (const code of EXIT_CODES) expect(EXIT_CODE_TABLE[code]).toBeTypeOf('number');
    expect(EXIT_CODE_TABLE['EXIT-AUTH-FAILURE']).toBe(4);
    expect(EXIT_CODE_TABLE['EXIT-QUOTA-EXCEEDED']).toBe(5);
    expect(EXIT_CODE_TABLE['EXIT-CONFIGURATION']).toBe(7);
    expect(EXIT_CODE_TABLE['EXIT-ABORTED']).toBe(8);
  });

  it('is 0 only for a committed success report', () => {
    expect(exitCodeForResult(result('EXIT-FINAL-ANSWER', { status: 'success' }))).toBe(CLI_EXIT.success);
    expect(exitCodeForResult(result('EXIT-FINAL-ANSWER', { status: 'failure' }))).toBe(
      CLI_EXIT.failureReport,
    );
    expect(exitCodeForResult(result('EXIT-FINAL-ANSWER', { status: 'partial' }))).toBe(
      CLI_EXIT.failureReport,
    );
  });

  it('gives 3 for limits and missing responses even with a synthetic report', () => {
    const synthetic = { status: 'failure' as const, synthetic: true };
    expect(exitCodeForResult(result('EXIT-MAX-TURNS-NO-RESPONSE', synthetic))).toBe(CLI_EXIT.noReport);
    expect(exitCodeForResult(result('EXIT-TOKEN-LIMIT'))).toBe(CLI_EXIT.noReport);
    expect(exitCodeForResult(result('EXIT-INVALID-FINAL-REPORT'))).toBe(CLI_EXIT.noReport);
  });

  it('gives 11 for a report that missed the output schema, whatever the tools did', () => {
    const mismatched = {
      status: 'success' as const,
      validationErrors: [{ instancePath: '/a', message: 'x' }],
    };
    expect(exitCodeForResult(result('EXIT-FINAL-REPORT-SCHEMA-MISMATCH', mismatched, [tool('failed')]))).toBe(
      11,
    );
  });

  it('keeps auth, quota, configuration and cancellation whatever the tools did', () => {
    const failedTools = [tool('failed')];
    expect(exitCodeForResult(result('EXIT-AUTH-FAILURE', undefined, failedTools))).toBe(4);
    expect(exitCodeForResult(result('EXIT-QUOTA-EXCEEDED', undefined, failedTools))).toBe(5);
    expect(exitCodeForResult(result('EXIT-MODEL-ERROR'))).toBe(7);
    expect(exitCodeForResult(result('EXIT-USER-STOP'))).toBe(8);
    expect(exitCodeForResult(result('EXIT-UNCAUGHT-EXCEPTION'))).toBe(9);
  });

  it('gives 6 when the run did not succeed and every external tool call failed', () => {
    expect(exitCodeForResult(result('EXIT-FINAL-ANSWER', { status: 'failure' }, [tool('failed')]))).toBe(6);
    expect(
      exitCodeForResult(result('EXIT-MAX-TURNS-NO-RESPONSE', undefined, [tool('failed'), tool('failed')])),
    ).toBe(6);
    // One tool worked: the tools are not to blame.
    expect(
      exitCodeForResult(result('EXIT-FINAL-ANSWER', { status: 'failure' }, [tool('failed'), tool('ok')])),
    ).toBe(1);
    // Internal tools and sub-agents' own calls do not count.
    expect(
      exitCodeForResult(result('EXIT-FINAL-ANSWER', { status: 'failure' }, [tool('failed', 'agent')])),
    ).toBe(1);
    expect(
      exitCodeForResult(
        result('EXIT-FINAL-ANSWER', { status: 'failure' }, [tool('failed', 'fs', 'main.child')]),
      ),
    ).toBe(1);
    // A success report wins over failed tools.
    expect(exitCodeForResult(result('EXIT-FINAL-ANSWER', { status: 'success' }, [tool('failed')]))).toBe(0);
  });
});
