import { canSee, type Principal } from '@agent/headends/http';
import type { RecordSessionSource } from './record-source.js';
import { type SessionSummary, type SessionView, summary } from './view-model.js';

/**
 * Where the viewer reads sessions: the runs in flight and recent finished ones. The server keeps
 * its own runs in memory (`MemorySessionSource`) and reads the session records of
 * `persistence.sessionsDir` (`RecordSessionSource`); `ServerSessionSource` shows both.
 */
export interface SessionSource {
  /** Newest first. */
  list(): SessionSummary[] | Promise<SessionSummary[]>;
  get(id: string): SessionView | undefined | Promise<SessionView | undefined>;
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

/** What the server's viewer shows: its own runs (in memory) and the session records on disk. */
export class ServerSessionSource implements SessionSource {
  constructor(
    private readonly memory: MemorySessionSource,
    private readonly records: RecordSessionSource | undefined,
  ) {}

  /** Newest first; a record of a session the server still holds in memory is listed once. */
  async list(): Promise<SessionSummary[]> {
    const own = this.memory.list();
    if (this.records === undefined) return own;
    const held = new Set(own.map((session) => session.sessionId));
    const stored = (await this.records.list()).filter((session) => !held.has(session.sessionId));
    return [...own, ...stored].sort((a, b) => b.startedAt - a.startedAt);
  }

  async get(id: string): Promise<SessionView | undefined> {
    return this.memory.get(id) ?? (await this.records?.get(id));
  }

  subscribe(listener: (id: string) => void): () => void {
    const fromMemory = this.memory.subscribe(listener);
    const fromRecords = this.records?.subscribe(listener);
    return () => {
      fromMemory();
      fromRecords?.();
    };
  }
}

/**
 * What `principal` may see of `source`: its own sessions, or every one for an operator
 * (`docs/security.md`). Another principal's session is not listed and reads as unknown.
 */
export function visibleSessions(source: SessionSource, principal: Principal): SessionSource {
  if (principal.operator) return source;
  const visible = (session: SessionSummary | undefined) =>
    session !== undefined && canSee(principal, session.owner);
  return {
    list: async () => (await source.list()).filter(visible),
    get: async (id) => {
      const view = await source.get(id);
      return visible(view) ? view : undefined;
    },
    subscribe: (listener) => source.subscribe(listener),
  };
}
