import type {
  AgentEvent,
  AgentEventMeta,
  AgentResult,
  ConversationMessage,
  JsonSchema,
  OrchestrationSummary,
  OutputFormat,
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
}

/** What a headend asks an agent: a prompt, or a prompt after the chat's earlier messages. */
export type ServedInput = string | { prompt: string; history?: readonly ConversationMessage[] };

/** Per-run options a headend passes to an agent. */
export interface ServedRunOptions {
  format?: OutputFormat;
  schema?: JsonSchema;
  onEvent?: (event: AgentEvent, meta: AgentEventMeta) => void;
  /** Aborted when the client goes away or the server gives up draining. */
  signal?: AbortSignal;
  stopSignal?: AbortSignal;
  headendId?: string;
  /** The conversation the run continues (docs/sessions.md, "Conversations"). */
  conversationId?: string;
}

/** One agent a headend can run (an `AgentRunner` of `@agent/runtime` fits structurally). */
export interface ServedAgent {
  info: AgentInfo;
  run(input: ServedInput, options: ServedRunOptions): Promise<AgentResult>;
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
