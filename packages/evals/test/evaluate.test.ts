import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest } from '@agent/testkit';
import { finalReport, startModelServer } from '@agent/testkit';
import { afterAll, expect, test } from 'vitest';
import { EvalInputError, evaluate } from '../src/index.js';

// evaluate() against the testkit model server over HTTP: a run that times out is a failed run
// with `error` (the other cases still run), budgets fail a case over its turns, records are kept.

const dir = mkdtempSync(join(tmpdir(), 'evals-evaluate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const promptOf = (request: RecordedRequest) =>
  JSON.stringify(request.messages.find((message) => message.role === 'user')?.content ?? '');

test('a run that times out fails with error; budgets fail a case over its turns; records are kept', async () => {
  const server = await startModelServer({
    handler: (request) =>
      /slow/.test(promptOf(request))
        ? { ...finalReport('late'), delayMs: 20_000 }
        : finalReport('fine', { answer: { usage: { inputTokens: 10, outputTokens: 5 } } }),
  });
  try {
    mkdirSync(join(dir, 'xdg'));
    writeFileSync(
      join(dir, 'agent.json'),
      JSON.stringify({
        providers: { test: { type: 'openai-compatible', baseURL: `${server.url}/v1`, apiKey: 'k' } },
      }),
    );
    writeFileSync(join(dir, 'a.ai'), '---\nmodels: test/m\nmaxTurns: 3\n---\nAnswer.\n');
    const seen: string[] = [];
    const run = await evaluate({
      agent: join(dir, 'a.ai'),
      cases: [
        { id: 'slow', input: 'slow please' },
        { id: 'tight', input: 'hi', settings: { budgets: { turns: 0 } } },
        { id: 'fine', input: 'hi', expected: 'fine', settings: { scorers: [{ type: 'equals' }] } },
      ],
      caseTimeoutMs: 1500,
      outDir: join(dir, 'out'),
      runId: 'r1',
      resolve: {
        cwd: dir,
        configPath: join(dir, 'agent.json'),
        userConfigDir: join(dir, 'xdg'),
        aiAgentHomeDir: dir,
      },
      onCase: (result) => seen.push(result.id),
    });
    const byId = Object.fromEntries(run.cases.map((entry) => [entry.id, entry.runs[0]!]));
    expect(byId.slow).toMatchObject({ passed: false, error: 'timed out after 1500 ms', scores: [] });
    expect(byId.tight).toMatchObject({ passed: false, turns: 1 });
    expect(byId.tight!.scores).toEqual([
      { scorer: 'budget', score: 0, pass: false, reason: 'over budget: turns 1 > 0' },
    ]);
    expect(byId.fine).toMatchObject({ passed: true, scores: [{ scorer: 'equals', score: 1, pass: true }] });
    expect(run.summary).toMatchObject({ cases: 3, passed: 1, failed: 2 });
    expect(seen.sort()).toEqual(['fine', 'slow', 'tight']);
    expect(byId.fine!.record).toBe(`records/${byId.fine!.sessionId}.json.gz`);
    expect(existsSync(join(dir, 'out', 'r1', byId.fine!.record!))).toBe(true);
    expect(existsSync(join(dir, 'out', 'r1', 'results.json'))).toBe(true);
  } finally {
    await server.close();
  }
}, 60_000);

test('options out of bounds and bad scorer specs are refused before any case runs', async () => {
  const base = { agent: join(dir, 'none.ai'), cases: [{ id: 'a', input: 'x' }] };
  await expect(evaluate({ ...base, repeat: 0 })).rejects.toThrow(
    'repeat must be an integer from 1 to 100, got 0',
  );
  await expect(evaluate({ ...base, concurrency: 65 })).rejects.toThrow(EvalInputError);
  await expect(evaluate({ ...base, runId: '../x' })).rejects.toThrow('runId "../x" must be');
});
