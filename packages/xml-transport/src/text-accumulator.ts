/** Pieces up to this length wait in a short list, joined once they make `SMALL_RUN` characters. */
const SMALL_PIECE = 8;
/** Small pieces are joined into strings of about this many characters. */
const SMALL_RUN = 64;
/** Pieces are joined into strings of about this many characters as they come. */
const BATCH_CHARS = 65_536;

/**
 * Collects text pieces in linear time and compact memory. Streams deliver many small
 * pieces (often one character, usually a few tokens): keeping each as its own string costs
 * a header per piece and an array slot, several times the text itself. So tiny pieces wait in
 * a short list only until they make 64 characters, and are joined into one string then; runs
 * and larger pieces are joined in batches of about 64K characters as they come; only pieces of
 * a batch's size or more are kept as they are. Everything is joined once, at the end. No typed
 * buffer: an ArrayBuffer per stream cost more than the rest of a short stream's accumulation.
 * Lone surrogates survive unchanged.
 */
export class TextAccumulator {
  /** Joined batches and large pieces, in order. */
  private readonly parts: string[] = [];
  /** Pieces of the current batch, in order (made with its first piece: an empty list's first push reserves 17 slots). */
  private batch: string[] | undefined;
  private batchChars = 0;
  /** Small pieces not joined yet, in order (they come after the batch's). */
  private small: string[] | undefined;
  private smallChars = 0;
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
      if (this.small === undefined) this.small = [text];
      else this.small.push(text);
      this.smallChars += length;
      if (this.smallChars >= SMALL_RUN) this.flushSmall();
      return;
    }
    this.flushSmall();
    if (length >= BATCH_CHARS) {
      this.flushBatch();
      this.parts.push(text);
      return;
    }
    this.addToBatch(text);
  }

  toString(): string {
    if (this.joined === undefined) {
      this.flushSmall();
      this.flushBatch();
      this.joined = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
      this.parts.length = 0;
      if (this.joined.length > 0) this.parts.push(this.joined);
    }
    return this.joined;
  }

  private addToBatch(text: string): void {
    if (this.batch === undefined) this.batch = [text];
    else this.batch.push(text);
    this.batchChars += text.length;
    if (this.batchChars >= BATCH_CHARS) this.flushBatch();
  }

  private flushBatch(): void {
    const batch = this.batch;
    if (batch === undefined) return;
    this.parts.push(batch.length === 1 ? batch[0]! : batch.join(''));
    this.batch = undefined;
    this.batchChars = 0;
  }

  private flushSmall(): void {
    const small = this.small;
    if (small === undefined) return;
    this.small = undefined;
    this.smallChars = 0;
    this.addToBatch(small.length === 1 ? small[0]! : small.join(''));
  }
}
