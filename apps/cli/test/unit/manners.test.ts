import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEventMeta, AgentResult, LogEntry } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { assertAgentFileExists } from '../../src/agent-file-check.js';
import { CliError } from '../../src/cli-error.js';
import {
  ADOPTED_TEXT_NOTICE,
  adoptionNotice,
  describeEnding,
  printableReport,
} from '../../src/commands/run-ending.js';
import { CLI_EXIT, signalExitCode } from '../../src/exit-codes.js';
import { helpEpilogue } from '../../src/help.js';
import { COMPACT_MESSAGE_MAX, formatCompactLog, showsWithoutVerbose } from '../../src/output/compact-log.js';

const master: AgentEventMeta = { isMaster: true, isFinal: false, sessionId: 's', agentPath: 'ask' };
const child: AgentEventMeta = { isMaster: false, isFinal: false, sessionId: 'c', agentPath: 'ask.sub' };

function entry(severity: LogEntry['severity'], remoteIdentifier: string, message: string): LogEntry {
  return {
    timestamp: 0,
    severity,
    direction: 'response',
    type: 'tool',
    remoteIdentifier,
    message,
    agentPath: 'ask',
  };
}

describe('compact log lines (no --verbose)', () => {
  it('shows warnings and errors, not verbose lines, nor the top agent’s exit marker', () => {
    expect(showsWithoutVerbose(entry('WRN', 'mcp:fs', 'x'), master)).toBe(true);
    expect(showsWithoutVerbose(entry('ERR', 'mcp:fs', 'x'), master)).toBe(true);
    for (const severity of ['VRB', 'TRC', 'THK', 'FIN'] as const)
      expect(showsWithoutVerbose(entry(severity, 'mcp:fs', 'x'), master)).toBe(false);
    expect(showsWithoutVerbose(entry('ERR', 'agent:EXIT-NO-LLM-RESPONSE', 'x'), master)).toBe(false);
    // A sub-agent that failed is news: the closing line speaks of the top agent only.
    expect(showsWithoutVerbose(entry('ERR', 'agent:EXIT-NO-LLM-RESPONSE', 'x'), child)).toBe(true);
  });

  it('is one line: severity, agent, remote, message; control characters escaped; long messages cut', () => {
    expect(formatCompactLog(entry('WRN', 'mcp:broken', 'MCP server "broken" was not started'))).toBe(
      'WRN [ask] mcp:broken: MCP server "broken" was not started',
    );
    expect(formatCompactLog(entry('ERR', 'test:m', 'a\nb \x1b[31mred\x9b'))).toBe(
      'ERR [ask] test:m: a\\nb \\u001b[31mred\\u009b',
    );
    const long = formatCompactLog(entry('WRN', 'test:m', 'x'.repeat(COMPACT_MESSAGE_MAX + 100)));
    expect(long).toContain('... (100 more characters; --verbose shows all)');
    expect(long.length).toBeLessThan(COMPACT_MESSAGE_MAX + 100);
    // A surrogate pair at the cut stays whole (or goes whole).
    const emoji = formatCompactLog(entry('WRN', 't', `${'x'.repeat(COMPACT_MESSAGE_MAX - 1)}😀tail`));
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

const failed: AgentResult = {
  success: false,
  exitCode: 'EXIT-NO-LLM-RESPONSE',
  error: 'no model answered on the final turn after 3 attempts: test/m: connect ECONNREFUSED 127.0.0.1:8799',
  finalReport: {
    status: 'failure',
    format: 'markdown',
    content: 'made up',
    ts: 1,
    synthetic: true,
    origin: 'synthetic',
  },
  conversation: [],
  logs: [],
  accounting: [],
  sessionId: 's',
};

describe('endings', () => {
  it('prints no synthetic report, and prints declared and adopted ones', () => {
    expect(printableReport(failed)).toBeUndefined();
    expect(
      printableReport({ ...failed, finalReport: { ...failed.finalReport!, synthetic: undefined } }),
    ).toBeUndefined();
    const adopted = {
      status: 'success',
      format: 'text',
      content: 'words',
      ts: 1,
      origin: 'adopted-text',
    } as const;
    expect(printableReport({ ...failed, finalReport: adopted })).toEqual(adopted);
    const rejected = {
      status: 'failure',
      format: 'json',
      content: '{"count": "three"}',
      ts: 1,
      origin: 'rejected',
      rejection: {
        slug: 'final_report_schema_mismatch',
        reason: 'no',
        diagnostics: ['/count: must be integer'],
      },
    } as const;
    expect(printableReport({ ...failed, exitCode: 'EXIT-INVALID-FINAL-REPORT', finalReport: rejected })).toBe(
      undefined,
    );
    expect(ADOPTED_TEXT_NOTICE).toBe(
      "agent: report adopted from the model's text; the model declared no status",
    );
    expect(adoptionNotice(adopted)).toBe(ADOPTED_TEXT_NOTICE);
  });

  it('says when the report is a tool result the final turn adopted, and prints it', () => {
    const adopted = {
      status: 'success',
      format: 'markdown',
      content: 'Paris is the capital of France.',
      ts: 1,
      origin: 'adopted-tool-message',
    } as const;
    expect(printableReport({ ...failed, finalReport: adopted })).toEqual(adopted);
    expect(adoptionNotice(adopted)).toBe(
      'agent: report adopted from the last tool result; the model sent no report',
    );
    expect(adoptionNotice({ ...adopted, origin: 'declared' })).toBeUndefined();
  });

  it('closes with the error of the result, escaped, and the exit code', () => {
    expect(describeEnding(failed, 3)).toBe(
      'agent: EXIT-NO-LLM-RESPONSE: no model answered on the final turn after 3 attempts: test/m: connect ECONNREFUSED 127.0.0.1:8799 (exit 3)',
    );
    expect(describeEnding({ ...failed, error: 'bad \x1b[2Jthing' }, 3)).toBe(
      'agent: EXIT-NO-LLM-RESPONSE: bad \\u001b[2Jthing (exit 3)',
    );
  });

  it('exits 130 for SIGINT and 143 for SIGTERM, and says so', () => {
    expect(signalExitCode('SIGINT')).toBe(130);
    expect(signalExitCode('SIGTERM')).toBe(143);
    const aborted: AgentResult = { ...failed, exitCode: 'EXIT-ABORTED', error: 'cancelled by SIGTERM' };
    expect(describeEnding(aborted, CLI_EXIT.terminated)).toBe(
      'agent: EXIT-ABORTED: cancelled by SIGTERM (exit 143)',
    );
    const { error: _error, inputRejected: _rejected, ...rest } = failed;
    const partial: AgentResult = {
      ...rest,
      success: true,
      exitCode: 'EXIT-FINAL-ANSWER',
      finalReport: { status: 'partial', format: 'text', content: 'half', ts: 1, origin: 'declared' },
    };
    expect(describeEnding(partial, CLI_EXIT.interrupted)).toBe(
      "agent: interrupted; the agent reported status 'partial' (exit 130)",
    );
  });

  it('lists every exit code in --help', () => {
    const help = helpEpilogue();
    for (const code of Object.values(CLI_EXIT)) expect(help).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
  });
});

describe('a missing agent file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-cli-missing-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of ['ask.ai', 'summarize.ai', 'notes.txt']) writeFileSync(join(dir, name), '');

  async function message(file: string, cwd = dir): Promise<string> {
    try {
      await assertAgentFileExists(file, cwd);
    } catch (error) {
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(CLI_EXIT.configuration);
      return (error as Error).message;
    }
    return 'exists';
  }

  it('names the closest .ai file, written the way the path was', async () => {
    expect(await message('aks.ai')).toBe('no such file: aks.ai; did you mean ask.ai?');
    expect(await message('./summarise.ai')).toBe(
      'no such file: ./summarise.ai; did you mean ./summarize.ai?',
    );
    expect(await message(join(dir, 'ASK.ai'), '/')).toBe(
      `no such file: ${join(dir, 'ASK.ai')}; did you mean ${dir}/ask.ai?`,
    );
  });

  it('lists the .ai files when none is close, and says nothing more where there are none', async () => {
    expect(await message('zzzzzzzzzz.ai')).toBe(
      'no such file: zzzzzzzzzz.ai; the .ai files in .: ask.ai, summarize.ai',
    );
    expect(await message('nowhere/ask.ai')).toBe('no such file: nowhere/ask.ai');
    expect(await message('ask.ai')).toBe('exists');
  });
});
