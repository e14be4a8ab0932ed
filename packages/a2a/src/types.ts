import type { ToolProvider, ToolResult } from '@agent/protocol';

/** A remote Agent2Agent agent to call as tools (agent.json `a2aAgents.<name>`, docs/a2a.md). */
export interface A2aAgentOptions {
  /** The entry's name: its tools are `<name>__<skillId>` (`<name>__ask` for a card without skills). */
  name: string;
  /** The agent card's URL (`https://host/a2a/research/.well-known/agent-card.json`). */
  cardUrl: string;
  /** Sent with every request (the card's too): `Authorization`, API keys. Never logged. */
  headers?: Readonly<Record<string, string>>;
  /** The fetch every request goes through (an OAuth middleware's, a test's); default `fetch`. */
  fetch?: typeof fetch;
  /** Globs over the card's skill ids: only these become tools (default all). */
  skills?: readonly string[];
  /** A call's limit, from sending the message to the task's end (default 600,000 ms). */
  timeoutMs?: number;
  /** Reading the card (default 30,000 ms). */
  connectTimeoutMs?: number;
  /** Stream the task's updates as progress when the card allows it (default true). */
  streaming?: boolean;
  /** The concurrency queue every call waits in (with `queues`), also named on the tool definitions. */
  queue?: string;
  /** Named concurrency queues (`@agent/mcp`'s `defaultToolQueues` fits), shared with other tools. */
  queues?: A2aCallQueues;
}

/** Named concurrency queues: `run` starts `fn` when the named queue has a free slot. */
export interface A2aCallQueues {
  run<T>(name: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** The tools of one remote A2A agent; `card` is what its agent card said when it was read. */
export interface A2aToolProvider extends ToolProvider {
  readonly card: A2aCardSummary;
  /**
   * Whether a result may be kept in a tool-result cache: not a remote task's question
   * (input-required), whose task id belongs to one conversation.
   */
  cacheable(result: ToolResult): boolean;
}

/** What the runtime keeps of an agent card: enough to describe the tools and to talk to the agent. */
export interface A2aCardSummary {
  name: string;
  description: string;
  /** The agent's JSON-RPC endpoint the calls go to. */
  url: string;
  /** `1.0` or `0.3`: the protocol the endpoint speaks. */
  protocolVersion: string;
  streaming: boolean;
  skills: readonly { id: string; name: string; description: string }[];
}
