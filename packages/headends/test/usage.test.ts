import type { AccountingEntry } from '@agent/protocol';
import { expect, test } from 'vitest';
import { usageTotals } from '../src/usage.js';

const tool = (command: string, extra: Partial<AccountingEntry> = {}): AccountingEntry =>
  ({
    type: 'tool',
    timestamp: 1,
    status: 'ok',
    latency: 0,
    mcpServer: 'agent',
    command,
    charactersIn: 1,
    charactersOut: 1,
    ...extra,
  }) as AccountingEntry;

test('usage.toolCalls counts tool calls, not the committed report (native, XML or report_back)', () => {
  const accounting = [
    tool('rest__time', { mcpServer: 'time', callId: 'c1' }),
    tool('agent__final_report_xml', { source: 'xml', report: true }),
    tool('agent__final_report', { source: 'native', report: true }),
    // A failed call that only bears a report's name is still a call.
    tool('agent__final_report_xml', { status: 'failed', callId: 'c2', error: 'unknown_tool' }),
  ];
  expect(usageTotals({ accounting }).toolCalls).toBe(2);
});
