// The library-API names of seed 002 ("AI Agent Library API"), as aliases of this project's
// names, so code written against the seed ports by changing its imports and the config keys
// listed in the README ("Porting from seed 002's AIAgent"). Nothing here is a second
// implementation: every name is the project's own type or function under the seed's name.
import type {
  AccountingEntry,
  AgentEvent,
  AgentEventCallbacks,
  AgentEventMeta,
  AgentResult,
  ConversationMessage,
  FinalReport,
  LogEntry,
  ProgressEvent,
  SessionNode,
} from '@agent/protocol';
import type { AgentSessionConfig } from './config.js';
import { type AgentSession, createAgentSession } from './session.js';

/** Seed 002's `AIAgentSessionConfig`: `AgentSessionConfig` (`createAgentSession`'s config). */
export type AIAgentSessionConfig = AgentSessionConfig;
/** Seed 002's `AIAgentSession`: `AgentSession` (`run()`, plus `stop()` and `sessionId`). */
export type AIAgentSession = AgentSession;
/** Seed 002's `AIAgentResult`: `AgentResult`. */
export type AIAgentResult = AgentResult;
/** Seed 002's `AIAgentEvent`: `AgentEvent`. */
export type AIAgentEvent = AgentEvent;
/** Seed 002's `AIAgentEventMeta`: `AgentEventMeta`. */
export type AIAgentEventMeta = AgentEventMeta;
/** Seed 002's `AIAgentEventCallbacks` (`{ onEvent }`): spread it into the session config. */
export type AIAgentEventCallbacks = AgentEventCallbacks;
/** Seed 002's `FinalReportPayload`: `FinalReport`. */
export type FinalReportPayload = FinalReport;
/** Names seed 002 uses that are the same in `@agent/protocol`, here so one import does. */
export type { AccountingEntry, ConversationMessage, LogEntry, ProgressEvent, SessionNode };

/**
 * Seed 002's `AIAgent`: `AIAgent.create(config)` is `createAgentSession(config)`, and
 * `AIAgent.run(session)` is `session.run()` (no orchestration runs around it here).
 */
export const AIAgent: {
  readonly create: (config: AIAgentSessionConfig) => AIAgentSession;
  readonly run: (session: AIAgentSession) => Promise<AIAgentResult>;
} = Object.freeze({
  create: (config: AIAgentSessionConfig) => createAgentSession(config),
  run: (session: AIAgentSession) => session.run(),
});
