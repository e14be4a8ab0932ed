import type {
  AgentEvent,
  AgentEventMeta,
  AgentResult,
  ApprovalDecision,
  ConversationMessage,
  JsonSchema,
  OutputFormat,
} from '@agent/protocol';

/** The BullMQ queue's name unless told otherwise. */
export const DEFAULT_QUEUE_NAME = 'agent-runs';

/**
 * One run, as a face enqueues it. The job id is the session id of a new run; a resumed session
 * (`resume`) gets a job id of its own, its session id is `resume.sessionId`.
 */
export interface RunJobData {
  /** The agent's name (its toolName), as the worker's catalog knows it. */
  agent: string;
  input: string | { prompt: string; history?: readonly ConversationMessage[] };
  format?: OutputFormat;
  schema?: JsonSchema;
  headendId?: string;
  /** The face's incoming W3C `traceparent`: the worker's run continues that trace. */
  traceparent?: string;
  /** The principal the run is for (never a token): its session and conversation are its own. */
  owner?: string;
  /** The conversation a new run continues (the owner's conversation of that id). */
  conversationId?: string;
  /** Continue this stored session (paused for approval) with these decisions, instead of `input`. */
  resume?: { sessionId: string; approvals?: Readonly<Record<string, ApprovalDecision>> };
}

/** The session a job runs: its id, or the resumed session's. */
export function jobSessionId(jobId: string, data: RunJobData): string {
  return data.resume?.sessionId ?? jobId;
}

/** What a worker writes to a job's event stream, in order. */
export type JobStreamEntry =
  | { kind: 'event'; event: AgentEvent; meta: AgentEventMeta }
  /** A worker took over a session another worker started (`fromTurn`: the turns checkpointed). */
  | { kind: 'moved'; worker: string; fromTurn: number }
  /**
   * The session on this worker journals its turns (its store has a turn journal): the face holds
   * each turn's report text until the turn's `answer_journaled` (docs/sessions.md). Written
   * before the session's first event; a face that does not know it ignores it.
   */
  | { kind: 'journaling' }
  | { kind: 'result'; result: AgentResult };

/** Redis keys of one queue (all under BullMQ's own `bull:<name>` prefix family). */
export interface QueueKeys {
  events(jobId: string): string;
  notify(jobId: string): string;
  result(jobId: string): string;
  cancel: string;
  providerCap(provider: string): string;
}

export function queueKeys(name: string): QueueKeys {
  const base = `agent-queue:${name}`;
  return {
    events: (jobId) => `${base}:events:${jobId}`,
    notify: (jobId) => `${base}:notify:${jobId}`,
    result: (jobId) => `${base}:result:${jobId}`,
    cancel: `${base}:cancel`,
    providerCap: (provider) => `${base}:provider-cap:${provider}`,
  };
}
