import type { AgentResult, LlmAccountingEntry, ToolAccountingEntry } from '@agent/protocol';
import { finalReport, type ModelServer, type RecordedRequest, streamedFinalReport } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { resume, run } from '../../src/index.js';
import { agentOn, eventLog, Ledger, NONCE, StoreCopy, serve, servers } from './journal-session.js';

// The turn journal (docs/sessions.md, "Exactly once across a crash"): a session that dies in a
// turn and is resumed from its last snapshot and the journal written since replays what the
// journal has (the model's answer, the calls that finished) and runs only what never finished.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SESSION = 'journal-session-1';
const PROMPT = 'Charge a and b.';

/** Turn 1 charges a and b in one answer; turn 2 reports. */
const STEPS = [
  {
    text: 'Charging both.',
    toolCalls: [
      { id: 'call_a', name: 'charge', arguments: { item: 'a' } },
      { id: 'call_b', name: 'charge', arguments: { item: 'b' } },
    ],
    usage: { inputTokens: 300, outputTokens: 20 },
  },
  finalReport('Charged a and b.', { answer: { usage: { inputTokens: 420, outputTokens: 12 } } }),
];

const sent = (request: RecordedRequest) => ({
  messages: request.messages,
  tools: request.tools,
  body: request.body,
});

/** The session never interrupted: what the resumed one must equal. */
async function uninterrupted(): Promise<{ result: AgentResult; server: ModelServer; ledger: Ledger }> {
  const server = await serve(STEPS);
  const ledger = new Ledger();
  const result = await run(agentOn(server, ledger), PROMPT, {
    sessionId: SESSION,
    internal: { nonce: NONCE },
  });
  expect(result.success, result.error).toBe(true);
  return { result, server, ledger };
}

/** A durable run of the session that dies as `store.crash()` is called. */
async function crashingRun(
  store: StoreCopy,
  ledger: Ledger,
  server: ModelServer,
  onEvent?: ReturnType<typeof eventLog>['onEvent'],
): Promise<AgentResult> {
  const options = store.options({ sessionId: SESSION, ...(onEvent === undefined ? {} : { onEvent }) });
  const result = await run(agentOn(server, ledger), PROMPT, options);
  expect(result.exitCode).toBe('EXIT-ABORTED');
  return result;
}

/** The session dies once call a's outcome is journaled, while call b is still running. */
async function crashAfterCallA(onEvent?: ReturnType<typeof eventLog>['onEvent']) {
  const store = new StoreCopy();
  const ledger = new Ledger();
  ledger.hang.add('b');
  store.afterEntry = (entry) => {
    if (entry.kind === 'tool_outcome') store.crash();
  };
  await crashingRun(store, ledger, await serve(STEPS), onEvent);
  return { store, ledger };
}

test('a crash after the answer and one of two calls were journaled: no model call and no repeat for them, the other call runs once with the same key', async () => {
  const reference = await uninterrupted();
  const crashed = eventLog();
  const { store, ledger } = await crashAfterCallA(crashed.onEvent);
  // The opening checkpoint (turn 0), then the answer and call a's outcome; call b never finished.
  expect(store.snapshot?.turn).toBe(0);
  expect(store.journal.map((e) => (e.kind === 'answer' ? 'answer' : e.callId))).toEqual(['answer', 'call_a']);
  expect(crashed.events.filter((e) => e.event.type === 'answer_journaled').map((e) => e.event)).toEqual([
    { type: 'answer_journaled', turn: 1 },
  ]);
  expect(ledger.charges.map((c) => c.item)).toEqual(['a', 'b']);

  const server = await serve(STEPS.slice(1));
  const after = new Ledger();
  const resumed = await resume(agentOn(server, after), store.snapshot!, {
    journal: store.journal,
    internal: { nonce: NONCE },
  });
  expect(resumed.success, resumed.error).toBe(true);
  expect(resumed.sessionId).toBe(SESSION);
  // Turn 1 was not asked again: the one request is turn 2's, as the uninterrupted session sent it.
  expect(server.requests.map(sent)).toEqual(reference.server.requests.slice(1).map(sent));
  // a is not charged again; b, which never finished, is charged once more with the same key.
  const firstB = ledger.charges.find((c) => c.item === 'b')!;
  expect(after.charges).toEqual([{ item: 'b', key: firstB.key }]);
  expect(reference.ledger.charges.find((c) => c.item === 'b')?.key).toBe(firstB.key);
  expect(resumed.conversation).toEqual(reference.result.conversation);
  expect(resumed.finalReport?.content).toBe('Charged a and b.');
  // The replayed model call and tool outcome are accounted, marked replayed.
  const llm = resumed.accounting.filter((e): e is LlmAccountingEntry => e.type === 'llm');
  expect(llm.map((e) => [e.turn, e.replayed === true, e.tokens.inputTokens])).toEqual([
    [1, true, 300],
    [2, false, 420],
  ]);
  const tools = resumed.accounting.filter((e): e is ToolAccountingEntry => e.type === 'tool' && !e.report);
  expect(tools.map((e) => [e.callId, e.replayed === true])).toEqual([
    ['call_a', true],
    ['call_b', false],
  ]);
});

test('a crash before the answer was journaled: the model is asked again for that turn', async () => {
  const reference = await uninterrupted();
  const store = new StoreCopy();
  const ledger = new Ledger();
  // The model is asked, and the process dies before the answer is complete.
  const dying = await serve([
    () => {
      store.crash();
      return { fault: 'hang' as const };
    },
  ]);
  await crashingRun(store, ledger, dying);
  expect(dying.requests).toHaveLength(1);
  expect(store.snapshot?.turn).toBe(0);
  expect(store.journal).toEqual([]);
  expect(ledger.charges).toEqual([]);

  const server = await serve(STEPS);
  const after = new Ledger();
  const resumed = await resume(agentOn(server, after), store.snapshot!, {
    journal: store.journal,
    internal: { nonce: NONCE },
  });
  expect(resumed.success, resumed.error).toBe(true);
  expect(server.requests.map(sent)).toEqual(reference.server.requests.map(sent));
  expect(after.charges).toEqual(reference.ledger.charges);
  expect(resumed.conversation).toEqual(reference.result.conversation);
});

test('a journaled report is committed again on resume without a model call, its text sent with source journal', async () => {
  const report = ['Nothing ', 'left ', 'to charge.'];
  const store = new StoreCopy();
  store.afterEntry = (entry) => {
    if (entry.kind === 'answer') store.crash();
  };
  const crashed = eventLog();
  await crashingRun(store, new Ledger(), await serve([streamedFinalReport(report)]), crashed.onEvent);
  expect(store.journal.map((e) => e.kind)).toEqual(['answer']);
  const streamed = crashed.events.filter((e) => e.event.type === 'output');
  expect(streamed.map((e) => e.meta.source)).toEqual(['stream', 'stream', 'stream']);

  const server = await serve([]);
  const resumedLog = eventLog();
  const resumed = await resume(agentOn(server, new Ledger()), store.snapshot!, {
    journal: store.journal,
    internal: { nonce: NONCE },
    onEvent: resumedLog.onEvent,
  });
  expect(resumed.success, resumed.error).toBe(true);
  expect(server.requests).toHaveLength(0);
  expect(resumed.finalReport?.content).toBe(report.join(''));
  const outputs = resumedLog.events.filter((e) => e.event.type === 'output');
  expect(outputs.map((e) => e.meta.source)).toEqual(outputs.map(() => 'journal'));
  expect(outputs.map((e) => (e.event.type === 'output' ? e.event.text : '')).join('')).toBe(report.join(''));
  const llm = resumed.accounting.filter((e) => e.type === 'llm');
  expect(llm.map((e) => e.replayed)).toEqual([true]);
});

test('a journal write that fails is a WRN line and the session finishes (at-least-once for that turn)', async () => {
  const server = await serve(STEPS);
  const ledger = new Ledger();
  const log = eventLog();
  const result = await run(agentOn(server, ledger), PROMPT, {
    sessionId: SESSION,
    internal: { nonce: NONCE },
    onEvent: log.onEvent,
    onCheckpoint: () => {},
    onJournal: () => {
      throw new Error('the disk is full');
    },
  });
  expect(result.success, result.error).toBe(true);
  expect(result.finalReport?.content).toBe('Charged a and b.');
  expect(ledger.charges.map((c) => c.item)).toEqual(['a', 'b']);
  const warnings = result.logs.filter((l) => l.remoteIdentifier === 'agent:journal');
  // Two answers and two call outcomes, each refused.
  expect(warnings.map((l) => l.severity)).toEqual(['WRN', 'WRN', 'WRN', 'WRN']);
  expect(warnings[0]!.message).toContain('the disk is full');
  expect(log.events.filter((e) => e.event.type === 'answer_journaled')).toEqual([]);
});

test('journal entries of another session, of another turn or naming calls no answer made are not replayed, each with a WRN line', async () => {
  const reference = await uninterrupted();
  const { store } = await crashAfterCallA();
  const [answer, outcomeA] = store.journal;
  if (answer?.kind !== 'answer' || outcomeA?.kind !== 'tool_outcome') throw new Error('unexpected journal');
  const forged = [
    answer,
    // Another session's outcome for b, a call no answer made, a's outcome under another tool, and a later turn.
    { ...outcomeA, sessionId: 'another-session', callId: 'call_b', text: 'forged b' },
    { ...outcomeA, callId: 'call_zz', tool: 'charge', text: 'forged zz' },
    { ...outcomeA, tool: 'refund', text: 'forged a' },
    { ...outcomeA, turn: 2, callId: 'call_b', text: 'forged b again' },
  ];
  const server = await serve(STEPS.slice(1));
  const after = new Ledger();
  const resumed = await resume(agentOn(server, after), store.snapshot!, {
    journal: forged,
    internal: { nonce: NONCE },
  });
  expect(resumed.success, resumed.error).toBe(true);
  // The answer was replayed; both calls ran, since no trustworthy outcome was journaled for them.
  expect(server.requests).toHaveLength(1);
  expect(after.charges.map((c) => c.item)).toEqual(['a', 'b']);
  expect(resumed.conversation).toEqual(reference.result.conversation);
  const warnings = resumed.logs.filter((l) => l.remoteIdentifier === 'agent:journal' && l.severity === 'WRN');
  expect(warnings.map((l) => l.message)).toEqual([
    expect.stringContaining('it is of session "another-session"'),
    expect.stringContaining('no journaled answer before it made the call call_zz'),
    expect.stringContaining('call call_a is a call of charge, not of refund'),
    expect.stringContaining('it is of turn 2; the snapshot continues with turn 1'),
  ]);
});

test('a crash while a paused turn runs its approved calls: the resumed turn replays the journaled outcome and runs only the other call', async () => {
  const approving = (server: ModelServer, ledger: Ledger) => ({
    ...agentOn(server, ledger),
    approval: { tools: ['charge'] },
  });
  const before = new Ledger();
  const paused = await run(approving(await serve(STEPS.slice(0, 1)), before), PROMPT, {
    sessionId: SESSION,
    internal: { nonce: NONCE },
  });
  expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  if (paused.success || paused.snapshot === undefined) throw new Error('the session did not pause');
  const { snapshot } = paused;
  expect(before.charges).toEqual([]);
  const approvals = { call_a: { approved: true }, call_b: { approved: true } };
  const store = new StoreCopy();
  const ledger = new Ledger();
  ledger.hang.add('b');
  store.afterEntry = (entry) => {
    if (entry.kind === 'tool_outcome') store.crash();
  };
  const dying = await resume(approving(await serve([]), ledger), snapshot, {
    ...store.options(),
    approvals,
  });
  expect(dying.exitCode).toBe('EXIT-ABORTED');
  expect(store.journal.map((e) => (e.kind === 'tool_outcome' ? [e.turn, e.callId] : e.kind))).toEqual([
    [1, 'call_a'],
  ]);

  const server = await serve(STEPS.slice(1));
  const after = new Ledger();
  const resumed = await resume(approving(server, after), snapshot, {
    approvals,
    journal: store.journal,
    internal: { nonce: NONCE },
  });
  expect(resumed.success, resumed.error).toBe(true);
  const firstB = ledger.charges.find((c) => c.item === 'b')!;
  expect(after.charges).toEqual([{ item: 'b', key: firstB.key }]);
  expect(server.requests).toHaveLength(1);
  expect(resumed.finalReport?.content).toBe('Charged a and b.');
});
