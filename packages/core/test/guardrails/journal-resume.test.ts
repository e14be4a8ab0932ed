import type { GuardrailRun } from '@agent/protocol';
import { finalReport } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { guardrail, resume, run } from '../../src/index.js';
import { agentOn, Ledger, NONCE, StoreCopy, serve, servers } from '../journal/journal-session.js';

// A resumed session replays journaled tool outcomes (the raw ones) and runs the result
// guardrails on them again: the model never sees what the guardrail would have kept from it.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const STEPS = [
  {
    text: 'Charging both.',
    toolCalls: [
      { id: 'call_a', name: 'charge', arguments: { item: 'a' } },
      { id: 'call_b', name: 'charge', arguments: { item: 'b' } },
    ],
  },
  finalReport('Charged a and b.'),
];

test('journal replay: the result checks run again on the replayed outcome', async () => {
  const checked: GuardrailRun[] = [];
  const mask = guardrail({
    name: 'mask-charges',
    on: 'tool',
    phases: ['result'],
    check: (subject) => ({ verdict: 'rewrite', value: subject.text.replace(/charged \w+/, 'charged [item]'), reason: 'rule: mask' }),
  });
  const store = new StoreCopy();
  const ledger = new Ledger();
  ledger.hang.add('b');
  store.afterEntry = (entry) => {
    if (entry.kind === 'tool_outcome') store.crash();
  };
  const crashed = await run(
    { ...agentOn(await serve(STEPS), ledger), guardrails: [mask] },
    'Charge a and b.',
    store.options({ sessionId: 'guard-journal-1' }),
  );
  expect(crashed.exitCode).toBe('EXIT-ABORTED');
  expect(store.journal.map((e) => e.kind)).toEqual(['answer', 'tool_outcome']);

  const server = await serve(STEPS.slice(1));
  const after = new Ledger();
  const resumed = await resume({ ...agentOn(server, after), guardrails: [mask] }, store.snapshot!, {
    journal: store.journal,
    internal: { nonce: NONCE },
    onEvent: (event) => {
      if (event.type === 'guardrail') checked.push(event.run);
    },
  });
  expect(resumed.success, resumed.error).toBe(true);
  // a was not charged again, yet its replayed result was checked (and b's, which ran).
  expect(after.charges.map((c) => c.item)).toEqual(['b']);
  expect(checked.map((r) => [r.callId, r.outcome]).sort()).toEqual([
    ['call_a', 'rewrite'],
    ['call_b', 'rewrite'],
  ]);
  const tools = server.requests[0]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  expect(tools).toEqual(['charged [item]', 'charged [item]']);
});
