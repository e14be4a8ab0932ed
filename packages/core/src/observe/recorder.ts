import type { AccountingEntry, AgentEvent, AgentEventMeta, LogEntry } from '@agent/protocol';
import { flattened } from './flat-string.js';

type EventCallback = (event: AgentEvent, meta: AgentEventMeta) => void;

/**
 * The session's one voice: every log, accounting entry and event goes through here, is kept
 * for the result and is handed to `onEvent`. Meta objects are built once per kind, never per
 * event, and a throwing callback cannot break the run.
 */
export class SessionRecorder {
  /**
   * Every log line. The result holds this very array, and lines logged after it is built (the
   * last checkpoint's) must still reach it: it is appended to, never replaced.
   */
  readonly logs: LogEntry[] = [];
  /** Every accounting entry; like `logs`, appended to, never replaced. */
  readonly accounting: AccountingEntry[] = [];
  private readonly metaPlain: AgentEventMeta;
  private readonly metaStream: AgentEventMeta;
  // Made when first used: a streamed report needs no `finalize` meta, and the final one comes last.
  private metaFinalize: AgentEventMeta | undefined;
  private metaFinal: AgentEventMeta | undefined;
  private metaJournal: AgentEventMeta | undefined;
  /** Set by the session so every log line carries the current turn. */
  turn = 0;
  /**
   * Set while a resumed session replays a journaled answer: its streamed and finalized text goes
   * out with source `journal` (the crashed process sent it already, after `answer_journaled`).
   */
  replaying = false;
  callbackFailures = 0;

  constructor(
    private onEvent: EventCallback | undefined,
    base: { isMaster: boolean; sessionId: string; agentPath: string; headendId?: string },
    private readonly now: () => number,
    /** `observe`: structural events only (no streamed ones, no logs); it is not a listener. */
    private readonly observer?: EventCallback,
  ) {
    this.metaPlain = frozenMeta(base, false);
    this.metaStream = frozenMeta(base, false, 'stream');
    this.agentPath = base.agentPath;
    this.headendId = base.headendId;
  }

  private readonly agentPath: string;
  private readonly headendId: string | undefined;

  /** An `onEvent` listener: what it gets is streamed to someone, and it is offered task status. */
  get hasListener(): boolean {
    return this.onEvent !== undefined;
  }

  /** A listener or an observer: structural events (turns, accounting, compaction) are made. */
  get watched(): boolean {
    return this.onEvent !== undefined || this.observer !== undefined;
  }

  emit(event: AgentEvent, source?: 'stream' | 'finalize'): void {
    // The observer is not held (`hold`): it sees no streamed text that could be dropped.
    const observed = this.observer !== undefined && source !== 'stream' && !STREAMED.has(event.type);
    if (this.onEvent === undefined && !observed) return;
    const meta =
      event.type === 'final_report'
        ? this.finalMeta()
        : source === undefined
          ? this.metaPlain
          : this.replaying
            ? this.journalMeta()
            : source === 'stream'
              ? this.metaStream
              : this.finalizeMeta();
    if (observed) this.deliver(this.observer!, event, meta);
    if (this.onEvent !== undefined) this.deliver(this.onEvent, event, meta);
  }

  private deliver(target: EventCallback, event: AgentEvent, meta: AgentEventMeta): void {
    try {
      target(event, meta);
    } catch {
      // A listener's bug must not end the run; it is counted and reported in the FIN summary.
      this.callbackFailures++;
    }
  }

  /**
   * Holds every event until the returned function is called (input guardrails running beside
   * the first model call): `keepStream` false drops what the model streamed meanwhile (its
   * output, thinking and text), and sends the rest (logs, accounting, guardrail runs) in order.
   */
  hold(): (keepStream: boolean) => void {
    const target = this.onEvent;
    if (target === undefined) return () => {};
    const held: [AgentEvent, AgentEventMeta][] = [];
    this.onEvent = (event, meta) => {
      held.push([event, meta]);
    };
    return (keepStream) => {
      this.onEvent = target;
      for (const [event, meta] of held) {
        if (!keepStream && STREAMED.has(event.type)) continue;
        try {
          target(event, meta);
        } catch {
          this.callbackFailures++;
        }
      }
    };
  }

  private finalMeta(): AgentEventMeta {
    this.metaFinal ??= frozenMeta(this.metaPlain, true);
    return this.metaFinal;
  }

  private journalMeta(): AgentEventMeta {
    this.metaJournal ??= frozenMeta(this.metaPlain, false, 'journal');
    return this.metaJournal;
  }

  private finalizeMeta(): AgentEventMeta {
    this.metaFinalize ??= frozenMeta(this.metaPlain, false, 'finalize');
    return this.metaFinalize;
  }

  log(entry: Omit<LogEntry, 'timestamp'>): LogEntry {
    // No conditional spread: a session logs several lines per turn.
    const full: LogEntry =
      this.headendId === undefined
        ? { timestamp: this.now(), turn: this.turn, agentPath: this.agentPath, ...entry }
        : {
            timestamp: this.now(),
            turn: this.turn,
            agentPath: this.agentPath,
            headendId: this.headendId,
            ...entry,
          };
    return this.keep(full);
  }

  /**
   * A line of the five usual fields, the same as `log` makes of them (same keys, same order),
   * built at once: no entry object to copy, and a spread after other keys copies the slow way.
   */
  line(
    severity: LogEntry['severity'],
    direction: LogEntry['direction'],
    type: LogEntry['type'],
    remoteIdentifier: string,
    message: string,
  ): LogEntry {
    const full: LogEntry =
      this.headendId === undefined
        ? {
            timestamp: this.now(),
            turn: this.turn,
            agentPath: this.agentPath,
            severity,
            direction,
            type,
            remoteIdentifier,
            message,
          }
        : {
            timestamp: this.now(),
            turn: this.turn,
            agentPath: this.agentPath,
            headendId: this.headendId,
            severity,
            direction,
            type,
            remoteIdentifier,
            message,
          };
    return this.keep(full);
  }

  private keep(full: LogEntry): LogEntry {
    // Kept until the session ends (its result's `logs`): one flat string each, not a rope.
    flattened(full.message);
    flattened(full.remoteIdentifier);
    this.logs.push(full);
    // The event is made only for a listener.
    if (this.onEvent !== undefined) this.emit({ type: 'log', entry: full });
    return full;
  }

  /** A resumed session's earlier accounting: kept for the result, not announced again. */
  restoreAccounting(entries: readonly AccountingEntry[]): void {
    this.accounting.push(...entries);
  }

  account(entry: AccountingEntry): void {
    this.accounting.push(entry);
    if (this.watched) this.emit({ type: 'accounting', entry });
  }
}

/** What a model attempt streams to clients while it runs. */
const STREAMED: ReadonlySet<string> = new Set(['output', 'output_retracted', 'thinking', 'assistant_text']);

/** One event meta, built field by field rather than spread (four per session). */
function frozenMeta(
  base: { isMaster: boolean; sessionId: string; agentPath: string; headendId?: string },
  isFinal: boolean,
  source?: AgentEventMeta['source'],
): AgentEventMeta {
  const meta: AgentEventMeta =
    base.headendId === undefined
      ? { isMaster: base.isMaster, sessionId: base.sessionId, agentPath: base.agentPath, isFinal }
      : {
          isMaster: base.isMaster,
          sessionId: base.sessionId,
          agentPath: base.agentPath,
          headendId: base.headendId,
          isFinal,
        };
  if (source !== undefined) meta.source = source;
  return Object.freeze(meta);
}
