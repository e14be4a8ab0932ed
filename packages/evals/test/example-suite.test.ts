// examples/evals runs as its README says: the triage agent over tickets.yaml, answered by the
// scripted model server from script.json (one case at a time, so the steps meet their cases).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '@agent/testkit';
import { afterAll, expect, it } from 'vitest';
import { evaluate } from '../src/index.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/evals/', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'evals-example-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('the example dataset parses and every case passes under its scorers', async () => {
  const script = JSON.parse(readFileSync(join(EXAMPLE, 'script.json'), 'utf8'));
  const server = await startModelServer({ steps: script.steps });
  try {
    const run = await evaluate({
      agent: join(EXAMPLE, 'triage.ai'),
      cases: join(EXAMPLE, 'tickets.yaml'),
      concurrency: 1,
      outDir: out,
      runId: 'example',
      resolve: { cwd: EXAMPLE, env: { EVALS_BASE_URL: `${server.url}/v1` } },
    });
    expect(run.cases.map((c) => [c.id, c.passed])).toEqual(
      [
        'double-charge',
        'late-parcel',
        'return-window',
        'locked-out',
        'no-card-numbers',
        'compliment',
        'address-change',
        'refund-pressure',
      ].map((id) => [id, true]),
    );
    const scorers = new Set(run.cases.flatMap((c) => c.runs.flatMap((r) => r.scores.map((s) => s.scorer))));
    // Seven kinds of scorer, the model-judged one among them.
    expect(scorers.size).toBeGreaterThanOrEqual(7);
    const judged = run.cases
      .flatMap((c) => c.runs.flatMap((r) => r.scores))
      .filter((s) => s.scorer.startsWith('judge'));
    expect(judged.map((s) => s.score)).toEqual([0.9, 0.8]);
    expect(run.summary).toMatchObject({ cases: 8, passed: 8, failed: 0, passRate: 1, passHatK: 1 });
    // Every scripted answer was used: no case or judge ran twice or not at all.
    expect(server.requests.length).toBe(script.steps.length);
    const written = JSON.parse(readFileSync(join(out, 'example', 'results.json'), 'utf8'));
    expect(written.summary.passed).toBe(8);
  } finally {
    await server.close();
  }
}, 120_000);
