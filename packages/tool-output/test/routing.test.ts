import { describe, expect, test } from 'vitest';
import { route } from '../src/routing.js';

describe('auto routing', () => {
  const table: {
    name: string;
    chunkCount: number;
    maxChunks: number;
    avgLineBytes: number;
    threshold: number;
    expected: 'full-chunked' | 'read-grep';
  }[] = [
    {
      name: 'fits one chunk, short lines',
      chunkCount: 1,
      maxChunks: 1,
      avgLineBytes: 60,
      threshold: 1000,
      expected: 'full-chunked',
    },
    {
      name: 'fits one chunk, long lines',
      chunkCount: 1,
      maxChunks: 1,
      avgLineBytes: 5000,
      threshold: 1000,
      expected: 'full-chunked',
    },
    {
      name: 'two chunks, short lines',
      chunkCount: 2,
      maxChunks: 1,
      avgLineBytes: 60,
      threshold: 1000,
      expected: 'read-grep',
    },
    {
      name: 'many chunks, single huge line',
      chunkCount: 40,
      maxChunks: 1,
      avgLineBytes: 5_000_000,
      threshold: 1000,
      expected: 'full-chunked',
    },
    {
      name: 'average line exactly at the threshold',
      chunkCount: 3,
      maxChunks: 1,
      avgLineBytes: 1000,
      threshold: 1000,
      expected: 'read-grep',
    },
    {
      name: 'average line one byte over',
      chunkCount: 3,
      maxChunks: 1,
      avgLineBytes: 1001,
      threshold: 1000,
      expected: 'full-chunked',
    },
    {
      name: 'maxChunks raised to 4, three chunks',
      chunkCount: 3,
      maxChunks: 4,
      avgLineBytes: 60,
      threshold: 1000,
      expected: 'full-chunked',
    },
    {
      name: 'maxChunks 4, five chunks',
      chunkCount: 5,
      maxChunks: 4,
      avgLineBytes: 60,
      threshold: 1000,
      expected: 'read-grep',
    },
    {
      name: 'threshold lowered to 50',
      chunkCount: 5,
      maxChunks: 1,
      avgLineBytes: 60,
      threshold: 50,
      expected: 'full-chunked',
    },
    {
      name: 'no chunk fits (prompt too long), short lines',
      chunkCount: Number.POSITIVE_INFINITY,
      maxChunks: 1,
      avgLineBytes: 60,
      threshold: 1000,
      expected: 'read-grep',
    },
  ];

  test.each(table)('$name → $expected', ({ chunkCount, maxChunks, avgLineBytes, threshold, expected }) => {
    const chosen = route({ chunkCount, maxChunks, avgLineBytes, avgLineBytesThreshold: threshold });
    expect(chosen.strategy).toBe(expected);
    expect(chosen.reason.length).toBeGreaterThan(0);
  });
});
