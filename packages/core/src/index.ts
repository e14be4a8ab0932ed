// What users need to define and run agents. The tool-output seam's types (`ToolOutputHook`, ...)
// are in `@agent/protocol`; the defaults are documented in docs/turn-loop.md.

export type {
  ApprovalDecision,
  Guardrail,
  GuardrailContext,
  GuardrailSubject,
  GuardrailTrip,
  GuardrailVerdict,
  PendingToolCall,
  SessionSnapshot,
  ToolPolicy,
  ToolPolicyRule,
  TurnJournalEntry,
} from '@agent/protocol';
export type { Agent } from './agent.js';
export { defineAgent, resume, run } from './agent.js';
export { compactionProblems } from './compaction/settings.js';
export type {
  AgentConfig,
  AgentSessionConfig,
  EventListener,
  InternalHooks,
  InternalToolsConfig,
  ModelInput,
  OutputSpec,
  ResumeOptions,
  RunInput,
  RunOptions,
} from './config.js';
export type { GuardrailSpec } from './guardrails/guardrail.js';
export { guardrail } from './guardrails/guardrail.js';
export { toolPolicyProblems } from './guardrails/tool-policy.js';
export type { RetryBackoffSettings } from './loop/retry-delay.js';
export type {
  AccountingEntry,
  AIAgentEvent,
  AIAgentEventCallbacks,
  AIAgentEventMeta,
  AIAgentResult,
  AIAgentSession,
  AIAgentSessionConfig,
  ConversationMessage,
  FinalReportPayload,
  LogEntry,
  ProgressEvent,
  SessionNode,
} from './seed-aliases.js';
export { AIAgent } from './seed-aliases.js';
export type { AgentSession } from './session.js';
export { createAgentSession, runAgent } from './session.js';
export { toolSearchProblems } from './tool-search/settings.js';
export type { ApprovalRequest, Approver } from './tools/approval-gate.js';
export { argumentsHash } from './tools/arguments-hash.js';
export type { FromJsonSchema } from './tools/json-schema-type.js';
export type { AnyTool, InferToolArgs, Tool, ToolContext, ToolParameters, ToolSpec } from './tools/tool.js';
export { tool } from './tools/tool.js';
export type { ToolOutputConfig, ToolOutputSettings } from './tools/tool-output-wiring.js';
