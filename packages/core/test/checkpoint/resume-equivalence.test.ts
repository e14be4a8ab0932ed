import type { SessionSnapshot } from '@agent/protocol';
import { afterEach, expect, test } from 'vitest';
import { resume, run } from '../../src/index.js';
import { agentOn, NONCE, STEPS, sent, serve, servers } from './five-turns.js';

// Issue 16: a session interrupted after turn k and resumed from its snapshot sends the model
// the same requests as one never interrupted, at every turn boundary of a 5-turn session.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

test('resuming after each of turns 1-4 sends exactly the requests of the uninterrupted session', async () => {
  const reference = await serve(STEPS);
  const snapshots: SessionSnapshot[] = [];
  const whole = await run(agentOn(reference), 'Weather in Athens, Rome, Oslo and Lima?', {
    internal: { nonce: NONCE },
    // Through JSON, as a store would keep it.
    onCheckpoint: (snapshot) => {
      snapshots.push(JSON.parse(JSON.stringify(snapshot)) as SessionSnapshot);
    },
  });
  expect(whole.success).toBe(true);
  expect(reference.requests).toHaveLength(5);
  expect(snapshots.map((s) => [s.status, s.turn])).toEqual([
    ['running', 1],
    ['running', 2],
    ['running', 3],
    ['running', 4],
    ['finished', 5],
  ]);
  // The estimator learned from the reported usage: the notices carry its correction.
  expect(snapshots[3]!.tokenCorrection).not.toBe(1);

  for (let k = 1; k <= 4; k++) {
    const server = await serve(STEPS.slice(k));
    const snapshot = snapshots[k - 1]!;
    const resumed = await resume(agentOn(server), snapshot);
    expect(resumed.success, `resumed after turn ${k}: ${resumed.error}`).toBe(true);
    expect(resumed.sessionId).toBe(whole.sessionId);
    expect(server.requests.map(sent)).toEqual(reference.requests.slice(k).map(sent));
    expect(resumed.finalReport?.content).toBe('Four cities looked up.');
    expect(resumed.conversation).toEqual(whole.conversation);
    // Accounting and the op tree go on from the snapshot: the same calls, the same turns.
    expect(resumed.accounting.map((e) => e.type)).toEqual(whole.accounting.map((e) => e.type));
    const turns = (r: typeof whole) =>
      r.opTree?.children.filter((n) => n.kind === 'turn').map((n) => n.label);
    expect(turns(resumed)).toEqual(turns(whole));
    expect(resumed.opTree?.totals.llmCalls).toBe(5);
  }
});

test('a snapshot of another agent, of a newer version or of a finished session is refused, saying why', async () => {
  const server = await serve(STEPS);
  const snapshots: SessionSnapshot[] = [];
  const agent = agentOn(server);
  await run(agent, 'Weather?', {
    internal: { nonce: NONCE },
    onCheckpoint: (snapshot) => {
      snapshots.push(snapshot);
    },
  });
  const first = snapshots[0]!;
  const other = await resume({ ...agent, instructions: 'Something else entirely.' }, first);
  expect(other.exitCode).toBe('EXIT-CONFIGURATION');
  expect(other.error).toContain(`taken with other agent settings`);
  expect(other.error).toContain(first.settingsHash);

  const newer = await resume(agent, { ...first, version: 3 });
  expect(newer.exitCode).toBe('EXIT-CONFIGURATION');
  expect(newer.error).toContain('version 3, newer than this release reads (up to 2)');

  const finished = await resume(agent, snapshots.at(-1)!);
  expect(finished.error).toContain('already finished');

  const junk = await resume(agent, { version: 1, sessionId: 'x' } as unknown as SessionSnapshot);
  expect(junk.exitCode).toBe('EXIT-CONFIGURATION');
  expect(junk.error).toContain('resumeFrom.agent');
  // Nothing was sent to the model by a refused resume.
  expect(server.requests).toHaveLength(5);
});
