/** Pieces up to this length are copied into the buffer. */
const SMALL_PIECE = 8;
/** The buffer starts this small and doubles up to `BUFFER_UNITS` (most streams are short). */
const FIRST_BUFFER_UNITS = 64;
const BUFFER_UNITS = 4096;
/** Pieces are joined into strings of about this many characters as they come. */
const BATCH_CHARS = 65_536;

/**
 * Collects text pieces in linear time and compact memory. Streams deliver many small
 * pieces (often one character, usually a few tokens): keeping each as its own string costs
 * a header per piece and an array slot, several times the text itself. So tiny pieces are
 * copied into a UTF-16 buffer (grown by doubling, so a short stream holds a small one), and pieces are joined in batches of about 64K characters as
 * they come; only pieces of a batch's size or more are kept as they are. Everything is
 * joined once, at the end. Lone surrogates survive unchanged.
 */
export class TextAccumulator {
  /** Joined batches and large pieces, in order. */
  private readonly parts: string[] = [];
  /** Pieces of the current batch, in order (the buffer's text comes first when flushed). */
  private batch: string[] = [];
  private batchChars = 0;
  private buffer: Uint16Array | undefined;
  private used = 0;
  private joined: string | undefined;
  private total = 0;

  /** Characters added so far. */
  get length(): number {
    return this.total;
  }

  add(text: string): void {
    const length = text.length;
    if (length === 0) return;
    this.joined = undefined;
    this.total += length;
    if (length <= SMALL_PIECE) {
      if (this.used + length > BUFFER_UNITS) this.flushBuffer();
      let used = this.used;
      let buffer = this.buffer;
      if (buffer === undefined || used + length > buffer.length) buffer = this.grow(used + length);
      for (let k = 0; k < length; k++) buffer[used++] = text.charCodeAt(k);
      this.used = used;
      return;
    }
    this.flushBuffer();
    if (length >= BATCH_CHARS) {
      this.flushBatch();
      this.parts.push(text);
      return;
    }
    this.addToBatch(text);
  }

  toString(): string {
    if (this.joined === undefined) {
      this.flushBuffer();
      this.flushBatch();
      this.joined = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
      this.parts.length = 0;
      if (this.joined.length > 0) this.parts.push(this.joined);
    }
    return this.joined;
  }

  private addToBatch(text: string): void {
    this.batch.push(text);
    this.batchChars += text.length;
    if (this.batchChars >= BATCH_CHARS) this.flushBatch();
  }

  private flushBatch(): void {
    if (this.batch.length === 0) return;
    this.parts.push(this.batch.length === 1 ? this.batch[0]! : this.batch.join(''));
    this.batch = [];
    this.batchChars = 0;
  }

  /** A buffer of at least `units` (doubled, at most `BUFFER_UNITS`), holding what was buffered. */
  private grow(units: number): Uint16Array {
    const size = Math.min(BUFFER_UNITS, Math.max(FIRST_BUFFER_UNITS, (this.buffer?.length ?? 0) * 2, units));
    const grown = new Uint16Array(size);
    if (this.buffer !== undefined) grown.set(this.buffer.subarray(0, this.used));
    this.buffer = grown;
    return grown;
  }

  private flushBuffer(): void {
    if (this.used === 0 || this.buffer === undefined) return;
    const text = String.fromCharCode.apply(null, this.buffer.subarray(0, this.used) as unknown as number[]);
    this.used = 0;
    this.addToBatch(text);
  }
}
