import type { FileHandle } from 'node:fs/promises';
import { countNewlines, utf8PrefixLength } from '@agent/protocol/util';
import { readBytes } from './chunk-reader.js';

const NEWLINE = 0x0a;

/** The top bytes, ending at a line end when one is in the second half, else at a character boundary. */
function trimHead(bytes: Buffer): Buffer {
  const newline = bytes.lastIndexOf(NEWLINE);
  if (newline >= bytes.length / 2) return bytes.subarray(0, newline + 1);
  return bytes.subarray(0, utf8PrefixLength(bytes));
}

/** The bottom bytes, starting at a line start when one is in the first half, else at a character boundary. */
function trimTail(bytes: Buffer): Buffer {
  const newline = bytes.indexOf(NEWLINE);
  if (newline !== -1 && newline < bytes.length / 2 && newline < bytes.length - 1)
    return bytes.subarray(newline + 1);
  let start = 0;
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return bytes.subarray(start);
}

export interface OutputShape {
  bytes: number;
  lines: number;
}

/** Where the top and bottom bytes come from: the stored file, or the text still in memory. */
export interface HeadTailSource {
  head(bytes: number): Promise<Buffer>;
  tail(bytes: number): Promise<Buffer>;
  all(): Promise<Buffer>;
}

export function fileSource(file: FileHandle, size: number): HeadTailSource {
  return {
    head: (bytes) => readBytes(file, 0, Math.min(size, bytes)),
    tail: (bytes) => readBytes(file, Math.max(0, size - bytes), size),
    all: () => readBytes(file, 0, size),
  };
}

/** Reads only the ends of the string: never a full-size copy. */
export function textSource(text: string): HeadTailSource {
  return {
    head: async (bytes) => {
      const encoded = Buffer.from(text.slice(0, bytes), 'utf8');
      return encoded.subarray(0, Math.min(bytes, encoded.length));
    },
    tail: async (bytes) => {
      const encoded = Buffer.from(text.slice(Math.max(0, text.length - bytes)), 'utf8');
      return encoded.subarray(Math.max(0, encoded.length - bytes));
    },
    all: async () => Buffer.from(text, 'utf8'),
  };
}

/**
 * The truncate strategy: the top and the bottom of the output within `budget` bytes, the middle
 * cut, under an explicit WARNING line that says so and why (`why` is one or two sentences).
 */
export async function truncateOutput(
  source: HeadTailSource,
  shape: OutputShape,
  budget: number,
  why: string,
): Promise<string> {
  if (shape.bytes <= budget) {
    const whole = await source.all();
    return `WARNING: ${why} The output is small enough to show whole (${shape.bytes} bytes, ${shape.lines} lines); nothing was cut.\n\n${whole.toString('utf8')}`;
  }
  const top = trimHead(await source.head(Math.floor(budget / 2)));
  const bottom = trimTail(await source.tail(budget - top.length));
  const cut = shape.bytes - top.length - bottom.length;
  const topLines = countNewlines(top);
  const bottomLines = countNewlines(bottom) + (bottom.at(-1) === NEWLINE ? 0 : 1);
  const warning =
    `WARNING: TRUNCATED OUTPUT. ${why} Shown: the first ${top.length} bytes (${topLines} lines) and the last ` +
    `${bottom.length} bytes (${bottomLines} lines) of ${shape.bytes} bytes (${shape.lines} lines); ` +
    `${cut} bytes in the middle were cut and are NOT shown, so what you need may be missing.`;
  return (
    `${warning}\n\n--- top of the output ---\n${top.toString('utf8')}` +
    `${top.at(-1) === NEWLINE ? '' : '\n'}[... ${cut} bytes cut ...]\n--- bottom of the output ---\n${bottom.toString('utf8')}`
  );
}
