/**
 * Decides which entries of a job's stream a face reads: the entries of the worker that owns the
 * job, each once. Every writer (one per attempt of the job on a worker) tags its entries with
 * the job's attempt (`a`), its own id (`w`) and a rising number (`s`).
 *
 * - A writer of a later attempt takes the job over: BullMQ gave the job to another worker (the
 *   first one's lock expired: it died, or froze past its lock). From then on the earlier
 *   writers' entries are skipped: a frozen worker that wakes goes on running its stale session
 *   and writing its text, its `answer_journaled` and its result, none of which is the new
 *   owner's, and which would otherwise interleave with it or end the follow early.
 * - An entry not above the last number of its writer is a repeat: a write that a dying cluster
 *   master ran but never answered is sent again by the client to the promoted replica.
 * - An entry without these tags (a worker of an older release) is read as it comes.
 */
export class StreamFence {
  private writer: string | undefined;
  private attempt = 0;
  private seq = 0;

  /** True when the entry is not the owner's, or was read already. */
  skips(fields: readonly string[]): boolean {
    const writer = streamField(fields, 'w');
    const seq = Number(streamField(fields, 's'));
    if (writer === undefined || !Number.isInteger(seq)) return false;
    if (writer === this.writer) {
      if (seq <= this.seq) return true;
      this.seq = seq;
      return false;
    }
    const attempt = Number(streamField(fields, 'a'));
    // Each take-over starts a later attempt (BullMQ counts them): anything else is a stale writer.
    if (this.writer !== undefined && !(attempt > this.attempt)) return true;
    this.writer = writer;
    this.attempt = attempt;
    this.seq = seq;
    return false;
  }
}

/** The value of a stream entry's field, if it has it. */
export function streamField(fields: readonly string[], name: string): string | undefined {
  for (let at = 0; at + 1 < fields.length; at += 2) if (fields[at] === name) return fields[at + 1];
  return undefined;
}
