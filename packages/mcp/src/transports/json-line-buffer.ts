import { McpUnavailableError } from '../client/tool-errors.js';

/**
 * Splits a byte stream into newline-terminated lines without re-copying what it already holds:
 * pieces are kept until a newline arrives and joined once, so a 50 MB message costs one copy
 * (the SDK's buffer concatenates on every chunk, which is quadratic for large messages).
 */
export class JsonLineBuffer {
  private pieces: Buffer[] = [];
  private pending = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** Feeds a chunk; returns the complete lines it finished. Throws when a line exceeds the limit. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      if (newline === -1) {
        this.keep(chunk.subarray(start));
        break;
      }
      this.keep(chunk.subarray(start, newline));
      const line = (
        this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.pending)
      ).toString('utf8');
      this.pieces = [];
      this.pending = 0;
      lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
      start = newline + 1;
    }
    return lines;
  }

  clear(): void {
    this.pieces = [];
    this.pending = 0;
  }

  private keep(piece: Buffer): void {
    if (piece.length === 0 && this.pieces.length > 0) return;
    this.pending += piece.length;
    if (this.pending > this.maxLineBytes) {
      this.clear();
      throw new McpUnavailableError(
        `a message from the server exceeded the limit of ${this.maxLineBytes} bytes`,
      );
    }
    this.pieces.push(piece);
  }
}
