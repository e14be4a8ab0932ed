import type { FileHandle } from 'node:fs/promises';
import type { ChunkRange } from './chunking.js';

const NEWLINE = 0x0a;

/** Reads bytes [start, end) of an open file. */
export async function readBytes(file: FileHandle, start: number, end: number): Promise<Buffer> {
  const length = Math.max(0, end - start);
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

/** The largest UTF-8 character start at or before `offset` in `bytes` (which starts at `base`). */
function utf8Floor(bytes: Buffer, base: number, offset: number): number {
  let at = offset;
  while (at > base && ((bytes[at - base] ?? 0) & 0xc0) === 0x80) at--;
  return at;
}

/**
 * Moves a cut point to the start of the next line when one begins within `window` bytes,
 * else back to the nearest UTF-8 character start, so no character is ever split. The result
 * never decreases when `offset` grows, so overlapping chunks stay overlapping.
 */
export async function alignCut(
  file: FileHandle,
  offset: number,
  size: number,
  window: number,
): Promise<number> {
  if (offset <= 0 || offset >= size) return Math.max(0, Math.min(offset, size));
  const from = Math.max(0, offset - 3);
  const bytes = await readBytes(file, from, Math.min(size, offset + window));
  const newline = bytes.indexOf(NEWLINE, offset - from);
  if (newline !== -1 && newline - (offset - from) < window) return from + newline + 1;
  return utf8Floor(bytes, from, offset);
}

/** Chunk ranges with every inner cut aligned (see `alignCut`); empty chunks are dropped. */
export async function alignChunks(
  file: FileHandle,
  chunks: readonly ChunkRange[],
  size: number,
  window: number,
): Promise<ChunkRange[]> {
  const aligned: ChunkRange[] = [];
  for (const chunk of chunks) {
    const start = await alignCut(file, chunk.start, size, window);
    const end = await alignCut(file, chunk.end, size, window);
    if (end > start) aligned.push({ start, end });
  }
  return aligned;
}

/** The alignment window for chunks of `chunkBytes`: 5% of a chunk, at most 8 KiB. */
export function alignWindow(chunkBytes: number): number {
  return Math.max(1, Math.min(8192, Math.floor(chunkBytes / 20)));
}
