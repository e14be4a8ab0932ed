import type { GuardrailSubject, GuardrailTrip, OpNode } from '@agent/protocol';
import type { GuardrailRunner } from './guardrail-runner.js';

/** Report text is checked in pieces of at least this many characters (and at the stream's end). */
export const STREAM_BATCH_CHARS = 256;
/** Characters already shown that a check sees again before the new piece (a match across pieces). */
export const STREAM_OVERLAP_CHARS = 256;

type StreamSubject = Extract<GuardrailSubject, { phase: 'stream' }>;

const NO_REWRITE = (): string => 'a stream check holds the rest instead of rewriting it';

/**
 * Holds a report's streamed text until the `stream` guardrails passed it: each piece (at least
 * `STREAM_BATCH_CHARS`, or what is left at the end) is checked with up to `STREAM_OVERLAP_CHARS`
 * shown before it, then sent. Every character is checked about twice at most: linear. A block
 * stops the stream (`trip`); a rewrite holds the rest for the report check (`held`).
 */
export class StreamGuard {
  private pending = '';
  private tail = '';
  private running: Promise<void> | undefined;
  private ending = false;
  /** Characters sent as `output` events. */
  shown = 0;
  held = false;
  trip: GuardrailTrip | undefined;

  constructor(
    private readonly guards: GuardrailRunner,
    private readonly parent: OpNode,
    private readonly send: (text: string) => void,
  ) {}

  add(text: string): void {
    if (this.held || this.trip !== undefined) return;
    this.pending += text;
    if (this.running === undefined && this.pending.length >= STREAM_BATCH_CHARS) this.running = this.drain();
  }

  /** The stream ended: what is left is checked and sent. */
  async finish(): Promise<void> {
    this.ending = true;
    if (this.running !== undefined) await this.running;
    if (this.pending.length > 0 && !this.held && this.trip === undefined) await this.drain();
  }

  /** The answer broke off: nothing more is checked nor sent. */
  stop(): void {
    this.held = true;
    this.pending = '';
  }

  private async drain(): Promise<void> {
    while (
      !this.held &&
      this.trip === undefined &&
      (this.pending.length >= STREAM_BATCH_CHARS || (this.ending && this.pending.length > 0))
    ) {
      const piece = this.pending;
      this.pending = '';
      const subject: StreamSubject = { phase: 'stream', text: this.tail + piece, overlap: this.tail.length };
      const decision = await this.guards.run(subject, this.parent, NO_REWRITE);
      if (decision.kind === 'trip') this.trip = decision.trip;
      else if (decision.kind !== 'go') this.held = true;
      if (decision.kind !== 'go' || this.held) break;
      this.shown += piece.length;
      this.send(piece);
      const seen = this.tail + piece;
      this.tail = seen.length <= STREAM_OVERLAP_CHARS ? seen : seen.slice(-STREAM_OVERLAP_CHARS);
    }
    this.running = undefined;
  }
}
