import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AccountingEntry, AgentEvent } from '@agent/protocol';
import { finalReport, scriptedModel, startModelServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { createAgentRunner, MAX_LEDGER_LINE_BYTES, readSessionRecord } from '../src/index.js';
import { appendLedger, ledgerLine } from '../src/persistence/ledger.js';
import { buildSessionRecord } from '../src/persistence/record.js';
import { writeSessionRecord } from '../src/persistence/record-file.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// The pieces of `persistence` below the CLI: the size bound of a record, the ledger's line
// bound and concurrent appends, and a write that fails while the run itself succeeds.

const llmEntry = (n: number, error?: string): AccountingEntry => ({
  type: 'llm',
  timestamp: n,
  status: error === undefined ? 'ok' : 'failed',
  latency: 5,
  provider: 'p',
  model: 'm',
  tokens: { inputTokens: n, outputTokens: 1, totalTokens: n + 1 },
  ...(error === undefined ? {} : { error }),
});

describe('session records', () => {
  test('a record over the size bound is written without its payloads, and says so', async () => {
    const root = tempTree({
      'agent.json': localConfig({ persistence: { sessionsDir: 'records' } }),
      'a.ai': agentFile('models: [local/m]'),
    });
    const blob = 'x'.repeat(5000);
    const model = scriptedModel([
      { toolCalls: [{ name: 'no_such_tool', arguments: { blob } }] },
      (r) => ({ text: finalAnswer(r.messages, 'done') }),
    ]);
    const runner = await createAgentRunner('a.ai', { ...isolated(root), clientFactory: () => model });
    const result = await runner.run('go', { sessionId: 'bounded' });
    await runner.close();
    const record = await readSessionRecord(join(root, 'records/bounded.json.gz'));
    const tool = record.tree.children[0]!.children.find((node) => node.kind === 'tool')!;
    expect(tool.payload?.arguments).toContain(blob);
    expect(record.payloadsDropped).toBeUndefined();

    // The same run through the writer with a 4 KiB bound: the payloads and tapes go, the rest stays.
    expect(record.tree.tape?.calls[0]?.answer?.toolCalls[0]?.arguments).toContain(blob);
    const kept = { conversations: new Map(), tapes: new Map([[result.sessionId, record.tree.tape!]]) };
    const full = buildSessionRecord(result, kept, (text) => text)!;
    const lean = () => buildSessionRecord(result, kept, (text) => text, { payloads: false })!;
    expect(full.tree.tape).toBeDefined();
    const path = await writeSessionRecord(join(root, 'small'), full, lean, 4096);
    const bounded = await readSessionRecord(path);
    expect(bounded.payloadsDropped).toMatch(
      /over the 4096-byte bound: the LLM and tool payloads were left out/,
    );
    expect(bounded.tree.tape).toBeUndefined();
    expect(JSON.stringify(bounded)).not.toContain(blob);
    expect(bounded.accounting).toEqual(record.accounting);
    expect(bounded.tree.children[0]!.children.map((node) => node.kind)).toEqual(
      record.tree.children[0]!.children.map((node) => node.kind),
    );
  });

  test('a sessionsDir that cannot be written: the run succeeds and a warning says why', async () => {
    const root = tempTree({
      'agent.json': localConfig({ persistence: { sessionsDir: 'taken' } }),
      'a.ai': agentFile('models: [local/m]'),
      taken: 'a file, not a directory',
    });
    const model = scriptedModel([(r) => ({ text: finalAnswer(r.messages, 'fine') })]);
    const events: AgentEvent[] = [];
    const runner = await createAgentRunner('a.ai', { ...isolated(root), clientFactory: () => model });
    const result = await runner.run('go', { onEvent: (event) => events.push(event) });
    await runner.close();
    expect(result.success).toBe(true);
    const warnings = events.flatMap((e) =>
      e.type === 'log' && e.entry.severity === 'WRN' ? [e.entry.message] : [],
    );
    expect(warnings.join('\n')).toContain(`cannot write the session record in ${join(root, 'taken')}`);
  });
});

describe('the billing ledger', () => {
  test('a line is bounded: an enormous error is cut, the line stays JSON', () => {
    const line = ledgerLine(llmEntry(1, 'e'.repeat(100_000)), { sessionId: 's' });
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_LEDGER_LINE_BYTES);
    const parsed = JSON.parse(line) as { error: string; sessionId: string; model: string };
    expect(parsed).toMatchObject({ sessionId: 's', model: 'm' });
    expect(parsed.error).toContain('(cut: the ledger line was over');
  });

  test('appends from many writers at once keep every line whole', async () => {
    const file = join(tempTree({}), 'ledger', 'bills.jsonl');
    const writers = Array.from({ length: 8 }, (_, w) =>
      appendLedger(
        file,
        Array.from({ length: 50 }, (_, i) =>
          llmEntry(w * 1000 + i, i % 10 === 0 ? 'y'.repeat(3000) : undefined),
        ),
        `writer-${w}`,
      ),
    );
    await Promise.all(writers);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(400);
    const parsed = lines.map((line) => JSON.parse(line) as { sessionId: string });
    for (let w = 0; w < 8; w++) expect(parsed.filter((p) => p.sessionId === `writer-${w}`)).toHaveLength(50);
  });

  test('a paused run resumed later: each LLM call is in the ledger once, and the record is the whole session', async () => {
    const server = await startModelServer({
      steps: [
        {
          text: 'Asking.',
          toolCalls: [{ id: 'call_h1', name: 'agent__helper', arguments: { prompt: 'hi' } }],
        },
      ],
    });
    try {
      const root = tempTree({
        'agent.json': localConfig(
          { persistence: { sessionsDir: 'records', billingFile: 'ledger.jsonl' } },
          `${server.url}/v1`,
        ),
        'main.ai': agentFile('models: [local/m]\nagents: [helper.ai]\napproval:\n  tools: [agent__helper]'),
        'helper.ai': agentFile('models: [local/m]\ndescription: Says hi'),
      });
      const options = isolated(root, { env: { XDG_STATE_HOME: join(root, 'state') } });
      const runner = await createAgentRunner('main.ai', options);
      const paused = await runner.run('Greet me.', { sessionId: 'paused-1' });
      expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
      server.push(finalReport('hi'), finalReport('The helper said hi.'));
      const resumed = await runner.resume('paused-1', { approvals: { call_h1: { approved: true } } });
      await runner.close();
      expect(resumed.success, resumed.error).toBe(true);
      const ledger = readFileSync(join(root, 'ledger.jsonl'), 'utf8').trimEnd().split('\n');
      const llm = ledger
        .map((line) => JSON.parse(line) as { type: string; sessionId: string })
        .filter((e) => e.type === 'llm');
      // Three model calls in all (the pause, the helper, the report), each once.
      expect(llm).toHaveLength(server.requests.length);
      expect(llm).toHaveLength(3);
      expect(llm.every((entry) => entry.sessionId === 'paused-1')).toBe(true);
      const record = await readSessionRecord(join(root, 'records/paused-1.json.gz'));
      expect(record.exitCode).toBe('EXIT-FINAL-ANSWER');
      expect(record.totals.llmCalls).toBe(3);
    } finally {
      await server.close();
    }
  });

  test('an existing ledger is appended to, never truncated', async () => {
    const file = join(tempTree({}), 'bills.jsonl');
    writeFileSync(file, '{"earlier":true}\n');
    await appendLedger(file, [llmEntry(1)], 'next');
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('{"earlier":true}');
  });
});
