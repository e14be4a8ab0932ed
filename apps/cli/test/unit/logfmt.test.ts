import type { LogEntry } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { formatLogEntry, logfmtKey, logfmtLine, logfmtValue } from '../../src/output/logfmt.js';

describe('logfmt values', () => {
  it('leaves simple values bare', () => {
    expect(logfmtValue('openai:gpt-4o')).toBe('openai:gpt-4o');
    expect(logfmtValue(42)).toBe('42');
    expect(logfmtValue(true)).toBe('true');
  });

  it('quotes spaces, equals signs, quotes and empty strings', () => {
    expect(logfmtValue('two words')).toBe('"two words"');
    expect(logfmtValue('a=b')).toBe('"a=b"');
    expect(logfmtValue('say "hi"')).toBe('"say \\"hi\\""');
    expect(logfmtValue('')).toBe('""');
  });

  it('escapes backslashes, newlines and control characters, so no ANSI escape reaches the terminal', () => {
    expect(logfmtValue('C:\\dir')).toBe('"C:\\\\dir"');
    expect(logfmtValue('line 1\nline 2\ttab\r')).toBe('"line 1\\nline 2\\ttab\\r"');
    expect(logfmtValue('\x1b[31mred')).toBe('"\\u001b[31mred"');
  });

  it('cleans keys and drops undefined values', () => {
    expect(logfmtKey('my key=1')).toBe('my_key_1');
    expect(
      logfmtLine([
        ['a', 1],
        ['b', undefined],
        ['c', 'x y'],
      ]),
    ).toBe('a=1 c="x y"');
  });
});

describe('formatLogEntry', () => {
  it('prints the fixed fields first, then details', () => {
    const entry: LogEntry = {
      timestamp: Date.UTC(2025, 0, 2, 3, 4, 5, 6),
      severity: 'WRN',
      direction: 'response',
      type: 'llm',
      remoteIdentifier: 'openai:gpt-4o',
      message: 'rate limited, retrying in 2 s',
      turn: 2,
      agentPath: 'main',
      details: { status: 429, msg: 'shadowed' },
    };
    expect(formatLogEntry(entry)).toBe(
      'ts=2025-01-02T03:04:05.006Z sev=WRN type=llm dir=response remote=openai:gpt-4o turn=2 agent=main ' +
        'msg="rate limited, retrying in 2 s" status=429 detail.msg=shadowed',
    );
  });
});
