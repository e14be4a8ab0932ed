/** Pieces up to this length are copied into the buffer; longer ones are kept as they are. */
const SMALL_PIECE = 8;
const BUFFER_UNITS = 4096;

/**
 * Collects text pieces in linear time and compact memory. Streams often deliver one
 * character per chunk: such small pieces are copied into a UTF-16 buffer that becomes one
 * string when full, instead of keeping millions of tiny strings; larger pieces are kept as
 * they are. Everything is joined once, at the end. Lone surrogates survive unchanged.
 */
export class TextAccumulator {
  private readonly parts: string[] = [];
  private buffer: Uint16Array | undefined;
  private used = 0;
  private joined: string | undefined;

  add(text: string): void {
    const length = text.length;
    if (length === 0) return;
    this.joined = undefined;
    if (length > SMALL_PIECE) {
      this.flushBuffer();
      this.parts.push(text);
      return;
    }
    if (this.used + length > BUFFER_UNITS) this.flushBuffer();
    let buffer = this.buffer;
    if (buffer === undefined) {
      buffer = new Uint16Array(BUFFER_UNITS);
      this.buffer = buffer;
    }
    let used = this.used;
    for (let k = 0; k < length; k++) buffer[used++] = text.charCodeAt(k);
    this.used = used;
  }

  toString(): string {
    if (this.joined === undefined) {
      this.flushBuffer();
      this.joined = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
      this.parts.length = 0;
      if (this.joined.length > 0) this.parts.push(this.joined);
    }
    return this.joined;
  }

  private flushBuffer(): void {
    if (this.used === 0 || this.buffer === undefined) return;
    this.parts.push(
      String.fromCharCode.apply(null, this.buffer.subarray(0, this.used) as unknown as number[]),
    );
    this.used = 0;
  }
}
