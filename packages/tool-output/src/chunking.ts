import { StrategyError } from './model-call.js';

/** A half-open range [start, end) in bytes of the stored output. */
export interface ChunkRange {
  start: number;
  end: number;
}

/**
 * How many chunks of at most `maxChunk` units cover `total` units when consecutive chunks
 * overlap by `overlap` (a fraction of a chunk, 0 <= overlap < 1). Infinity when no chunk fits.
 */
export function chunkCount(total: number, maxChunk: number, overlap: number): number {
  if (total <= 0) return 1;
  if (maxChunk <= 0) return Number.POSITIVE_INFINITY;
  if (total <= maxChunk) return 1;
  const stride = maxChunk * (1 - overlap);
  return Math.ceil((total - maxChunk) / stride - 1e-9) + 1;
}

/**
 * Chunks of equal size covering [0, total): the count comes from the largest allowed chunk,
 * then the size is rebalanced so every chunk is the same (no tiny last chunk). With n chunks of
 * size S and overlap fraction o: S + (n - 1) * S * (1 - o) = total, and consecutive chunks
 * share o * S units.
 */
export function planChunks(total: number, maxChunk: number, overlap: number): ChunkRange[] {
  const count = chunkCount(total, maxChunk, overlap);
  if (!Number.isFinite(count)) throw new StrategyError(`no chunk fits: the chunk budget is ${maxChunk}`);
  if (count === 1) return [{ start: 0, end: total }];
  const size = total / (1 + (count - 1) * (1 - overlap));
  const stride = size * (1 - overlap);
  const chunks: ChunkRange[] = [];
  for (let index = 0; index < count; index++) {
    const start = Math.round(index * stride);
    const nextStart = Math.round((index + 1) * stride);
    // Never a gap between neighbours, whatever the rounding.
    const end = index === count - 1 ? total : Math.max(nextStart, Math.round(index * stride + size));
    chunks.push({ start, end });
  }
  return chunks;
}
