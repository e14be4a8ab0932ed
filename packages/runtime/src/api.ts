// The runtime's public contract, fixed first so the CLI and the runtime can be built in
// parallel. Implementations may add optional fields; they must not rename or remove these.
import type { Approver, RunInput } from '@agent/core';
import type {
  AgentEvent,
  AgentEventMeta,
  AgentResult,
  ApprovalDecision,
  JsonSchema,
  ModelClient,
  OrchestrationSummary,
  OutputFormat,
  SessionKey,
  SessionSnapshot,
  SessionStore,
  ToolCallRequest,
  ToolResult,
} from '@agent/protocol';
import type { ModelClientConfig } from '@agent/providers';

/** What a run is asked: a prompt, or a prompt after earlier messages (as in `@agent/core`'s `run`). */
export type { RunInput };

/** Why the runtime could not do what was asked, before or around a run (never a model's failure). */
export type RuntimeErrorKind =
  /** A config file, agent file or option is invalid (the message names file, line and the allowed values). */
  | 'configuration'
  /** A file that was named does not exist or cannot be read. */
  | 'not_found'
  /** A cycle, a duplicate tool name or the depth limit in the agent tree. */
  | 'agent_tree';

export interface RuntimeErrorInit {
  kind: RuntimeErrorKind;
  message: string;
  file?: string;
  line?: number;
  cause?: unknown;
  /** A setting that cannot work: its name, value (secrets redacted) and what is allowed, as a `ConfigError` has them. */
  setting?: SettingProblem;
}

/** The `{ field, value, allowed }` of a bad setting, the fields of `@agent/protocol`'s `ConfigError`. */
export interface SettingProblem {
  /** Its place in the file: `models[1]`, `mcpServers.fs.cache`. */
  field: string;
  value: unknown;
  allowed: string;
}

/** Options shared by everything that resolves configuration. */
export interface ResolveOptions {
  /** `--config FILE`: the highest configuration layer. */
  configPath?: string;
  /** Working directory (default `process.cwd()`). */
  cwd?: string;
  /** Environment for `${VAR}` substitution (default `process.env`); `.env` files beside each config come first. */
  env?: Record<string, string | undefined>;
  /** User config dir (default `$XDG_CONFIG_HOME/agent` or `~/.config/agent`). */
  userConfigDir?: string;
  /** System config dir (default `/etc/agent`). */
  systemConfigDir?: string;
  /** Where ai-agent's `~/.ai-agent.json` is looked for (default the user's home directory). */
  aiAgentHomeDir?: string;
  /** Where ai-agent's `ai-agent.json` system file is looked for (default `/etc/ai-agent`). */
  aiAgentSystemDir?: string;
}

export interface RunAgentFileOptions extends ResolveOptions {
  /** `--model provider/model`, repeatable: replaces the `models` list of every agent of the tree. */
  models?: string[];
  /**
   * ai-agent's `--models a,b`: replaces the top agent's `models` list only (a fallback chain, in
   * order); sub-agents keep their own. `models` beats it.
   */
  topModels?: string[];
  /** `--format`: overrides the file's output format. */
  format?: OutputFormat;
  /** `--schema`: a JSON Schema object for the json format. */
  schema?: JsonSchema;
  maxTurns?: number;
  /**
   * `--override key=value`: settings in the frontmatter's terms (`temperature`, `llmTimeout:
   * '5m'`, `topP: null` for "not sent") that beat every agent file of the tree.
   */
  overrides?: Record<string, unknown>;
  /**
   * Per-setting flags (`--temperature`, `--reasoning`): beat the top agent's file; sub-agents
   * take them where their own file says nothing.
   */
  settings?: Record<string, unknown>;
  onEvent?: (event: AgentEvent, meta: AgentEventMeta) => void;
  signal?: AbortSignal;
  /**
   * Graceful stop: aborting it asks the top agent (and any sub-agent running) to finish with a
   * final turn that requests the report (`EXIT-USER-STOP` when none comes); `signal` still
   * cancels at once.
   */
  stopSignal?: AbortSignal;
  /**
   * Store a snapshot of the top agent's session after every turn in the session store
   * (`agent.json`'s `sessions`), so `resume` can continue it after a crash (docs/sessions.md).
   */
  durable?: boolean;
  /** The new session's id (1-128 letters, digits, `.`, `_`, `:`, `-`); default a random UUID. */
  sessionId?: string;
  /**
   * A conversation to continue (1-128 letters, digits, `.`, `_`, `:`, `-`): its earlier prompts
   * and final reports, kept in the session store, come back as history (the oldest dropped when
   * they do not fit the context window), and this run's prompt and report are added to it when
   * it ends with a report (docs/sessions.md, "Conversations").
   */
  conversationId?: string;
  /**
   * The principal the run belongs to (a server's hashed token, never the token): kept in its
   * snapshots' labels (`SESSION_OWNER_LABEL`) and record, and its conversation is that
   * principal's alone (another owner naming the same `conversationId` has another conversation).
   * A resumed session keeps the owner it was started with (docs/security.md).
   */
  owner?: string;
  /**
   * Decides the tool calls that need approval (`approval` in the agent file or on an MCP
   * server); without it such calls pause the run (`EXIT-AWAITING-APPROVAL`) and its snapshot is
   * stored for `resume`.
   */
  approver?: Approver;
  /**
   * How long the `approver` is waited for, per call, in milliseconds (a positive integer;
   * default 10 minutes): no answer by then denies the call with a reason saying so.
   */
  approvalTimeoutMs?: number;
  /** Log MCP and LLM traffic at TRC severity. */
  traceLlm?: boolean;
  traceMcp?: boolean;
  headendId?: string;
  /**
   * A W3C `traceparent` (`00-<trace id>-<span id>-<flags>`) the run's spans continue: a headend
   * passes the header of the request it serves. Absent or malformed: the spans hang under the
   * context active when `run` is called (a new trace when there is none). Spans are made only when
   * the application registered an OpenTelemetry tracer provider (docs/observability.md).
   */
  traceparent?: string;
  /**
   * Testing hook: builds the `ModelClient` of each `provider/model` instead of
   * `createModelClient` (for example `scriptedModel` of `@agent/testkit`). The provider must
   * still be configured; `request.config` is what `createModelClient` would have received.
   * Runner-level only (not a per-run option).
   */
  clientFactory?: ClientFactory;
  /**
   * Hooks into every session the runner runs, sub-agents included (a replay answers from a
   * record through them, docs/evals.md). Runner-level only.
   */
  sessionHooks?: SessionHooks;
  /**
   * Where this runner writes its session records (`<sessionId>.json.gz`) instead of the
   * config's `persistence.sessionsDir` (relative to `cwd`), recording even when the config does
   * not: an eval keeps each case's records with its results. Runner-level only.
   */
  sessionsDir?: string;
  /**
   * Values for the prompt variables that describe the clock and the machine (`DATETIME`, `DATE`,
   * `TIME`, `DAY`, `TIMEZONE`, `TIMESTAMP`, `CWD`, `CD`, `OS`, `ARCH`, `KERNEL`, `HOSTNAME`,
   * `USER`), in place of the current ones: a replay passes a record's `input.promptFacts`.
   * Other names are refused.
   */
  promptFacts?: Readonly<Record<string, string>>;
  /**
   * The session store for checkpoints and `resume` instead of the one `agent.json`'s `sessions`
   * names (a queue worker shares one Redis store across the fleet). The caller owns it: the
   * runner never closes it. Runner-level only.
   */
  sessionStore?: SessionStore;
}

/** What a `clientFactory` is asked for: one model of one configured provider. */
export interface ClientRequest {
  provider: string;
  model: string;
  config: ModelClientConfig;
}

export type ClientFactory = (request: ClientRequest) => ModelClient;

/** Which session a hook is called for: its key (agent path and ordinal) and id. */
export interface SessionHookContext {
  session: SessionKey;
  sessionId: string;
}

/** `sessionHooks`: what a runner lets a caller change in each session it runs. */
export interface SessionHooks {
  /**
   * Wraps the client of each model the session calls (the configured provider name and model),
   * after `clientFactory` built it.
   */
  modelClient?(
    client: ModelClient,
    context: SessionHookContext & { provider: string; model: string },
  ): ModelClient;
  /**
   * Answers a tool call in place of its provider (an MCP server, an HTTP API, the caller's
   * tools; sub-agents run their sessions and are not asked): the result is what the session
   * gets, `undefined` lets the provider run the call.
   */
  toolCall?(
    call: ToolCallRequest,
    context: SessionHookContext & { provider: string; kind?: string },
  ): ToolResult | undefined | Promise<ToolResult | undefined>;
}

/** One problem found by `validateAgentFile`. */
export interface ValidationProblem {
  file: string;
  line?: number;
  message: string;
}

export interface AgentSummary {
  /** Tool name the agent has as a sub-agent (`agent__<toolName>`) and as a headend model. */
  toolName: string;
  file: string;
  description?: string;
  usage?: string;
  models: string[];
  tools: string[];
  /** Tool names of the sub-agents (without the `agent__` prefix). */
  subAgents: string[];
  outputFormat: OutputFormat;
  /** The output schema (for `json`), when the file declares one. */
  outputSchema?: JsonSchema;
  /** The input schema, when the file declares `input.format: json`. */
  inputSchema?: JsonSchema;
  /** Its advisors, router destinations and handoff by name, when it has any (`docs/orchestration.md`). */
  orchestration?: OrchestrationSummary;
}

export interface ConfigSummary {
  /** Config files that were read, highest layer first. */
  layers: string[];
  providers: { name: string; type: string; models: string[] }[];
  mcpServers: { name: string; type: string }[];
  /** `restTools` (`rest GET`, ...) and `openapiSpecs` (`openapi`) entries (docs/http-tools.md). */
  httpApis: { name: string; type: string }[];
}

/** Per-run options of a long-lived runner (headends run one agent many times). */
export type RunOptions = Omit<
  RunAgentFileOptions,
  | keyof ResolveOptions
  | 'models'
  | 'topModels'
  | 'clientFactory'
  | 'sessionStore'
  | 'sessionHooks'
  | 'sessionsDir'
>;

/** A stored session as `AgentRunner.storedSession` finds it. */
export interface StoredSession {
  snapshot: SessionSnapshot;
  /** True when this runner's agent file took the snapshot. */
  startedHere: boolean;
}

/** `resume`'s options: a run's, and the decisions for the pending calls by call id. */
export interface ResumeOptions extends RunOptions {
  approvals?: Readonly<Record<string, ApprovalDecision>>;
}

/**
 * A loaded agent tree whose model clients and MCP connections stay open across runs.
 * `run` never throws for a run failure: problems come back as an `AgentResult`
 * (`exitCode` `EXIT-CONFIGURATION` for configuration problems found at run time).
 */
export interface AgentRunner {
  readonly summary: AgentSummary;
  /** `input`: a prompt, or `{ prompt, history }` with earlier messages (headends pass chat history). */
  run(input: RunInput, options?: RunOptions): Promise<AgentResult>;
  /**
   * Continues a session of this agent from its last snapshot in the session store, with
   * decisions for the calls it waits for. Never throws: an unknown session, a store that is
   * down or decisions for calls that are not pending end with `EXIT-CONFIGURATION` saying so.
   */
  resume(sessionId: string, options?: ResumeOptions): Promise<AgentResult>;
  /**
   * The session's latest snapshot in this runner's session store (whichever agent took it) and
   * whether this agent file started it (only those resume here); undefined when the store has
   * none. Rejects with the store's error when it is down, and for a malformed session id.
   */
  storedSession(sessionId: string): Promise<StoredSession | undefined>;
  /** Stops MCP servers and releases everything; idempotent. */
  close(): Promise<void>;
}

/*
 * Functions the package exports (signatures are part of the contract):
 *
 *   runAgentFile(path: string, input: RunInput, options?: RunAgentFileOptions): Promise<AgentResult>
 *     Loads, runs once, closes. Never throws: an invalid file/config gives exitCode EXIT-CONFIGURATION
 *     and `error` naming the file, the line and the closest valid key.
 *   createAgentRunner(path: string, options?: RunAgentFileOptions): Promise<AgentRunner>
 *     Throws RuntimeError (kind configuration | not_found | agent_tree) when the tree cannot load.
 *   validateAgentFile(path: string, options?: ResolveOptions): Promise<{ ok: boolean; problems: ValidationProblem[]; agents: AgentSummary[] }>
 *     Checks a file and its sub-agents (and that their models/tools exist in the config) without running anything.
 *   describeConfig(options?: ResolveOptions & { agentFiles?: string[] }): Promise<{ config: ConfigSummary; agents: AgentSummary[] }>
 *   class RuntimeError extends AgentError { code: RuntimeErrorKind; kind: RuntimeErrorKind; file?: string; line?: number; field?: string; value?: unknown; allowed?: string }
 */
