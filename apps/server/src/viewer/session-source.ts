import type { SessionSummary, SessionView } from './view-model.js';

/**
 * Where the viewer reads sessions: the runs in flight and recent finished ones. The server's
 * source keeps them in memory (`MemorySessionSource`); snapshots on disk
 * (`persistence.sessionsDir`) can be another source behind the same three calls.
 */
export interface SessionSource {
  /** Newest first. */
  list(): SessionSummary[];
  get(id: string): SessionView | undefined;
  /** Calls `listener` with a session's (viewer) id each time it changes; returns the unsubscribe. */
  subscribe(listener: (id: string) => void): () => void;
}

export interface MemorySourceLimits {
  /** Finished sessions kept (the oldest go first). */
  maxSessions: number;
  /** Bytes of JSON kept over all finished sessions (the oldest go first). */
  maxBytes: number;
}

/** A view that can still change (in flight) or is done (then measured and kept within limits). */
export interface TrackedSession {
  readonly view: SessionView;
}

/** In-flight sessions plus a bounded list of finished ones, all in memory. */
export class MemorySessionSource implements SessionSource {
  private readonly running = new Map<string, TrackedSession>();
  private readonly finished = new Map<string, { view: SessionView; bytes: number }>();
  private finishedBytes = 0;
  private readonly listeners = new Set<(id: string) => void>();

  constructor(private readonly limits: MemorySourceLimits) {}

  list(): SessionSummary[] {
    // Newest first; among equal start times, the later one first.
    const all = [...this.running.values(), ...this.finished.values()].map((s) => s.view).reverse();
    return all.map(summary).sort((a, b) => b.startedAt - a.startedAt);
  }

  get(id: string): SessionView | undefined {
    return this.running.get(id)?.view ?? this.finished.get(id)?.view;
  }

  subscribe(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A run started. */
  started(session: TrackedSession): void {
    this.running.set(session.view.id, session);
    this.changed(session.view.id);
  }

  /** A run's view changed. */
  changed(id: string): void {
    for (const listener of this.listeners) listener(id);
  }

  /** A run ended: it moves to the finished list, which drops its oldest beyond the limits. */
  ended(session: TrackedSession): void {
    const { id } = session.view;
    this.running.delete(id);
    const bytes = Buffer.byteLength(JSON.stringify(session.view));
    if (bytes <= this.limits.maxBytes && this.limits.maxSessions > 0) {
      this.finished.set(id, { view: session.view, bytes });
      this.finishedBytes += bytes;
    }
    for (const [oldest, kept] of this.finished) {
      if (this.finished.size <= this.limits.maxSessions && this.finishedBytes <= this.limits.maxBytes) break;
      this.finished.delete(oldest);
      this.finishedBytes -= kept.bytes;
    }
    this.changed(id);
  }
}

function summary(view: SessionView): SessionSummary {
  return {
    id: view.id,
    ...(view.sessionId === undefined ? {} : { sessionId: view.sessionId }),
    agent: view.agent,
    ...(view.headend === undefined ? {} : { headend: view.headend }),
    status: view.status,
    startedAt: view.startedAt,
    ...(view.endedAt === undefined ? {} : { endedAt: view.endedAt }),
    totals: view.totals,
    ...(view.reportStatus === undefined ? {} : { reportStatus: view.reportStatus }),
  };
}
