import { join } from 'node:path';
import { openSessionStore } from '@agent/cache';
import { finalReport, type ModelServer, startModelServer, toolCall } from '@agent/testkit';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';
import { createJournalStore } from './journal-store.js';

// Issue 37 through the runtime: durable runs write the turn journal to the session store, and
// a resume loads it (an edited one refuses the resume) and replays it.
const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function tree(approval: boolean) {
  const server = await startModelServer({ steps: [] });
  servers.push(server);
  const root = tempTree({
    'agent.json': localConfig({}, `${server.url}/v1`),
    'main.ai': agentFile(
      `models: [local/m]\nagents: [helper.ai]${approval ? '\napproval:\n  tools: [agent__helper]' : ''}`,
    ),
    'helper.ai': agentFile('models: [local/m]\ndescription: Says hi'),
  });
  const state = join(root, 'state');
  return { server, state, options: isolated(root, { env: { XDG_STATE_HOME: state } }) };
}

const callHelper = () => toolCall('agent__helper', { prompt: 'say hi' }, { id: 'call_h1' });

test('a resume whose stored journal was edited is refused, naming the session, and asks the model nothing', async () => {
  const { server, state, options } = await tree(true);
  server.push(callHelper());
  const runner = await createAgentRunner('main.ai', options);
  const store = await openSessionStore({}, { env: { XDG_STATE_HOME: state } });
  try {
    const paused = await runner.run('Greet me.', { durable: true });
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    const snapshot = (await store.load(paused.sessionId))!;
    // What a crash after the helper finished would leave: its outcome, journaled.
    await store.appendJournal!({
      kind: 'tool_outcome',
      sessionId: paused.sessionId,
      turn: snapshot.turn + 1,
      callId: 'call_h1',
      tool: 'agent__helper',
      ok: true,
      text: 'done',
    });
    const db = new Database(store.location);
    const row = db.prepare('SELECT entry FROM journal WHERE session_id = ?').get(paused.sessionId) as {
      entry: string;
    };
    db.prepare('UPDATE journal SET entry = ? WHERE session_id = ?').run(
      row.entry.replace('"text":"done"', '"text":"dona"'),
      paused.sessionId,
    );
    db.close();
    const asked = server.requests.length;
    const refused = await runner.resume(paused.sessionId, { approvals: { call_h1: { approved: true } } });
    expect(refused.exitCode).toBe('EXIT-CONFIGURATION');
    expect(refused.error).toContain(`cannot resume session "${paused.sessionId}"`);
    expect(refused.error).toContain(`turn journal of session ${paused.sessionId} fails its integrity check`);
    expect(server.requests.length).toBe(asked);
    // The snapshot is still there, not overwritten by the refused resume.
    expect((await store.load(paused.sessionId))?.status).toBe('awaiting_approval');
  } finally {
    await store.close();
    await runner.close();
  }
});

test("a resume loads the session's journal from the runner's store (once, for the resumed session)", async () => {
  const { server, options } = await tree(true);
  server.push(callHelper());
  const store = createJournalStore();
  const runner = await createAgentRunner('main.ai', { ...options, sessionStore: store });
  try {
    const paused = await runner.run('Greet me.', { durable: true });
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    expect(store.loads).toEqual([]);
    server.push(finalReport('hi'), finalReport('The helper said hi.'));
    const resumed = await runner.resume(paused.sessionId, { approvals: { call_h1: { approved: true } } });
    expect(resumed.finalReport?.content).toBe('The helper said hi.');
    expect(store.loads).toEqual([paused.sessionId]);
  } finally {
    await runner.close();
  }
});

// Needs @agent/core's journal (the other half of issue 37): the session writes entries through
// `onJournal` and replays `resumeJournal`.
test('a durable run journals each answer and tool outcome in its store; the checkpoint after the turn drops them', async () => {
  const { server, options } = await tree(false);
  server.push(callHelper(), finalReport('hi'), finalReport('The helper said hi.'));
  const store = createJournalStore();
  const runner = await createAgentRunner('main.ai', { ...options, sessionStore: store });
  try {
    const result = await runner.run('Greet me.', { durable: true });
    expect(result.finalReport?.content).toBe('The helper said hi.');
    const top = store.appended.filter((entry) => entry.sessionId === result.sessionId);
    expect(top.map((entry) => [entry.kind, entry.turn])).toEqual([
      ['answer', 1],
      ['tool_outcome', 1],
      ['answer', 2],
    ]);
    expect(top[1]).toMatchObject({ callId: 'call_h1', tool: 'agent__helper', ok: true });
    expect(await store.loadJournal!(result.sessionId)).toEqual([]);
  } finally {
    await runner.close();
  }
});

test('a resume after a crash mid-turn replays the journal: the journaled call is not run again, the model is not asked again for that turn', async () => {
  const { server, options } = await tree(false);
  server.push(callHelper(), finalReport('hi'), finalReport('The helper said hi.'));
  const first = createJournalStore();
  const runner = await createAgentRunner('main.ai', { ...options, sessionStore: first });
  const result = await runner.run('Greet me.', { durable: true });
  await runner.close();
  expect(result.success).toBe(true);
  // The store as a crash after turn 1's tool call finished would have left it: the checkpoint
  // before turn 1, and turn 1's journal.
  const before = first.saved.find((snapshot) => snapshot.turn === 0);
  expect(before, 'a durable session checkpoints before its first model call').toBeDefined();
  const crashed = createJournalStore();
  await crashed.save(before!);
  for (const entry of first.appended.filter((e) => e.sessionId === result.sessionId && e.turn === 1))
    await crashed.appendJournal!(entry);

  const asked = server.requests.length;
  server.push(finalReport('The helper said hi, once.'));
  const again = await createAgentRunner('main.ai', { ...options, sessionStore: crashed });
  try {
    const resumed = await again.resume(result.sessionId);
    expect(resumed.finalReport?.content).toBe('The helper said hi, once.');
    // One request: turn 2 of the top agent. Neither turn 1's model call nor the helper ran again.
    expect(server.requests.length).toBe(asked + 1);
    const tools = server.requests.at(-1)!.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual([expect.stringContaining('hi')]);
  } finally {
    await again.close();
  }
});
