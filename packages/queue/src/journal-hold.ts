import type { AgentEvent, AgentEventMeta } from '@agent/protocol';

type Send = (event: AgentEvent, meta: AgentEventMeta) => void;
type Held = { event: AgentEvent; meta: AgentEventMeta; attempt: string };
/** The text events a resumed session replays from its journal (meta source `journal`). */
type TextType = 'output' | 'thinking' | 'assistant_text';

/** What the client got of one attempt's report text, and whether it was told to drop it. */
interface AttemptText {
  sent: number;
  retracted: boolean;
}

/**
 * Holds back the report text of a session that journals its turns, so a client that cannot take
 * text back never sees text a dead worker's successor would write differently.
 *
 * - Master `output` (source `stream`) of the current attempt is held until the session says the
 *   model's answer is in the journal (`answer_journaled`), then released in order. `finalize`
 *   output (sent once at the end) is held until the result.
 * - On a move (the worker died) held text is dropped without a word: nothing of it was sent,
 *   and the next worker asks the model again for that turn (its answer was never journaled).
 * - An `output_retracted` for text still held drops that text and is not passed on; for text
 *   released it goes on, counting only what the client got.
 * - Text a resumed session replays from the journal (source `journal`) goes out only past what
 *   the client already has of that turn, counted in characters per turn and type: a partial
 *   release is completed, nothing is sent twice. `thinking` and `assistant_text` are not held
 *   (they are not the report and are never retracted) but their replays are counted the same way.
 * - Until `start()` (the worker announces a journaling session) everything passes as it comes.
 */
export class JournalHold {
  private journaling = false;
  private held: Held[] = [];
  private heldFinal: Held[] = [];
  private turn = 0;
  private attempt = '0:0';
  /** Attempts whose answer is journaled: their output goes out at once. */
  private readonly released = new Set<string>();
  private readonly attempts = new Map<string, AttemptText>();
  /** Per turn and text type: characters sent to the client, and characters replayed by the current worker. */
  private readonly sentByTurn = new Map<string, number>();
  private readonly replayedByTurn = new Map<string, number>();

  constructor(private readonly send: Send) {}

  /** True once the session on the current worker announced that it journals. */
  get holding(): boolean {
    return this.journaling;
  }

  /** The session journals its turns: hold from now on. */
  start(): void {
    this.journaling = true;
  }

  event(event: AgentEvent, meta: AgentEventMeta): void {
    if (!meta.isMaster) {
      this.send(event, meta);
      return;
    }
    switch (event.type) {
      case 'turn_started':
        this.turn = event.turn;
        this.attempt = `${event.turn}:${event.attempt}`;
        this.send(event, meta);
        return;
      case 'answer_journaled':
        this.release();
        this.released.add(this.attempt);
        this.send(event, meta);
        return;
      case 'output_retracted':
        this.retract(event, meta);
        return;
      case 'output':
      case 'thinking':
      case 'assistant_text':
        this.text(event, meta);
        return;
      default:
        this.send(event, meta);
    }
  }

  /**
   * The session moved to another worker: held text is dropped unsent. Returns whether this
   * worker's session journaled (if not, the caller withdraws streamed text as before).
   */
  moved(): boolean {
    const wasJournaling = this.journaling;
    this.held = [];
    this.heldFinal = [];
    this.journaling = false;
    // The next worker replays its journal from the turn's start.
    this.replayedByTurn.clear();
    return wasJournaling;
  }

  /** The result came: everything still held goes out (the session's journal writes failed). */
  finish(): void {
    this.release();
    const final = this.heldFinal;
    this.heldFinal = [];
    for (const item of final) this.forward(item.event, item.meta);
  }

  private text(event: AgentEvent & { type: TextType }, meta: AgentEventMeta): void {
    if (meta.source === 'journal') {
      this.replayed(event, meta);
      return;
    }
    if (event.type !== 'output' || !this.journaling) {
      this.forward(event, meta);
      return;
    }
    if (meta.source === 'finalize') this.heldFinal.push({ event, meta, attempt: this.attempt });
    else if (this.released.has(this.attempt)) this.forward(event, meta);
    else this.held.push({ event, meta, attempt: this.attempt });
  }

  /** A journal replay: only the part past what the client has of this turn goes out. */
  private replayed(event: AgentEvent & { type: TextType }, meta: AgentEventMeta): void {
    const key = `${this.turn}:${event.type}`;
    const from = this.replayedByTurn.get(key) ?? 0;
    this.replayedByTurn.set(key, from + event.text.length);
    const skip = (this.sentByTurn.get(key) ?? 0) - from;
    if (skip >= event.text.length) return;
    this.forward(skip > 0 ? { ...event, text: event.text.slice(skip) } : event, meta);
  }

  private retract(event: AgentEvent & { type: 'output_retracted' }, meta: AgentEventMeta): void {
    const got = this.attempts.get(this.attempt);
    if (!this.journaling) {
      if (got !== undefined) got.retracted = true;
      this.send(event, meta);
      return;
    }
    // Held text of the attempt was never sent: it is dropped, and there is nothing to withdraw.
    this.held = this.held.filter((item) => item.attempt !== this.attempt);
    if (got === undefined || got.sent === 0 || got.retracted) return;
    got.retracted = true;
    this.send(got.sent === event.characters ? event : { ...event, characters: got.sent }, meta);
  }

  private release(): void {
    const held = this.held;
    this.held = [];
    for (const item of held) this.forward(item.event, item.meta, item.attempt);
  }

  private forward(event: AgentEvent, meta: AgentEventMeta, attempt = this.attempt): void {
    if (event.type === 'output' || event.type === 'thinking' || event.type === 'assistant_text') {
      if (meta.source !== 'finalize') {
        const turn = attempt.slice(0, attempt.indexOf(':'));
        const key = `${turn}:${event.type}`;
        this.sentByTurn.set(key, (this.sentByTurn.get(key) ?? 0) + event.text.length);
      }
      if (event.type === 'output' && meta.source !== 'finalize') {
        const got = this.attempts.get(attempt) ?? { sent: 0, retracted: false };
        got.sent += event.text.length;
        this.attempts.set(attempt, got);
      }
    }
    this.send(event, meta);
  }
}
