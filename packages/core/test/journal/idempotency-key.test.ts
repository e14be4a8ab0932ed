import { createHash } from 'node:crypto';
import type { ToolCallRequest, ToolProvider } from '@agent/protocol';
import { finalReport } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { run } from '../../src/index.js';
import { agentOn, Ledger, NONCE, serve, servers } from './journal-session.js';

// Every tool call a session makes carries an idempotency key (docs/sessions.md, "Exactly once
// across a crash"): hex SHA-256 of [sessionId, turn, callId]; the same across a resume (see
// journal-replay.test.ts), different for every other call, turn and session.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Two calls in turn 1; turn 2 reuses the id call_1 (models do); then a report. */
const STEPS = [
  {
    toolCalls: [
      { id: 'call_1', name: 'charge', arguments: { item: 'x' } },
      { id: 'call_2', name: 'charge', arguments: { item: 'y' } },
    ],
  },
  { toolCalls: [{ id: 'call_1', name: 'charge', arguments: { item: 'z' } }] },
  finalReport('Charged x, y and z.'),
];

const sha256 = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

async function keysOf(sessionId: string): Promise<Record<string, string>> {
  const ledger = new Ledger();
  const result = await run(agentOn(await serve(STEPS), ledger), 'Charge x, y and z.', {
    sessionId,
    internal: { nonce: NONCE },
  });
  expect(result.success, result.error).toBe(true);
  return Object.fromEntries(ledger.charges.map((c) => [c.item, c.key]));
}

test('each call gets a 64-hex-digit key of its session, turn and id: different per call, turn and session', async () => {
  const first = await keysOf('session-one');
  expect(Object.values(first)).toHaveLength(3);
  for (const key of Object.values(first)) expect(key).toMatch(/^[0-9a-f]{64}$/);
  expect(first).toEqual({
    x: sha256(['session-one', 1, 'call_1']),
    y: sha256(['session-one', 1, 'call_2']),
    z: sha256(['session-one', 2, 'call_1']),
  });
  // Another call of the same turn, the same call id in another turn: other keys.
  expect(new Set(Object.values(first)).size).toBe(3);
  // The same script in another session: no key in common.
  const second = await keysOf('session-two');
  for (const key of Object.values(second)) expect(Object.values(first)).not.toContain(key);
  // The same session id again (a resumed session): the same keys.
  expect(await keysOf('session-one')).toEqual(first);
});

test("a tool provider's request carries the key, and a copy of the request keeps it", async () => {
  const seen: ToolCallRequest[] = [];
  const provider: ToolProvider = {
    id: 'ledger-api',
    async listTools() {
      return [{ name: 'post', description: 'Posts an entry', inputSchema: { type: 'object' } }];
    },
    async execute(call) {
      seen.push({ ...call });
      return { ok: true, text: 'posted' };
    },
  };
  const server = await serve([
    { toolCalls: [{ id: 'call_9', name: 'post', arguments: {} }] },
    finalReport('Posted.'),
  ]);
  const agent = { ...agentOn(server, new Ledger()), tools: [provider] };
  const result = await run(agent, 'Post it.', { sessionId: 'session-three', internal: { nonce: NONCE } });
  expect(result.success, result.error).toBe(true);
  expect(seen.map((call) => call.idempotencyKey)).toEqual([sha256(['session-three', 1, 'call_9'])]);
});

test('two calls of one answer with the same id (a server that repeats one) each run, under ids and keys of their own', async () => {
  const ledger = new Ledger();
  const server = await serve([
    {
      toolCalls: [
        { id: 'call_0', name: 'charge', arguments: { item: 'p' } },
        { id: 'call_0', name: 'charge', arguments: { item: 'q' } },
      ],
    },
    finalReport('Charged p and q.'),
  ]);
  const result = await run(agentOn(server, ledger), 'Charge p and q.', {
    sessionId: 'session-dup',
    internal: { nonce: NONCE },
  });
  expect(result.success, result.error).toBe(true);
  expect(ledger.charges.map((c) => c.item)).toEqual(['p', 'q']);
  expect(ledger.charges.map((c) => c.key)).toEqual([
    sha256(['session-dup', 1, 'call_0']),
    sha256(['session-dup', 1, 'call_0-2']),
  ]);
  const results = result.conversation.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m.content]] : []));
  expect(results).toEqual([
    ['call_0', 'charged p'],
    ['call_0-2', 'charged q'],
  ]);
});
