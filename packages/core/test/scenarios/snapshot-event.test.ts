import { SESSION_SNAPSHOT_VERSION, type SessionSnapshot } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, xmlReport } from '../helpers/scenario.js';

// Seed 002, AIAgentEvent: `snapshot` – session snapshot payload (`payload: SessionSnapshotPayload`).
describe('the snapshot event', () => {
  const tools = () => memoryTools('kb', { lookup: () => 'Paris' });
  const script = [
    { text: 'Looking it up.', toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
    { text: xmlReport('Paris.') },
  ];

  test('each checkpoint goes out as a snapshot event carrying the snapshot the store got', async () => {
    const stored: SessionSnapshot[] = [];
    const run = await runScenario({
      sessionId: 'sess-snap',
      tools: [tools()],
      onCheckpoint: (snapshot) => void stored.push(snapshot),
      scripts: [script],
    });
    expect(run.result.success).toBe(true);
    const events = run.events.filter((e) => e.event.type === 'snapshot');
    expect(events.map((e) => (e.event as { payload: SessionSnapshot }).payload)).toEqual(stored);
    expect(stored.map((s) => s.status)).toEqual(['running', 'finished']);
    const finished = (events.at(-1)!.event as { payload: SessionSnapshot }).payload;
    // What the seed's payload names: the session, when, a version and the operation tree.
    expect(finished).toMatchObject({
      sessionId: 'sess-snap',
      version: SESSION_SNAPSHOT_VERSION,
      status: 'finished',
      turn: 2,
      exitCode: 'EXIT-FINAL-ANSWER',
      finalReport: { content: 'Paris.' },
      opTree: { kind: 'session', sessionId: 'sess-snap' },
    });
    expect(typeof finished.takenAt).toBe('number');
    expect(events.every((e) => e.meta.isMaster && e.meta.sessionId === 'sess-snap')).toBe(true);
    // The running one goes out at the turn boundary, before the next turn starts.
    const snapshotAt = run.rhythm.indexOf('snapshot');
    expect(run.rhythm.slice(snapshotAt, snapshotAt + 2)).toEqual(['snapshot', 'turn_started']);
  });

  test('a session that pauses for approval sends the snapshot it returns to resume from', async () => {
    const run = await runScenario({
      tools: [tools()],
      approval: { tools: ['lookup'] },
      scripts: [script],
    });
    expect(run.result.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    const events = run.events.filter((e) => e.event.type === 'snapshot');
    expect(events).toHaveLength(1);
    const payload = (events[0]!.event as { payload: SessionSnapshot }).payload;
    expect(payload).toEqual('snapshot' in run.result ? run.result.snapshot : 'no snapshot in the result');
    expect(payload).toMatchObject({
      status: 'awaiting_approval',
      pending: [{ callId: 'c1', tool: 'lookup' }],
    });
  });

  test('a session that neither checkpoints nor pauses builds no snapshot and sends none', async () => {
    const run = await runScenario({ tools: [tools()], scripts: [script] });
    expect(run.result.success).toBe(true);
    expect(run.rhythm).not.toContain('snapshot');
  });
});
