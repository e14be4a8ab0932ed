import type { AccountingEntry, AgentEvent, LogEntry } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { OpTreeBuilder } from '../../src/observe/op-tree.js';
import { SessionRecorder } from '../../src/observe/recorder.js';

const base = { isMaster: true, sessionId: 's-1', agentPath: 'main' };

function toolEntry(n: number): AccountingEntry {
  return {
    type: 'tool',
    timestamp: 1_764_000_000_000 + n,
    status: 'ok',
    latency: n,
    mcpServer: 'local',
    command: `tool-${n}`,
    callId: `c${n}`,
    charactersIn: n,
    charactersOut: 2 * n,
    agentPath: 'main',
  };
}

describe('the lists a session holds (grown by exact copies while short, pushed onto once long)', () => {
  test('every log line and accounting entry is kept in order with its timestamp, across the switch', () => {
    let clock = 1_764_000_000_000;
    const events: AgentEvent[] = [];
    const recorder = new SessionRecorder(
      (event) => events.push(event),
      base,
      () => clock++,
    );
    recorder.restoreAccounting([toolEntry(0)]);
    for (let n = 1; n <= 40; n++) {
      recorder.turn = n;
      recorder.line('VRB', 'request', 'tool', `local:tool-${n}`, `call ${n}`);
      recorder.account(toolEntry(n));
    }
    expect(recorder.logs).toEqual(
      Array.from(
        { length: 40 },
        (_, i): LogEntry => ({
          timestamp: 1_764_000_000_000 + i,
          turn: i + 1,
          agentPath: 'main',
          severity: 'VRB',
          direction: 'request',
          type: 'tool',
          remoteIdentifier: `local:tool-${i + 1}`,
          message: `call ${i + 1}`,
        }),
      ),
    );
    expect(recorder.accounting).toEqual(Array.from({ length: 41 }, (_, i) => toolEntry(i)));
    // Each line and entry was announced once, the same object the result keeps.
    expect(events.filter((e) => e.type === 'log').map((e) => (e as { entry: LogEntry }).entry)).toEqual(
      recorder.logs,
    );
    expect(events.filter((e) => e.type === 'accounting')).toHaveLength(40);
  });

  test('an op node keeps every child it was given, in order', () => {
    const tree = new OpTreeBuilder('s-1', 'main', () => 5);
    const turns = Array.from({ length: 20 }, (_, i) => tree.begin(tree.root, 'turn', `turn ${i + 1}`));
    for (const [i, turn] of turns.entries()) tree.begin(turn, 'llm', `call ${i + 1}`);
    expect(tree.root.children.map((node) => node.label)).toEqual(turns.map((_, i) => `turn ${i + 1}`));
    expect(tree.root.children.map((node) => node.children.map((child) => child.id))).toEqual(
      turns.map((_, i) => [`op-${i + 21}`]),
    );
  });
});
