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

/**
 * Redis keys of one queue. On one server they are the names every release used (jobs in flight
 * survive an upgrade). On a Redis Cluster every key a MULTI or script touches together shares a
 * hash tag: BullMQ's keys carry the queue's (`bull:{name}`, so the whole queue is one slot), a
 * job's event stream and result marker carry the job's (`{jobId}`, so jobs spread over the
 * masters). Channels are not keys: a PUBLISH reaches subscribers on every node.
 */
export interface QueueKeys {
  /** BullMQ's key prefix. */
  bullPrefix: string;
  events(jobId: string): string;
  notify(jobId: string): string;
  result(jobId: string): string;
  cancel: string;
  providerCap(provider: string): string;
}

export function queueKeys(name: string, cluster = false): QueueKeys {
  const base = `agent-queue:${name}`;
  if (!cluster) {
    return {
      bullPrefix: 'bull',
      events: (jobId) => `${base}:events:${jobId}`,
      notify: (jobId) => `${base}:notify:${jobId}`,
      result: (jobId) => `${base}:result:${jobId}`,
      cancel: `${base}:cancel`,
      providerCap: (provider) => `${base}:provider-cap:${provider}`,
    };
  }
  return {
    bullPrefix: `bull:${hashTag(name)}`,
    events: (jobId) => `${base}:${hashTag(jobId)}:events`,
    notify: (jobId) => `${base}:notify:${jobId}`,
    result: (jobId) => `${base}:${hashTag(jobId)}:result`,
    cancel: `${base}:cancel`,
    providerCap: (provider) => `${base}:provider-cap:${provider}`,
  };
}

/**
 * `{text}`: Redis Cluster hashes only the text between the first `{` and the next `}`. Braces in
 * the text itself become `_` so the tag is exactly the text (a brace in a queue name or session
 * id would otherwise cut the tag short, or leave it empty and the key hashed whole).
 */
function hashTag(text: string): string {
  return `{${text.replace(/[{}]/g, '_')}}`;
}
