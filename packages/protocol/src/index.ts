export type {
  AccountingEntry,
  GuardrailAccountingEntry,
  LlmAccountingEntry,
  ToolAccountingEntry,
} from './accounting.js';
export { isToolCallEntry } from './accounting.js';
export { AGENT_ERROR_BRAND, AgentError } from './agent-error.js';
export type { AgentFailure, AgentResult, AgentResultBase, AgentSuccess } from './agent-result.js';
export type {
  CompactedRange,
  CompactionOutcome,
  CompactionRun,
  CompactionSettings,
  CompactionState,
  CompactionTrigger,
  ResolvedCompaction,
} from './compaction.js';
export { COMPACTION_OUTCOMES, COMPACTION_STORE_NAME, DEFAULT_COMPACTION } from './compaction.js';
export { CONFIGURATION_ERROR_CODE, ConfigError, type ConfigErrorInit, REDACTED } from './config-error.js';
export type { ContextGuardEvent, ContextGuardOutcome, ContextGuardTrigger } from './context-guard.js';
export { CONTEXT_GUARD_OUTCOMES, CONTEXT_GUARD_TRIGGERS, contextGuardEvent } from './context-guard.js';
export type {
  BaselineComparison,
  EvalCaseResult,
  EvalCaseRun,
  EvalRunFile,
  EvalSummary,
  ScoreResult,
} from './eval-run.js';
export { EVAL_RUN_KIND, EVAL_RUN_VERSION, evalRunProblem } from './eval-run.js';
export type {
  AgentEvent,
  AgentEventCallbacks,
  AgentEventMeta,
  AgentEventType,
  CacheHit,
} from './events.js';
export type { ExitCode, ForcedFinalReason } from './exit-codes.js';
export { EXIT_CODES, FORCED_FINAL_REASONS } from './exit-codes.js';
export type {
  FinalReport,
  FinalReportOrigin,
  FinalReportRejection,
  FinalReportSource,
  FinalReportStatus,
  ReportValidationError,
} from './final-report.js';
export { FINAL_REPORT_ORIGINS, FINAL_REPORT_SOURCES, FINAL_REPORT_STATUSES } from './final-report.js';
export type {
  GuardrailOutcome,
  GuardrailPhase,
  GuardrailRun,
  GuardrailStage,
  GuardrailTrip,
  GuardrailVerdictKind,
  ToolPolicyDecision,
  ToolPolicyVerdict,
} from './guardrail-run.js';
export {
  GUARDRAIL_OUTCOMES,
  GUARDRAIL_PHASES,
  GUARDRAIL_STAGES,
  TOOL_POLICY_DECISIONS,
} from './guardrail-run.js';
export type {
  Guardrail,
  GuardrailContext,
  GuardrailSubject,
  GuardrailVerdict,
  ToolPolicy,
  ToolPolicyRule,
} from './guardrails.js';
export {
  BATCH_TOOL,
  DEFAULT_CONTEXT_BUFFER,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_TURNS,
  FINAL_REPORT_SHORT_NAME,
  FINAL_REPORT_TOOL,
  INTERNAL_TOOL_SERVER,
  isFinalReportName,
  REPORT_BACK_TOOL,
  SUB_AGENT_TOOL_PREFIX,
  TASK_STATUS_TOOL,
  TOOL_OUTPUT_TOOL,
  TOOL_SEARCH_TOOL,
} from './internal-tools.js';
export type { JsonSchema, JsonValue } from './json-schema.js';
export type { LogDetails, LogEntry, LogSeverity } from './log-entry.js';
export { LOG_SEVERITIES } from './log-entry.js';
export type {
  AssistantMessage,
  ContentPart,
  ConversationMessage,
  MessageRole,
  ReasoningPart,
  SystemMessage,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from './messages.js';
export type { ModelClient, ModelTarget } from './model-client.js';
export type { ModelErrorInit, ModelErrorKind } from './model-error.js';
export {
  isModelError,
  isRetryableKind,
  MODEL_ERROR_CODE,
  MODEL_ERROR_KINDS,
  ModelError,
} from './model-error.js';
export type { ModelCallOptions, ModelRequest, ReasoningEffort, ReasoningOptions } from './model-request.js';
export { REASONING_EFFORTS } from './model-request.js';
export type { ModelStreamEvent, StopReason, TokenUsage } from './model-stream.js';
export type { OpKind, OpNode, OpTotals, SessionNode } from './op-tree.js';
export { emptyTotals } from './op-tree.js';
export type { OrchestrationSummary } from './orchestration.js';
export type { ExpectedOutput, OutputFormat } from './output-format.js';
export { isOutputFormat, OUTPUT_FORMATS, TEXT_OUTPUT_FORMATS } from './output-format.js';
export type { ProgressEvent } from './progress.js';
export { TOOL_FINISHED_OUTPUT_MAX_CHARS } from './progress.js';
export type { OpPayload, RecordInput, RecordNode, SessionRecord } from './session-record.js';
export { SESSION_RECORD_KIND, SESSION_RECORD_VERSION } from './session-record.js';
export type {
  ApprovalDecision,
  PendingToolCall,
  SavedToolOutput,
  SessionSnapshot,
  SessionSnapshotStatus,
  SnapshotLoopState,
} from './session-snapshot.js';
export { SESSION_OWNER_LABEL, SESSION_SNAPSHOT_VERSION } from './session-snapshot.js';
export type { ConversationExchange, SessionStore } from './session-store.js';
export type {
  SessionKey,
  SessionTape,
  TapeAnswer,
  TapeError,
  TapeModelCall,
  TapeRequestOptions,
  TapeToolCall,
  TapeToolResult,
} from './session-tape.js';
export type {
  ChildSessionConfig,
  RunChildSession,
  SizingDecision,
  SizingRequest,
  StoredText,
  ToolOutputHook,
  ToolOutputHookContext,
  ToolOutputHookFactory,
} from './tool-output-seam.js';
export type {
  PausedChild,
  ToolCallRequest,
  ToolEndSession,
  ToolError,
  ToolErrorKind,
  ToolExecuteOptions,
  ToolProvider,
  ToolResult,
} from './tool-provider.js';
export type {
  ResolvedToolSearch,
  ToolSearchRun,
  ToolSearchSettings,
  ToolSearchState,
} from './tool-search.js';
export { DEFAULT_TOOL_SEARCH_MAX_RESULTS, TOOL_SEARCH_MAX_RESULTS_LIMIT } from './tool-search.js';
export type { ToolChoice, ToolDefinition } from './tools.js';
export type {
  JournaledAnswer,
  JournaledToolOutcome,
  TurnJournalEntry,
  TurnJournalStore,
} from './turn-journal.js';
