import type { SessionSnapshot } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { settingsHash } from '../../src/checkpoint/settings-hash.js';
import { runScenario, xmlReport } from '../helpers/scenario.js';
import { fetchTool, isSummaryCall, longSession, memoryStore } from './compaction-helpers.js';

describe('a compacted session resumed', () => {
  test('a snapshot taken after a compaction, resumed, sends the same next request', async () => {
    const snapshots: SessionSnapshot[] = [];
    const original = await runScenario({
      contextWindow: 6000,
      maxTurns: 40,
      compaction: true,
      toolOutput: memoryStore().factory,
      tools: [fetchTool(400)],
      scripts: [longSession(12).steps],
      onCheckpoint: (snapshot) => void snapshots.push(structuredClone(snapshot)),
    });
    expect(original.result.success).toBe(true);
    const snapshot = snapshots.find((s) => s.loop.compaction?.summarized === true)!;
    expect(snapshot.loop.compaction).toMatchObject({
      head: 1,
      count: 1,
      exhausted: false,
      ranges: [expect.anything()],
    });
    // The transcript travels with the snapshot, under its handle.
    const handle = snapshot.loop.compaction!.ranges[0]!.handle;
    expect(snapshot.toolOutputs?.map((o) => o.handle)).toContain(handle);
    const turnRequests = original.models[0]!.requests.filter((r) => !isSummaryCall(r));
    const next = turnRequests[snapshot.turn]!;

    const resumed = await runScenario({
      contextWindow: 6000,
      maxTurns: 40,
      compaction: true,
      toolOutput: memoryStore().factory,
      tools: [fetchTool(400)],
      resumeFrom: snapshot,
      scripts: [[{ text: xmlReport('resumed report') }]],
    });
    expect(resumed.result.finalReport?.content).toBe('resumed report');
    const first = resumed.models[0]!.requests[0]!;
    expect(JSON.stringify(first.messages)).toBe(JSON.stringify(next.messages));
    expect(first.tools.map((t) => t.name)).toEqual(next.tools.map((t) => t.name));
  });

  test('a snapshot of a session that compacts does not resume without compaction', async () => {
    const snapshots: SessionSnapshot[] = [];
    await runScenario({
      compaction: true,
      toolOutput: memoryStore().factory,
      scripts: [[{ text: xmlReport('done') }]],
      onCheckpoint: (snapshot) => void snapshots.push(snapshot),
    });
    const resumed = await runScenario({
      toolOutput: memoryStore().factory,
      resumeFrom: { ...snapshots[0]!, status: 'running' } as SessionSnapshot,
      scripts: [[{ text: xmlReport('done') }]],
    });
    expect(resumed.result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(resumed.result.error).toContain('other agent settings');
  });
});

describe('settings hash', () => {
  const base = {
    agent: 'main',
    instructions: 'Be brief.',
    expected: { format: 'markdown' as const },
    reportBack: false,
    internalTools: true,
    maxTurns: 10,
    maxRetries: 3,
    targets: [],
    tools: [{ name: 'fetch', description: 'f', inputSchema: { type: 'object' } }],
  };

  test('a session without compaction hashes as before compaction existed', () => {
    // Pinned: the hash these settings had before the compaction setting was added.
    expect(settingsHash(base)).toBe(settingsHash({ ...base, compaction: undefined }));
    expect(settingsHash(base)).toBe(PINNED);
  });

  test('compaction on, and each of its settings, change the hash', () => {
    const on = settingsHash({ ...base, compaction: { at: 0.8, keep: 2, attempts: 2, tokens: 2048 } });
    expect(on).not.toBe(settingsHash(base));
    expect(settingsHash({ ...base, compaction: { at: 0.7, keep: 2, attempts: 2, tokens: 2048 } })).not.toBe(
      on,
    );
  });
});

const PINNED = 'sha256:fa84b6aceb60fef5';
