// Issue 36, through agent-server's real /metrics: the context guard's events and the tokens left
// when it fired (seed 002's `ai_agent_context_guard_*`), and the XML final report, which is the
// answer and not a tool call, counted the same in REST usage, /metrics and the session record.
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSessionRecord } from '@agent/runtime';
import {
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
} from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalReport, type RunningServer, sample, startServer } from './helpers.js';

const WINDOW = 4000;
const BIG = 'word '.repeat(20_000);

let dir: string;
let api: Server;
let model: ModelServer;
let server: RunningServer;

/** guarded: calls `dump` (too big for its window), then reports; reporter: calls `time`, then reports. */
function answer(request: RecordedRequest): ScriptedAnswer {
  const system = String(request.messages.find((m) => m.role === 'system')?.content ?? '');
  const called = request.messages.some((m) => m.role === 'assistant');
  const tool = system.includes('You are guarded.') ? 'rest__dump' : 'rest__time';
  if (!called) return { toolCalls: [{ id: 'c1', name: tool, arguments: {} }] };
  return { text: finalReport('done') };
}

beforeAll(async () => {
  api = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(req.url === '/dump' ? BIG : 'noon');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  model = await startModelServer({ handler: answer });
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-server-guard-')));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } },
      restTools: {
        dump: { description: 'A large dump', url: `${base}/dump` },
        time: { description: 'The time', url: `${base}/time` },
      },
      persistence: { sessionsDir: 'records' },
    }),
  );
  // The tool-output module is off so the oversized result meets the guard, not a handle.
  writeFileSync(
    join(dir, 'guarded.ai'),
    `---\nmodels: [local/m]\ntools: [dump]\ncontextWindow: ${WINDOW}\ntoolOutput: false\n---\nYou are guarded.\n`,
  );
  writeFileSync(join(dir, 'reporter.ai'), '---\nmodels: [local/m]\ntools: [time]\n---\nYou are reporter.\n');
  server = await startServer(
    [
      '--agent',
      join(dir, 'guarded.ai'),
      '--agent',
      join(dir, 'reporter.ai'),
      '--api',
      '0',
      '--metrics',
      '0',
      '--allow-no-auth',
    ],
    dir,
    2,
  );
}, 60_000);

afterAll(async () => {
  if (server !== undefined && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await model?.close();
  if (api !== undefined) await new Promise<void>((resolve) => api.close(() => resolve()));
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

interface RunAnswer {
  success: boolean;
  sessionId: string;
  usage: { toolCalls: number };
}

async function run(agent: string): Promise<RunAnswer> {
  const response = await fetch(`${server.urls.rest}/${agent}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'go' }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as RunAnswer;
}

const scrape = async () => (await fetch(server.urls.metrics!)).text();

/** The sum of every sample of `name` (all label sets). */
function total(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.split(' ').at(-1));
  return sum;
}

async function recordOf(sessionId: string) {
  const file = join(dir, 'records', `${sessionId}.json.gz`);
  const started = Date.now();
  while (!existsSync(file)) {
    if (Date.now() - started > 20_000)
      throw new Error(`no record for ${sessionId}: ${readdirSync(join(dir, 'records'))}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return readSessionRecord(file);
}

describe('agent-server /metrics: the context guard', () => {
  it('counts a dropped tool result and the final turn it forced, with the tokens left at that moment', async () => {
    const result = await run('guarded');
    expect(result.success).toBe(true);
    const text = await scrape();
    const labels = { provider: 'local', model: 'm', trigger: 'tool_result' };
    expect(sample(text, 'agent_context_guard_events_total', { ...labels, outcome: 'tool_dropped' })).toBe(1);
    expect(
      sample(text, 'agent_context_guard_events_total', { ...labels, outcome: 'final_turn_forced' }),
    ).toBe(1);
    // What was left of the window when the result was refused: the record's accounting says the same.
    const record = await recordOf(result.sessionId);
    const drop = record.accounting.find((e) => e.type === 'tool' && e.error === 'context_budget_exceeded');
    const remaining = drop?.type === 'tool' ? Number(drop.details?.remaining_tokens) : Number.NaN;
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(WINDOW);
    expect(sample(text, 'agent_context_guard_remaining_tokens', { ...labels, outcome: 'tool_dropped' })).toBe(
      remaining,
    );
  });
});

describe('the XML final report is the answer, not a tool call: REST usage, /metrics and the record agree', () => {
  it('one tool call and one report count as one tool call everywhere', async () => {
    const before = total(await scrape(), 'agent_tool_calls_total');
    const result = await run('reporter');
    expect(result.success).toBe(true);
    const after = await scrape();
    const record = await recordOf(result.sessionId);
    expect({
      rest: result.usage.toolCalls,
      metrics: total(after, 'agent_tool_calls_total') - before,
      record: record.totals.toolCalls,
    }).toEqual({ rest: 1, metrics: 1, record: 1 });
    expect(after).not.toContain('agent__final_report_xml');
    // The report is counted where reports are counted.
    expect(after).toMatch(
      /agent_final_reports_total\{status="success",format="markdown",source="[a-z]+"\} 2/,
    );
  });
});
