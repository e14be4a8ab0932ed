import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { alignChunks, alignWindow, readBytes } from '../src/chunk-reader.js';
import { chunkCount, planChunks } from '../src/chunking.js';
import { planChunkBudget } from '../src/full-chunked.js';
import type { StoredOutput } from '../src/handles.js';
import { scriptedTarget, tempDir } from './helpers.js';

function sizes(chunks: { start: number; end: number }[]): number[] {
  return chunks.map((c) => c.end - c.start);
}

describe('chunk planning', () => {
  test('one chunk when the document fits', () => {
    expect(planChunks(1000, 1000, 0.1)).toEqual([{ start: 0, end: 1000 }]);
    expect(chunkCount(1000, 1000, 0.1)).toBe(1);
  });

  test('a document slightly over the budget becomes two equal halves, not one full chunk and a sliver', () => {
    const chunks = planChunks(1050, 1000, 0.1);
    expect(chunks).toHaveLength(2);
    const [a, b] = sizes(chunks);
    expect(Math.abs(a! - b!)).toBeLessThanOrEqual(1);
    // S + S * 0.9 = 1050 → S ≈ 552.6, overlap ≈ 55
    expect(a).toBeGreaterThan(550);
    expect(Math.abs(chunks[0]!.end - chunks[1]!.start - 55)).toBeLessThanOrEqual(1);
  });

  test('10% overlap: count, equal sizes and the overlap amount', () => {
    // 10_000 units, at most 1_000 per chunk, stride 900: ceil((10000 - 1000) / 900) + 1 = 11 chunks.
    const chunks = planChunks(10_000, 1_000, 0.1);
    expect(chunks).toHaveLength(11);
    const s = sizes(chunks);
    expect(Math.max(...s) - Math.min(...s)).toBeLessThanOrEqual(1);
    // S = 10000 / (1 + 10 * 0.9) = 1000 exactly here.
    expect(s.every((size) => size <= 1000)).toBe(true);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i - 1]!.end - chunks[i]!.start).toBeGreaterThanOrEqual(99);
      expect(chunks[i - 1]!.end - chunks[i]!.start).toBeLessThanOrEqual(101);
    }
    expect(chunks[0]!.start).toBe(0);
    expect(chunks.at(-1)!.end).toBe(10_000);
  });

  test('no overlap: chunks tile the document', () => {
    const chunks = planChunks(2500, 1000, 0);
    expect(chunks).toEqual([
      { start: 0, end: 833 },
      { start: 833, end: 1667 },
      { start: 1667, end: 2500 },
    ]);
  });

  test('property: chunks cover the document, never exceed the budget, are equal, overlap as configured', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 1_000, max: 200_000 }),
        fc.integer({ min: 0, max: 50 }),
        (total, max, percent) => {
          const overlap = percent / 100;
          const chunks = planChunks(total, max, overlap);
          expect(chunks).toHaveLength(chunkCount(total, max, overlap));
          expect(chunks[0]!.start).toBe(0);
          expect(chunks.at(-1)!.end).toBe(total);
          const s = sizes(chunks);
          expect(Math.max(...s)).toBeLessThanOrEqual(max + 1);
          expect(Math.max(...s) - Math.min(...s)).toBeLessThanOrEqual(2);
          for (let i = 1; i < chunks.length; i++) {
            const shared = chunks[i - 1]!.end - chunks[i]!.start;
            expect(shared).toBeGreaterThanOrEqual(0);
            expect(Math.abs(shared - overlap * s[i]!)).toBeLessThanOrEqual(2);
          }
          // Fewer chunks would not fit: one less chunk would need chunks over the budget.
          if (chunks.length > 1) {
            const fewer = chunks.length - 1;
            expect(total / (1 + (fewer - 1) * (1 - overlap))).toBeGreaterThan(max - 1e-6);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('chunk alignment on the stored file', () => {
  test('cuts move to line starts; every byte is in some chunk', async () => {
    const dir = tempDir();
    const path = join(dir, 'doc');
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(i % 50)}`).join('\n');
    await writeFile(path, text);
    const size = Buffer.byteLength(text);
    const file = await open(path, 'r');
    try {
      const planned = planChunks(size, 20_000, 0.1);
      const aligned = await alignChunks(file, planned, size, alignWindow(20_000));
      expect(aligned).toHaveLength(planned.length);
      for (const [i, chunk] of aligned.entries()) {
        if (i > 0) {
          const before = await readBytes(file, chunk.start - 1, chunk.start);
          expect(before.toString()).toBe('\n');
          expect(aligned[i - 1]!.end).toBeGreaterThan(chunk.start);
        }
      }
      expect(aligned[0]!.start).toBe(0);
      expect(aligned.at(-1)!.end).toBe(size);
    } finally {
      await file.close();
    }
  });

  test('a single line is cut at UTF-8 character boundaries', async () => {
    const dir = tempDir();
    const path = join(dir, 'doc');
    const text = 'é€😀'.repeat(5000);
    await writeFile(path, text);
    const size = Buffer.byteLength(text);
    const file = await open(path, 'r');
    try {
      const aligned = await alignChunks(file, planChunks(size, 7_001, 0.1), size, alignWindow(7_001));
      let joined = '';
      for (const chunk of aligned) {
        const part = (await readBytes(file, chunk.start, chunk.end)).toString('utf8');
        expect(part.includes('\uFFFD')).toBe(false);
        joined += part;
      }
      expect(joined.length).toBeGreaterThan(text.length);
    } finally {
      await file.close();
    }
  });
});

describe('chunk budget', () => {
  const record: StoredOutput = {
    handle: '11111111-1111-4111-8111-111111111111',
    toolName: 'fetch',
    argumentsJson: '{}',
    bytes: 4_000_000,
    lines: 1,
    tokens: 1_000_000,
    avgLineBytes: 4_000_000,
    createdAt: 0,
  };

  test('budget = window - buffer - output tokens - prompt tokens; bytes per token from the estimate', () => {
    const { target } = scriptedTarget([], { contextWindow: 100_000, contextBuffer: 0 });
    const plan = planChunkBudget(record, 'the ids', {
      targets: [target],
      nonce: 'n',
      overlapPercent: 10,
      outputTokens: 4096,
      concurrency: 1,
      estimateTokens: (t) => Math.ceil(t.length / 4),
    });
    expect(plan.budgetTokens).toBeLessThan(100_000 - 4096);
    expect(plan.budgetTokens).toBeGreaterThan(100_000 - 4096 - 400);
    expect(plan.maxChunkBytes).toBe(Math.floor(plan.budgetTokens * 4 * 0.95));
    expect(plan.count).toBe(chunkCount(record.bytes, plan.maxChunkBytes, 0.1));
  });

  test('the smallest extraction window sets the budget; no room means no chunk', () => {
    const big = scriptedTarget([], { contextWindow: 200_000 }).target;
    const small = scriptedTarget([], { contextWindow: 4_500 }).target;
    const settings = {
      nonce: 'n',
      overlapPercent: 10,
      outputTokens: 4096,
      concurrency: 1,
      estimateTokens: (t: string) => Math.ceil(t.length / 4),
    };
    const plan = planChunkBudget(record, 'x', { ...settings, targets: [big, small] });
    expect(plan.count).toBe(Number.POSITIVE_INFINITY);
    expect(planChunkBudget(record, 'x', { ...settings, targets: [big] }).count).toBeGreaterThan(1);
  });
});
