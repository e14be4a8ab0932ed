import { createReadStream } from 'node:fs';
import { FsToolError } from './fs-errors.js';

export interface NumberedLine {
  number: number;
  text: string;
  /** Set when the line was cut: its full length in bytes. */
  fullBytes?: number;
}

export interface LineRange {
  lines: NumberedLine[];
  /** Total number of lines, when the whole file was scanned. */
  totalLines?: number;
}

export interface LineRangeOptions {
  /** First line to return, 1-based. */
  offset: number;
  limit: number;
  maxLineChars: number;
  /** Keep counting lines after the range only when the file is at most this large. */
  countTotal: boolean;
  signal?: AbortSignal;
}

const CHUNK_BYTES = 256 * 1024;
const BINARY_PROBE_BYTES = 8000;

function decodeLine(
  pieces: Buffer[],
  kept: number,
  fullBytes: number,
  maxChars: number,
): Omit<NumberedLine, 'number'> {
  let text = Buffer.concat(pieces, kept).toString('utf8');
  if (text.endsWith('\r') && kept === fullBytes) text = text.slice(0, -1);
  if (kept < fullBytes || text.length > maxChars) return { text: text.slice(0, maxChars), fullBytes };
  return { text };
}

/**
 * Reads lines `offset .. offset+limit-1` of a text file by streaming it in chunks: only those
 * lines are decoded, each kept to `maxLineChars` (a 5 MB line costs a few KB), and the rest of
 * the file is at most scanned for newlines. Refuses files that look binary (NUL bytes early on).
 */
export async function readLineRange(path: string, options: LineRangeOptions): Promise<LineRange> {
  const { offset, limit, maxLineChars, countTotal, signal } = options;
  const last = offset + limit - 1;
  const maxKeepBytes = maxLineChars * 4;
  const lines: NumberedLine[] = [];
  let lineNo = 1;
  let pieces: Buffer[] = [];
  let kept = 0;
  let lineBytes = 0;
  let first = true;
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES, ...(signal ? { signal } : {}) });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (first) {
        first = false;
        if (chunk.subarray(0, BINARY_PROBE_BYTES).includes(0)) {
          throw new FsToolError('binary file: Read shows text files only.');
        }
      }
      let start = 0;
      while (start <= chunk.length) {
        const newline = chunk.indexOf(10, start);
        const end = newline === -1 ? chunk.length : newline;
        const inRange = lineNo >= offset && lineNo <= last;
        if (inRange && kept < maxKeepBytes && end > start) {
          const piece = chunk.subarray(start, Math.min(end, start + maxKeepBytes - kept));
          pieces.push(piece);
          kept += piece.length;
        }
        lineBytes += end - start;
        if (newline === -1) break;
        if (inRange) lines.push({ number: lineNo, ...decodeLine(pieces, kept, lineBytes, maxLineChars) });
        pieces = [];
        kept = 0;
        lineBytes = 0;
        lineNo++;
        start = newline + 1;
        if (lineNo > last && !countTotal) return { lines };
      }
    }
  } finally {
    stream.destroy();
  }
  if (lineBytes > 0) {
    if (lineNo >= offset && lineNo <= last)
      lines.push({ number: lineNo, ...decodeLine(pieces, kept, lineBytes, maxLineChars) });
    return { lines, totalLines: lineNo };
  }
  return { lines, totalLines: lineNo - 1 };
}
