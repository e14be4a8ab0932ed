import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_SNAPSHOT_BYTES, openSqliteSessionStore } from '@agent/cache';
import type { SessionStore } from '@agent/protocol';
import { afterEach, expect, test } from 'vitest';
import { defineAgent, resume, run } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';
import { agentOn, NONCE, STEPS, serve, servers } from './five-turns.js';

// Issue 16, the 32 MiB snapshot cap, from a session's side: the store (a real SQLite file)
// refuses a checkpoint over the cap with a clear error, the session logs it and goes on, and
// the store keeps the earlier checkpoint, from which the session resumes. The big part is a
// tool's structured output, which the op tree keeps (and the model never sees).
const dirs: string[] = [];
const stores: SessionStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

test('a checkpoint over 32 MiB is refused and logged; the session goes on, and the store keeps the earlier one, which resumes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'core-snapshot-cap-'));
  dirs.push(dir);
  const store = await openSqliteSessionStore({ path: join(dir, 'sessions.sqlite'), ttlMs: 60_000 });
  stores.push(store);
  // Turn 1 looks up the weather; turn 2 calls `survey`, whose structured output is over the cap.
  const steps = [
    STEPS[0]!,
    { text: 'Surveying.', toolCalls: [{ id: 'call_s', name: 'survey', arguments: {} }] },
    STEPS[4]!,
  ];
  const survey = memoryTools('survey', {
    survey: () => ({ ok: true, text: 'survey stored', structured: { blob: 'x'.repeat(MAX_SNAPSHOT_BYTES) } }),
  });
  const agentOf = (server: Parameters<typeof agentOn>[0]) => {
    const base = agentOn(server);
    return defineAgent({ ...base, tools: [...(base.tools ?? []), survey] });
  };
  const saved: number[] = [];
  const whole = await run(agentOf(await serve(steps)), 'Weather in Athens, then a survey.', {
    internal: { nonce: NONCE },
    sessionId: 'capped-1',
    onCheckpoint: async (snapshot) => {
      await store.save(snapshot);
      saved.push(snapshot.turn);
    },
  });
  expect(whole.success, whole.error).toBe(true);
  expect(whole.finalReport?.content).toBe('Four cities looked up.');
  // Turn 1's checkpoint was stored; turn 2's and the finished one were too big.
  expect(saved).toEqual([1]);
  const refusals = whole.logs.filter((l) => l.remoteIdentifier === 'agent:checkpoint');
  expect(refusals).toHaveLength(2);
  expect(refusals[0]!.severity).toBe('WRN');
  expect(refusals[0]!.message).toMatch(
    new RegExp(
      `the snapshot of session capped-1 is \\d+ bytes, over the ${MAX_SNAPSHOT_BYTES}-byte bound; it was not stored \\(the earlier one is kept\\)`,
    ),
  );
  const kept = await store.load('capped-1');
  expect(kept?.turn).toBe(1);
  expect(kept?.status).toBe('running');

  // The earlier checkpoint resumes: turn 2 runs again from its model call.
  const again = await serve(steps.slice(1));
  const resumed = await resume(agentOf(again), kept!);
  expect(resumed.success, resumed.error).toBe(true);
  expect(again.requests).toHaveLength(2);
});
