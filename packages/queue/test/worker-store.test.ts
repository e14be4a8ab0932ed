import type { SessionStore, TurnJournalEntry } from '@agent/protocol';
import { expect, test } from 'vitest';
import { openQueueSessionStore, WorkerSessionStore } from '../src/index.js';
import { sharedRedis, snapshotOf } from './helpers.js';

// Issue 37: a worker's view of the shared store passes the turn journal through; a session it
// hands back keeps its journal (the next worker replays it) and takes no more entries.
const answer = (sessionId: string, turn: number): TurnJournalEntry => ({
  kind: 'answer',
  sessionId,
  turn,
  message: {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_1', name: 'send_mail', arguments: {} }],
  },
});
const outcome = (sessionId: string, turn: number, text: string): TurnJournalEntry => ({
  kind: 'tool_outcome',
  sessionId,
  turn,
  callId: 'call_1',
  tool: 'send_mail',
  ok: text !== 'aborted',
  text,
});

test("a worker's store passes the journal through; a handed-back session keeps its journal and snapshot, later entries are not kept", async () => {
  const { url } = await sharedRedis();
  const shared = await openQueueSessionStore(url);
  const store = new WorkerSessionStore(await openQueueSessionStore(url));
  try {
    const id = `journal-${process.pid}`;
    await store.save(snapshotOf(id, 1));
    await store.appendJournal!(answer(id, 2));
    expect(await shared.loadJournal!(id)).toEqual([answer(id, 2)]);

    store.handBack(id);
    // The cancelled run's cut-short call and its finished checkpoint: neither reaches the store.
    await store.appendJournal!(outcome(id, 2, 'aborted'));
    await store.save({ ...snapshotOf(id, 2), status: 'finished' });
    expect((await shared.load(id))?.turn).toBe(1);
    expect(await store.loadJournal!(id)).toEqual([answer(id, 2)]);

    // The next worker resumes it: its checkpoint drops the replayed journal.
    store.forget(id);
    await store.appendJournal!(outcome(id, 2, 'sent'));
    expect(await shared.loadJournal!(id)).toEqual([answer(id, 2), outcome(id, 2, 'sent')]);
    await store.save(snapshotOf(id, 2));
    expect(await shared.loadJournal!(id)).toEqual([]);
  } finally {
    await store.close();
    await shared.close();
  }
});

test('over a store without journals, the worker store has none either (sessions checkpoint as before)', async () => {
  const { url } = await sharedRedis();
  const inner = await openQueueSessionStore(url);
  const withoutJournal: SessionStore = {
    name: inner.name,
    location: inner.location,
    save: (snapshot) => inner.save(snapshot),
    load: (id) => inner.load(id),
    delete: (id) => inner.delete(id),
    loadConversation: (id) => inner.loadConversation(id),
    appendExchange: (id, exchange) => inner.appendExchange(id, exchange),
    deleteConversation: (id) => inner.deleteConversation(id),
    close: () => inner.close(),
  };
  const store = new WorkerSessionStore(withoutJournal);
  try {
    expect(store.appendJournal).toBeUndefined();
    expect(store.loadJournal).toBeUndefined();
  } finally {
    await store.close();
  }
});
