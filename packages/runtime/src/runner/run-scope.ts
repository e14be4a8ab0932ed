import type {
  AccountingEntry,
  AgentEvent,
  AgentEventMeta,
  AgentResult,
  ConversationMessage,
  LogEntry,
  SessionKey,
  SessionTape,
} from '@agent/protocol';
import { type Redactor, redactEvent, redactLog, redactResult } from '../config/redact.js';

export type EventListener = (event: AgentEvent, meta: AgentEventMeta) => void;

/**
 * Everything one run says beyond the top session's own result: sub-agent sessions' logs and
 * accounting, trace lines and the runtime's own warnings. Every event reaches the caller's
 * `onEvent` redacted; at the end these entries join the top result (in time order).
 */
export class RunScope {
  private readonly logs: LogEntry[] = [];
  private readonly accounting: AccountingEntry[] = [];
  /** Sub-agent sessions' conversations by session id, for the run's record (`keepsConversations`). */
  readonly conversations = new Map<string, readonly ConversationMessage[]>();
  /** Set when the run's record is written (`persistence.sessionsDir`): conversations and tapes are kept. */
  keepsConversations = false;
  /** Every session's tape by session id, when the run's record is written (`keepsConversations`). */
  readonly tapes = new Map<string, SessionTape>();
  /** The run's `promptFacts`: values of the clock and machine prompt variables in place of the current ones. */
  promptFactOverrides: Readonly<Record<string, string>> | undefined;
  /** The clock and machine prompt variables the top session used, when the run is recorded. */
  usedPromptFacts: Record<string, string> | undefined;
  /** How many sessions of each agent path the run has started (`SessionKey.ordinal`). */
  private readonly started = new Map<string, number>();
  /**
   * Each log entry already redacted for `onEvent`, by the entry: the result's logs are the same
   * entries and are not redacted a second time.
   */
  private readonly redactedLogs = new WeakMap<LogEntry, LogEntry>();
  /** Hears every accounting entry of the run as it is recorded, redacted (the billing ledger). */
  onAccounting: ((entry: AccountingEntry, meta: AgentEventMeta) => void) | undefined;

  constructor(
    private readonly consumer: EventListener | undefined,
    readonly redact: Redactor,
    private readonly now: () => number = Date.now,
  ) {}

  private deliver(event: AgentEvent, meta: AgentEventMeta): void {
    const ledger = event.type === 'accounting' ? this.onAccounting : undefined;
    if (this.consumer === undefined && ledger === undefined) return;
    const redacted = this.redacted(event);
    try {
      if (ledger !== undefined && redacted.type === 'accounting') ledger(redacted.entry, meta);
      this.consumer?.(redacted, meta);
    } catch {
      // A listener's bug must not end the run (the session's own events are guarded the same way).
    }
  }

  /** The event redacted; a log entry's redaction is kept for `finish`. */
  private redacted(event: AgentEvent): AgentEvent {
    if (event.type !== 'log') return redactEvent(event, this.redact);
    const entry = this.redactedEntry(event.entry);
    return entry === event.entry ? event : { type: 'log', entry };
  }

  private redactedEntry(entry: LogEntry): LogEntry {
    let redacted = this.redactedLogs.get(entry);
    if (redacted === undefined) {
      redacted = redactLog(entry, this.redact);
      this.redactedLogs.set(entry, redacted);
    }
    return redacted;
  }

  /** The `onEvent` of a session: the top one is forwarded; sub-agents are forwarded and kept. */
  listener(isMaster: boolean): EventListener {
    if (isMaster) return (event, meta) => this.deliver(event, meta);
    return (event, meta) => {
      if (event.type === 'log') this.logs.push(event.entry);
      else if (event.type === 'accounting') this.accounting.push(event.entry);
      this.deliver(event, meta);
    };
  }

  /**
   * The `onEvent` of a session whose accounting its caller reports (a model judge's comes back
   * in its verdict): its logs are kept and every event but accounting is forwarded; `release`
   * forwards and keeps the held accounting after all (the judge failed: no verdict carries it).
   */
  heldAccountingListener(): { listener: EventListener; release: () => void } {
    const held: [AgentEvent, AgentEventMeta][] = [];
    const kept = this.listener(false);
    return {
      listener: (event, meta) => {
        if (event.type === 'accounting') held.push([event, meta]);
        else kept(event, meta);
      },
      release: () => {
        for (const [event, meta] of held.splice(0)) kept(event, meta);
      },
    };
  }

  /** A finished sub-agent session: its conversation is kept when the run's record needs it. */
  keepConversation(result: AgentResult): AgentResult {
    if (this.keepsConversations && result.opTree !== undefined)
      this.conversations.set(result.opTree.sessionId, result.conversation);
    return result;
  }

  /**
   * The key of a session of `agentPath` starting now: sub-agents, judges, advisors and routers
   * count alike, in the order they start.
   */
  sessionKey(agentPath: string): SessionKey {
    const ordinal = this.started.get(agentPath) ?? 0;
    this.started.set(agentPath, ordinal + 1);
    return { agentPath, ordinal };
  }

  /** A log line the runtime writes itself (traces, MCP warnings), under a session's meta. */
  log(entry: Omit<LogEntry, 'timestamp'>, meta: AgentEventMeta): void {
    const full: LogEntry = {
      timestamp: this.now(),
      agentPath: meta.agentPath,
      ...(meta.headendId === undefined ? {} : { headendId: meta.headendId }),
      ...entry,
    };
    this.logs.push(full);
    this.deliver({ type: 'log', entry: full }, meta);
  }

  /** Each MCP server that did not start, as a `WRN` line (seed 002: MCP start-up is not fatal). */
  logMcpWarnings(warnings: readonly { server: string; message: string }[], meta: AgentEventMeta): void {
    for (const warning of warnings) {
      this.log(
        {
          severity: 'WRN',
          direction: 'response',
          type: 'tool',
          remoteIdentifier: `mcp:${warning.server}`,
          message: warning.message,
        },
        meta,
      );
    }
  }

  /** The top result with the sub-agents' and the runtime's entries merged in, redacted. */
  finish(result: AgentResult): AgentResult {
    return redactResult(
      {
        ...result,
        logs: mergeByTime(result.logs, this.logs),
        accounting: mergeByTime(result.accounting, this.accounting),
      },
      this.redact,
      (entry) => this.redactedEntry(entry),
    );
  }
}

/** Merges two lists already in time order; on equal times the first list's entry comes first. */
export function mergeByTime<T extends { timestamp: number }>(a: readonly T[], b: readonly T[]): T[] {
  if (b.length === 0) return [...a];
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const left = a[i];
    const right = b[j];
    if (right === undefined || (left !== undefined && left.timestamp <= right.timestamp)) {
      out.push(left!);
      i++;
    } else {
      out.push(right);
      j++;
    }
  }
  return out;
}
