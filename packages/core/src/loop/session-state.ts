import type {
  ApprovalDecision,
  CompactionState,
  ConversationMessage,
  ExitCode,
  FinalReport,
  ForcedFinalReason,
  GuardrailTrip,
  PendingToolCall,
  SessionSnapshot,
  StopReason,
  ToolCall,
  ToolSearchState,
} from '@agent/protocol';

/** A report attempt that was refused, as the model sent it and why. */
export interface RejectedAttempt {
  payload: string;
  slug: string;
  reason: string;
  diagnostics: string[];
}

/** A turn stopped before its tool calls ran, for approval: the calls, the undecided ones, the decided ones. */
export interface PausedTurn {
  turnCalls: ToolCall[];
  pending: PendingToolCall[];
  decisions: Record<string, ApprovalDecision>;
  /** Paused sub-agent sessions, by the call that ran them (their pending calls are in `pending`). */
  children?: Record<string, SessionSnapshot>;
}

/** The mutable state of one session, owned by the turn loop. */
export interface SessionState {
  conversation: ConversationMessage[];
  turn: number;
  forcedFinal: ForcedFinalReason | undefined;
  finalReport: FinalReport | undefined;
  /** A final report was attempted and rejected at least once. */
  finalReportFailedEver: boolean;
  /** The last refused attempt: kept in the result when no report commits (nothing is lost). */
  lastRejected: RejectedAttempt | undefined;
  /**
   * The last refused attempt that parsed as JSON but missed the schema, as the report it would
   * be (with `validationErrors`): the result when every attempt is refused (seed 000/002).
   */
  lastParsed: FinalReport | undefined;
  reportStreamed: boolean;
  lastStopReason: StopReason | string | undefined;
  /** Consecutive turns whose only calls were `agent__task_status`. */
  taskStatusOnlyTurns: number;
  stopRequested: boolean;
  exitCode: ExitCode | undefined;
  error: string | undefined;
  finalReportAttempts: number;
  /** Set when the session paused for approval (`EXIT-AWAITING-APPROVAL`). */
  paused: PausedTurn | undefined;
  /** Set when a guardrail tripped (`EXIT-GUARDRAIL`). */
  guardrail: GuardrailTrip | undefined;
  /** Set once a session that compacts first checks whether it is due (docs/compaction.md). */
  compaction: CompactionState | undefined;
  /** Set when tool search is on (docs/tool-search.md): the tools found so far. */
  toolSearch: ToolSearchState | undefined;
}

export function newSessionState(): SessionState {
  return {
    conversation: [],
    turn: 0,
    forcedFinal: undefined,
    finalReport: undefined,
    finalReportFailedEver: false,
    lastRejected: undefined,
    lastParsed: undefined,
    reportStreamed: false,
    lastStopReason: undefined,
    taskStatusOnlyTurns: 0,
    stopRequested: false,
    exitCode: undefined,
    error: undefined,
    finalReportAttempts: 0,
    paused: undefined,
    guardrail: undefined,
    compaction: undefined,
    toolSearch: undefined,
  };
}
