import type { AgentEvent, AgentEventMeta } from '@agent/protocol';
import type { JobStreamEntry, RunJobData } from './job.js';
import { JournalHold } from './journal-hold.js';

/**
 * Turns a job's stream entries into the events a face forwards. A session that journals its
 * turns has its report text held until each answer is journaled (`JournalHold`): a move to
 * another worker then drops unsent text silently, and the next worker's journal replay completes
 * what the client has. A session that does not journal streams as it comes, and a move withdraws
 * the text the dead worker streamed in its unfinished turn (`output_retracted`, as a session
 * retrying a turn does); the new worker then re-runs that turn from the last checkpoint. Either
 * way a `status` event says the session moved.
 */
export class EventRelay {
  private streamedSinceTurn = 0;
  private lastMeta: AgentEventMeta;
  private readonly hold: JournalHold;

  constructor(
    data: RunJobData,
    sessionId: string,
    private readonly onEvent: ((event: AgentEvent, meta: AgentEventMeta) => void) | undefined,
  ) {
    this.lastMeta = {
      isMaster: true,
      isFinal: false,
      sessionId,
      agentPath: data.agent,
      ...(data.headendId === undefined ? {} : { headendId: data.headendId }),
    };
    this.hold = new JournalHold((event, meta) => this.emit(event, meta));
  }

  /** One entry before the result, in stream order. */
  entry(entry: JobStreamEntry): void {
    if (entry.kind === 'journaling') {
      this.hold.start();
      return;
    }
    if (entry.kind === 'event') {
      const { event, meta } = entry;
      if (meta.isMaster) {
        this.lastMeta = meta;
        if (event.type === 'turn_started' || event.type === 'output_retracted') this.streamedSinceTurn = 0;
        if (event.type === 'output') this.streamedSinceTurn += event.text.length;
      }
      this.hold.event(event, meta);
      return;
    }
    if (entry.kind === 'moved') this.moved(entry.worker, entry.fromTurn);
  }

  /** The result came: text still held goes out before it. */
  finish(): void {
    this.hold.finish();
  }

  private moved(worker: string, fromTurn: number): void {
    const meta = { ...this.lastMeta, isMaster: true };
    const journaled = this.hold.moved();
    if (!journaled && this.streamedSinceTurn > 0) {
      this.emit(
        {
          type: 'output_retracted',
          characters: this.streamedSinceTurn,
          slug: 'session_moved',
          reason: 'the worker running the session stopped; its unfinished turn runs again',
        },
        meta,
      );
    }
    this.streamedSinceTurn = 0;
    this.emit(
      {
        type: 'status',
        event: {
          type: 'agent_update',
          agentPath: meta.agentPath,
          status: 'in-progress',
          message: `session moved to worker ${worker}; resuming after turn ${fromTurn}`,
        },
      },
      meta,
    );
  }

  private emit(event: AgentEvent, meta: AgentEventMeta): void {
    try {
      this.onEvent?.(event, meta);
    } catch {
      // A listener that throws loses its event, not the run.
    }
  }
}
