import type {
  AssistantMessage,
  JournaledToolOutcome,
  LlmAccountingEntry,
  ToolCall,
  TurnJournalEntry,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { SessionRecorder } from '../observe/recorder.js';
import type { RawToolOutcome } from '../tools/call-runner.js';

export type JournalWriter = (entry: TurnJournalEntry) => void | Promise<void>;

/**
 * Writes a session's turn journal (`onJournal`, `docs/sessions.md`, "Exactly once across a
 * crash"): each complete answer before the session acts on it, each external call's outcome
 * before it is sized and shown to the model. Every write is awaited. A write that fails is a
 * `WRN agent:journal` line and the session goes on: that turn is at-least-once, as a session
 * without a journal is.
 */
export class TurnJournal {
  /** A snapshot the next entry must follow into the store (the opening checkpoint): entries replay on it. */
  private before: Promise<unknown> | undefined;

  constructor(
    private readonly write: JournalWriter,
    private readonly sessionId: string,
    private readonly recorder: SessionRecorder,
  ) {}

  /** The next entry is written once `stored` settles. */
  after(stored: Promise<unknown>): void {
    this.before = stored;
  }

  /**
   * An answer of `turn`: written (unless it was itself replayed from the journal, which has it),
   * then `answer_journaled` says it is durable.
   */
  async answered(
    turn: number,
    message: AssistantMessage,
    accounting: LlmAccountingEntry,
    replayed: boolean,
  ): Promise<void> {
    if (!replayed) {
      const entry: TurnJournalEntry = {
        kind: 'answer',
        sessionId: this.sessionId,
        turn,
        message,
        accounting,
      };
      if (!(await this.append(entry, 'llm', `the answer of turn ${turn}`))) return;
    }
    this.recorder.emit({ type: 'answer_journaled', turn });
  }

  /**
   * The raw outcome of an external call that finished. Not written: an outcome of the session's
   * own cancellation (the call did not finish; it runs again on resume), nor a sub-agent that
   * paused (the call runs again, continuing that sub-agent, once decided).
   */
  async toolFinished(
    turn: number,
    call: ToolCall,
    outcome: RawToolOutcome,
    cancelled: boolean,
  ): Promise<void> {
    if (cancelled || outcome.paused !== undefined || outcome.pausedInner !== undefined) return;
    const entry: JournaledToolOutcome = {
      kind: 'tool_outcome',
      sessionId: this.sessionId,
      turn,
      callId: call.id,
      tool: call.name,
      ok: outcome.ok,
      text: outcome.text,
    };
    if (outcome.error !== undefined) entry.error = outcome.error;
    if (outcome.structured !== undefined) entry.structured = outcome.structured;
    if (outcome.endSession !== undefined) entry.endSession = outcome.endSession;
    await this.append(entry, 'tool', `the outcome of call ${call.id} (${call.name}) of turn ${turn}`);
  }

  private async append(entry: TurnJournalEntry, type: 'llm' | 'tool', what: string): Promise<boolean> {
    if (this.before !== undefined) {
      await this.before;
      this.before = undefined;
    }
    try {
      await this.write(entry);
      return true;
    } catch (error) {
      this.recorder.log({
        severity: 'WRN',
        direction: 'request',
        type,
        remoteIdentifier: 'agent:journal',
        message: `writing ${what} to the turn journal failed: ${errorMessage(error)}; a crash in this turn would repeat it`,
      });
      return false;
    }
  }
}
