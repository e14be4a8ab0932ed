import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountingEntry, AgentResult, FinalReport } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { describeEnding, printableReport } from '../../src/commands/run-ending.js';
import { AccountingFile } from '../../src/output/accounting-file.js';

const common = { conversation: [], logs: [], accounting: [], sessionId: 's' };
const base: AgentResult = { ...common, success: false, exitCode: 'EXIT-AUTH-FAILURE', error: '' };
const report: FinalReport = { status: 'success', format: 'text', content: 'done', ts: 1 };
const succeeded: AgentResult = {
  ...common,
  success: true,
  exitCode: 'EXIT-FINAL-ANSWER',
  finalReport: report,
};

describe('describeEnding', () => {
  it('says nothing for exit 0', () => {
    expect(describeEnding(succeeded, 0)).toBeUndefined();
  });

  it('gives one line with the marker, the reason and the code', () => {
    expect(describeEnding({ ...base, error: 'invalid x-api-key' }, 4)).toBe(
      'agent: EXIT-AUTH-FAILURE: invalid x-api-key (exit 4)',
    );
    expect(describeEnding(succeeded, 6)).toBe('agent: EXIT-FINAL-ANSWER: every tool call failed (exit 6)');
  });

  it('names a model-declared failure', () => {
    const result: AgentResult = {
      ...succeeded,
      finalReport: { status: 'partial', format: 'text', content: 'half', ts: 1 },
    };
    expect(describeEnding(result, 1)).toBe("agent: the agent reported status 'partial' (exit 1)");
  });

  it('names a tripped guardrail, its stage and phase (and tool call) and its reason, on one line', () => {
    const tripped: AgentResult = {
      ...base,
      exitCode: 'EXIT-GUARDRAIL',
      error: 'guardrail pii blocked the tool call fs__Read: matched email\nsecond line',
      guardrail: {
        name: 'pii',
        on: 'tool',
        phase: 'result',
        reason: 'matched email\nx',
        tool: 'fs__Read',
        callId: 'c1',
      },
    };
    expect(describeEnding(tripped, 12)).toBe(
      'agent: EXIT-GUARDRAIL: guardrail pii blocked the run on tool (result fs__Read c1): matched email\\nx (exit 12)',
    );
    const input: AgentResult = {
      ...base,
      exitCode: 'EXIT-GUARDRAIL',
      error: 'guardrail short blocked the input: longer than 20 characters',
      guardrail: { name: 'short', on: 'input', phase: 'prompt', reason: 'longer than 20 characters' },
    };
    expect(describeEnding(input, 12)).toBe(
      'agent: EXIT-GUARDRAIL: guardrail short blocked the run on input (prompt): longer than 20 characters (exit 12)',
    );
  });

  it('prints no report of a run a guardrail stopped', () => {
    const stopped: AgentResult = {
      ...base,
      exitCode: 'EXIT-GUARDRAIL',
      error: 'guardrail g blocked the report: r',
      finalReport: report,
      guardrail: { name: 'g', on: 'output', phase: 'report', reason: 'r' },
    };
    expect(printableReport(stopped)).toBeUndefined();
    expect(printableReport(succeeded)).toBe(report);
  });

  it('keeps located problems at the start of their lines', () => {
    const result: AgentResult = {
      ...base,
      exitCode: 'EXIT-CONFIGURATION',
      error: 'dir/a.ai:3: unknown key `x`\ndir/a.ai:4: bad value',
    };
    expect(describeEnding(result, 7)).toBe(
      'dir/a.ai:3: unknown key `x`\ndir/a.ai:4: bad value\nagent: EXIT-CONFIGURATION (exit 7)',
    );
  });
});

describe('AccountingFile', () => {
  it('appends one JSON line per entry, adding the agent path when the entry has none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-cli-acc-'));
    const path = join(dir, 'usage.jsonl');
    const errors: string[] = [];
    const file = new AccountingFile(path, (message) => errors.push(message));
    const entry: AccountingEntry = {
      type: 'llm',
      timestamp: 1,
      status: 'ok',
      latency: 2,
      provider: 'p',
      model: 'm',
      tokens: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
    };
    file.append(entry, 'main');
    file.append({ ...entry, agentPath: 'main.child' }, 'ignored');
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
    file.close();
    file.append(entry);
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AccountingEntry);
    expect(lines.map((line) => line.agentPath)).toEqual(['main', 'main.child']);
    expect(errors).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('throws when the file cannot be opened', () => {
    expect(() => new AccountingFile(join(tmpdir(), 'no-such-dir-xyz', 'a.jsonl'), () => {})).toThrow();
  });
});
