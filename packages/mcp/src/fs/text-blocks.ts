import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { countNewlines, utf8PrefixLength } from '@agent/protocol/util';

/** A run of whole lines of a file (the last one may continue in the next block if `partial`). */
export interface TextBlock {
  text: string;
  /** Line number of the block's first line (always 1 when reading without numbering). */
  firstLine: number;
  /** The block's last line is longer than the block limit and continues in the next block. */
  partial: boolean;
}

const CHUNK_BYTES = 1024 * 1024;
/** A line longer than this is scanned in pieces of this size instead of held whole. */
export const MAX_BLOCK_BYTES = 8 * 1024 * 1024;
const NEWLINE = 10;

/** ASCII (most logs) decodes fastest as latin1, to the same string. */
function decode(bytes: Buffer, end = bytes.length): string {
  const view = end === bytes.length ? bytes : bytes.subarray(0, end);
  return isAscii(view) ? view.toString('latin1') : view.toString('utf8');
}

/**
 * Streams a file as blocks of whole lines (about 1 MB each), so matching can run over a block at
 * once instead of line by line, and memory stays bounded whatever the file or line size. Blocks
 * are cut at newline bytes before decoding (a newline is never part of a multi-byte UTF-8
 * character), so each block is decoded once, with no carry-over string concatenation.
 */
export async function* readTextBlocks(
  path: string,
  options: { signal?: AbortSignal; numbered?: boolean } = {},
): AsyncGenerator<TextBlock> {
  const { signal, numbered = true } = options;
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let line = 1;
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES, ...(signal ? { signal } : {}) });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const cut = chunk.lastIndexOf(NEWLINE);
      if (cut === -1) {
        carry.push(chunk);
        carryBytes += chunk.length;
        if (carryBytes >= MAX_BLOCK_BYTES) {
          const joined = Buffer.concat(carry, carryBytes);
          const boundary = utf8PrefixLength(joined);
          yield { text: decode(joined, boundary), firstLine: line, partial: true };
          carry = [joined.subarray(boundary)];
          carryBytes = joined.length - boundary;
        }
        continue;
      }
      const head = chunk.subarray(0, cut + 1);
      const bytes = carryBytes > 0 ? Buffer.concat([...carry, head], carryBytes + head.length) : head;
      carry = [chunk.subarray(cut + 1)];
      carryBytes = chunk.length - cut - 1;
      yield { text: decode(bytes), firstLine: line, partial: false };
      if (numbered) line += countNewlines(bytes);
    }
    if (carryBytes > 0)
      yield { text: decode(Buffer.concat(carry, carryBytes)), firstLine: line, partial: false };
  } finally {
    stream.destroy();
  }
}
