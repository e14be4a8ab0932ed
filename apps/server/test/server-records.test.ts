import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionRecord } from '@agent/runtime';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentDir, agentDir, finalReport, lastUserText, startServer } from './helpers.js';

// Issue 18, "Snapshots and inspection", through agent-server: a session it runs leaves its
// record in `persistence.sessionsDir` and its accounting in the ledger, as CLI runs do.

let agents: AgentDir;

beforeAll(async () => {
  agents = await agentDir((request) => ({
    text: finalReport(`Echo: ${lastUserText(request.messages)}`),
    usage: { inputTokens: 40, outputTokens: 7 },
  }));
  const config = JSON.parse(readFileSync(join(agents.dir, 'agent.json'), 'utf8')) as object;
  writeFileSync(
    join(agents.dir, 'agent.json'),
    JSON.stringify({ ...config, persistence: { sessionsDir: 'records', billingFile: 'ledger.jsonl' } }),
  );
});

afterAll(async () => {
  await agents?.close();
});

async function until(condition: () => boolean): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 20_000) throw new Error('no session record appeared');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('agent-server session records', () => {
  it('a served session is written to persistence.sessionsDir and the ledger', async () => {
    const server = await startServer(
      ['--agent', agents.files[0]!, '--openai', '0', '--allow-no-auth'],
      agents.dir,
      1,
    );
    try {
      const client = new OpenAI({ baseURL: server.urls.openai, apiKey: 'none', maxRetries: 0 });
      const answer = await client.chat.completions.create({
        model: 'echo',
        messages: [{ role: 'user', content: 'hello records' }],
      });
      expect(answer.choices[0]?.message.content).toBe('Echo: hello records');
      const records = join(agents.dir, 'records');
      const ledger = join(agents.dir, 'ledger.jsonl');
      await until(() => existsSync(records) && existsSync(ledger));
      await until(() => readdirSync(records).some((name) => name.endsWith('.json.gz')));
      const [name] = readdirSync(records).filter((file) => file.endsWith('.json.gz'));
      const record = await readSessionRecord(join(records, name!));
      expect(name).toBe(`${record.sessionId}.json.gz`);
      expect(statSync(join(records, name!)).mode & 0o777).toBe(0o600);
      expect(record).toMatchObject({ agent: 'echo', success: true, exitCode: 'EXIT-FINAL-ANSWER' });
      expect(record.finalReport?.content).toBe('Echo: hello records');
      expect(record.totals).toMatchObject({ llmCalls: 1, inputTokens: 40, outputTokens: 7 });
      const llm = record.tree.children[0]?.children.find((node) => node.kind === 'llm');
      expect(llm?.payload?.response).toContain('Echo: hello records');
      // The ledger is appended beside the record: wait for its lines, then check them.
      const ledgerLines = () =>
        readFileSync(ledger, 'utf8')
          .split('\n')
          .filter((line) => line !== '');
      await until(() => ledgerLines().length >= record.accounting.length);
      const lines = ledgerLines();
      expect(lines.map((line) => JSON.parse(line) as { sessionId: string })).toEqual(
        record.accounting.map(() => expect.objectContaining({ sessionId: record.sessionId })),
      );
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
