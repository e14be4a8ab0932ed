import type {
  AgentEvent,
  AgentEventMeta,
  AgentResult,
  ApprovalDecision,
  ConversationMessage,
  JsonSchema,
  OrchestrationSummary,
  OutputFormat,
  PendingToolCall,
  SessionSnapshot,
} from '@agent/protocol';
import { ConfigError } from '@agent/protocol';

/** What a headend shows about an agent (its name is the model / tool name clients use). */
export interface AgentInfo {
  name: string;
  description?: string;
  outputFormat: OutputFormat;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  /** Agents chained around it (advisors, router destinations, handoff), shown in listings. */
  orchestration?: OrchestrationSummary;
  /** The agent file's `usage` (how to ask it), shown where a face describes the agent (A2A skill examples). */
  usage?: string;
}

/** What a headend asks an agent: a prompt, or a prompt after the chat's earlier messages. */
export type ServedInput = string | { prompt: string; history?: readonly ConversationMessage[] };

/** What an approver is asked: one call that needs a person's decision (`docs/sessions.md`). */
export interface ServedApprovalRequest extends PendingToolCall {
  sessionId: string;
  agentPath: string;
}

/** Decides calls that need approval while the run waits (`@agent/core`'s `Approver` fits). */
export type ServedApprover = (
  request: ServedApprovalRequest,
  context: { signal: AbortSignal },
) => ApprovalDecision | Promise<ApprovalDecision>;

/** Per-run options a headend passes to an agent. */
export interface ServedRunOptions {
  format?: OutputFormat;
  schema?: JsonSchema;
  onEvent?: (event: AgentEvent, meta: AgentEventMeta) => void;
  /** Aborted when the client goes away or the server gives up draining. */
  signal?: AbortSignal;
  stopSignal?: AbortSignal;
  headendId?: string;
  /** Asked for each call that needs approval; without it such a call pauses the session. */
  approver?: ServedApprover;
  /** The conversation the run continues (docs/sessions.md, "Conversations"). */
  conversationId?: string;
  /** The request's W3C `traceparent`: the run's spans continue the caller's trace. */
  traceparent?: string;
  /**
   * The principal the run is for (`Principal.id`): its session and conversation are that
   * principal's. On a resume, the session's owner (it stays the starter's, whoever decides).
   */
  owner?: string;
  /**
   * The id the run's session takes (the A2A face's task id); unset: a fresh one. A resume keeps
   * the session's own id and ignores this.
   */
  sessionId?: string;
}

/** Options of a resumed run: the run's, plus the decisions for the calls the session waits for. */
export interface ServedResumeOptions extends ServedRunOptions {
  approvals?: Readonly<Record<string, ApprovalDecision>>;
}

/**
 * The stored sessions an agent can continue (REST `/v1/sessions/:id`, the MCP headend's
 * approvals). An `AgentRunner` gives them as `storedSession` and `resume`.
 */
export interface ServedSessions {
  /**
   * The session's latest snapshot (its `labels.owner` names the principal that started it) and
   * whether this agent started it; undefined when the store has none. Rejects when the store is
   * down or the id is malformed.
   */
  find(sessionId: string): Promise<{ snapshot: SessionSnapshot; startedHere: boolean } | undefined>;
  resume(sessionId: string, options: ServedResumeOptions): Promise<AgentResult>;
  /**
   * Stops the session's run wherever it runs (on `--queue`, the worker running it, whichever face
   * started it); absent: only the face running it can stop it (its run's `signal`). The caller has
   * checked the session is the client's.
   */
  cancel?(sessionId: string): Promise<void>;
}

/** One agent a headend can run (an `AgentRunner` of `@agent/runtime` fits structurally). */
export interface ServedAgent {
  info: AgentInfo;
  run(input: ServedInput, options: ServedRunOptions): Promise<AgentResult>;
  /** Absent: the agent keeps no sessions, and the headends cannot resume its paused runs. */
  sessions?: ServedSessions;
}

/** The agents a headend serves. */
export interface AgentCatalog {
  list(): AgentInfo[];
  get(name: string): ServedAgent | undefined;
}

/** A catalog over a fixed list of agents; names must be unique. */
export function createCatalog(agents: readonly ServedAgent[]): AgentCatalog {
  const byName = new Map<string, ServedAgent>();
  for (const agent of agents) {
    if (byName.has(agent.info.name)) {
      throw new ConfigError({
        field: 'agents',
        value: agent.info.name,
        allowed: 'agents with unique names',
        message: `createCatalog: two agents are named "${agent.info.name}"; names must be unique`,
      });
    }
    byName.set(agent.info.name, agent);
  }
  return {
    list: () => [...byName.values()].map((agent) => agent.info),
    get: (name) => byName.get(name),
  };
}
