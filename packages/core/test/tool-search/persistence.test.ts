import type { SessionSnapshot, TurnJournalEntry } from '@agent/protocol';
import { finalReport, type ScriptStep } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { settingsHash } from '../../src/checkpoint/settings-hash.js';
import { resume, run } from '../../src/index.js';
import { catalogAgent, NONCE, serve, servers, toolNames } from './catalog.js';

// Found tools stay found: across a resume from a snapshot (here a pause for approval) and
// across a turn-journal replay after a crash, the session offers exactly the same tools.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SEARCH = { after: 3, alwaysOn: ['status_*'], maxResults: 2 };
const STEPS: ScriptStep[] = [
  { toolCalls: [{ id: 'call_s1', name: 'tool_search', arguments: { query: 'refund an invoice' } }] },
  { toolCalls: [{ id: 'call_r1', name: 'billing__refundInvoice', arguments: { invoice_number: 'INV-7' } }] },
  finalReport('Refunded INV-7.'),
];
const sent = (request: { messages: unknown; tools: unknown; body?: unknown }) => ({
  messages: request.messages,
  tools: request.tools,
  body: request.body,
});

test('found tools persist across a resume: the snapshot carries them and the resumed requests offer them', async () => {
  const live = await serve(STEPS);
  await run(catalogAgent(live, [], { toolSearch: SEARCH }), 'Refund INV-7.', {
    internal: { nonce: NONCE },
    approver: () => ({ approved: true }),
  });

  const first = await serve(STEPS.slice(0, 2));
  const ran: string[] = [];
  const agent = () => catalogAgent(first, ran, { toolSearch: SEARCH, approval: { tools: ['billing__*'] } });
  const paused = await run(agent(), 'Refund INV-7.', { internal: { nonce: NONCE } });
  expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  const snapshot = JSON.parse(
    JSON.stringify(paused.success ? undefined : paused.snapshot),
  ) as SessionSnapshot;
  const found = live.requests[1]!.tools.map((t) => t.name).filter((n) => n.startsWith('billing__'));
  expect(snapshot.loop.toolSearch).toEqual({ found });

  const second = await serve(STEPS.slice(2));
  const resumed = await resume(
    catalogAgent(second, ran, { toolSearch: SEARCH, approval: { tools: ['billing__*'] } }),
    snapshot,
    { approvals: { call_r1: { approved: true } }, internal: { nonce: NONCE } },
  );
  expect(resumed.success, resumed.error).toBe(true);
  expect(ran).toEqual(['billing__refundInvoice:INV-7']);
  // The resumed request offers what the uninterrupted session's third request offered.
  expect(toolNames(second.requests[0]!.tools)).toEqual(toolNames(live.requests[2]!.tools));
  expect(toolNames(second.requests[0]!.tools)).toContain('billing__refundInvoice');
});

test('found tools are re-derived on a turn-journal replay: a crash after the search answer was journaled', async () => {
  const live = await serve(STEPS);
  await run(catalogAgent(live, [], { toolSearch: SEARCH }), 'Refund INV-7.', { internal: { nonce: NONCE } });

  let snapshot: SessionSnapshot | undefined;
  const journal: TurnJournalEntry[] = [];
  const controller = new AbortController();
  let crashed = false;
  const dying = await serve(STEPS.slice(0, 1));
  const result = await run(catalogAgent(dying, [], { toolSearch: SEARCH }), 'Refund INV-7.', {
    sessionId: 'search-journal-1',
    internal: { nonce: NONCE },
    signal: controller.signal,
    onCheckpoint: (s) => {
      if (!crashed) snapshot = JSON.parse(JSON.stringify(s)) as SessionSnapshot;
    },
    onJournal: (entry) => {
      if (crashed) return;
      journal.push(JSON.parse(JSON.stringify(entry)) as TurnJournalEntry);
      if (entry.kind === 'answer') {
        crashed = true;
        controller.abort();
      }
    },
  });
  expect(result.exitCode).toBe('EXIT-ABORTED');
  // The last snapshot is the opening one: nothing found yet; the search is only in the journal.
  expect(snapshot?.turn).toBe(0);
  expect(snapshot?.loop.toolSearch).toEqual({ found: [] });

  const server = await serve(STEPS.slice(1));
  const ran: string[] = [];
  const resumed = await resume(catalogAgent(server, ran, { toolSearch: SEARCH }), snapshot!, {
    journal,
    internal: { nonce: NONCE },
  });
  expect(resumed.success, resumed.error).toBe(true);
  // Turn 1 was replayed (its search ran again); turns 2 and 3 were sent as the live session sent them.
  expect(server.requests.map(sent)).toEqual(live.requests.slice(1).map(sent));
  expect(ran).toEqual(['billing__refundInvoice:INV-7']);
});

const HASHED = {
  agent: 'main',
  instructions: 'Be brief.',
  expected: { format: 'markdown' } as never,
  reportBack: false,
  internalTools: true,
  maxTurns: 6,
  maxRetries: 3,
  targets: [{ client: { provider: 'openai', model: 'gpt-4.1-mini' } } as never],
  tools: [
    { name: 'b', description: '', inputSchema: {} },
    { name: 'a', description: '', inputSchema: {} },
  ],
};

test('the settings hash of a session without tool search is what it was before tool search existed', () => {
  // Computed with the settings hash of the commit before tool search (1847e59).
  expect(settingsHash(HASHED)).toBe('sha256:14ebfcdaf11c9dd4');
  expect(settingsHash({ ...HASHED, toolSearch: undefined })).toBe('sha256:14ebfcdaf11c9dd4');
  const on = settingsHash({ ...HASHED, toolSearch: { after: 3, alwaysOn: [], maxResults: 5 } });
  expect(on).not.toBe('sha256:14ebfcdaf11c9dd4');
  expect(settingsHash({ ...HASHED, toolSearch: { after: 4, alwaysOn: [], maxResults: 5 } })).not.toBe(on);
});

test('a snapshot taken with tool search does not resume under other tool search settings', async () => {
  const first = await serve(STEPS.slice(0, 2));
  const paused = await run(
    catalogAgent(first, [], { toolSearch: SEARCH, approval: { tools: ['billing__*'] } }),
    'Refund INV-7.',
    { internal: { nonce: NONCE } },
  );
  const snapshot = paused.success ? undefined : paused.snapshot;
  const other = await serve([]);
  const resumed = await resume(
    catalogAgent(other, [], { toolSearch: { ...SEARCH, after: 5 }, approval: { tools: ['billing__*'] } }),
    snapshot!,
    { approvals: { call_r1: { approved: true } }, internal: { nonce: NONCE } },
  );
  expect(resumed.success).toBe(false);
  expect(resumed.error).toMatch(/settings/);
  expect(other.requests).toHaveLength(0);
});
