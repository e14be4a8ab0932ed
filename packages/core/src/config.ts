import type {
  AgentEvent,
  AgentEventMeta,
  ApprovalDecision,
  CompactionSettings,
  ConversationExchange,
  ConversationMessage,
  Guardrail,
  JsonSchema,
  ModelClient,
  ModelTarget,
  OutputFormat,
  ReasoningOptions,
  SessionSnapshot,
  ToolPolicy,
  ToolProvider,
  ToolSearchSettings,
  TurnJournalEntry,
} from '@agent/protocol';
import type { StandardJSONSchemaV1 } from '@standard-schema/spec';
import type { RetryBackoffSettings } from './loop/retry-delay.js';
import type { Approver } from './tools/approval-gate.js';
import type { AnyTool } from './tools/tool.js';
import type { ToolOutputConfig } from './tools/tool-output-wiring.js';

/** A model for a session: a client as is, or a target that says more about it (context window). */
export type ModelInput = ModelClient | ModelTarget;

/**
 * The report the session asks for: a format, and for `json` a schema: a JSON Schema object, or
 * a schema of a library that implements Standard JSON Schema (zod 4, arktype, valibot's
 * `toStandardJsonSchema`), turned into JSON Schema by that library.
 */
export interface OutputSpec {
  format: OutputFormat;
  schema?: JsonSchema | StandardJSONSchemaV1;
  /**
   * Take a report without a `status` as `success` instead of rejecting it (default false); for
   * extraction children whose prompt asks for the wrapper without one (seed 001).
   */
  statusOptional?: boolean;
}

/** Called with everything a running session says (`AgentEvent`, see `docs/protocol.md`). */
export type EventListener = (event: AgentEvent, meta: AgentEventMeta) => void;

/** What an agent is, defined once and run many times (`defineAgent`). */
/** Which of the session's own tools are offered (see `AgentConfig.internalTools`). */
export interface InternalToolsConfig {
  /**
   * `agent__task_status`: progress and status events from the model. `'auto'` (default) offers
   * it only to runs with an `onEvent` listener, the one way progress reaches anyone.
   */
  taskStatus?: boolean | 'auto';
  /** `agent__batch`: `'auto'` (default) offers it only to models without native parallel tool calls. */
  batch?: boolean | 'auto';
}

export interface AgentConfig {
  /** The model; or `models`, an ordered fallback list (each failed attempt moves to the next). */
  model?: ModelInput;
  models?: readonly ModelInput[];
  /** The system prompt. */
  instructions?: string;
  /** Tools made with `tool()`, and tool providers (MCP servers, sub-agents, your own), mixed. */
  tools?: readonly (AnyTool | ToolProvider)[];
  /** The report's format and schema; default `{ format: 'markdown' }`. */
  output?: OutputSpec;
  /**
   * Also offer the native tool `report_back` (seed 004), whose input schema is `output.schema`
   * (it needs `format: 'json'` and a schema whose root is `type: "object"`). A valid call is the
   * report: the other tools of that answer run, then the session ends. The FINAL tag stays
   * accepted; when one answer carries both, `report_back` wins. Default false.
   */
  reportBack?: boolean;
  /**
   * A sub-agent's session (seed 004, decision 4: its result is `report_back`, else its last
   * assistant message): an answer with no tool call and no report is its answer, adopted on that
   * turn instead of being retried. For `json` with a schema, text that is JSON meeting it is the
   * report; other text is still the report (status `partial`, the reasons in `rejection`), so
   * the caller reads it instead of a failure. Default false (a top-level agent is told to report).
   */
  answerFromLastMessage?: boolean;
  /** Name of this agent in logs and the op tree (default `main`). */
  name?: string;
  /** Turns before the final turn is forced (default 10). */
  maxTurns?: number;
  /** Attempts per turn before the turn gives up (default 3). */
  maxRetries?: number;
  /**
   * Wait before calling a target again after a network, timeout, server (5xx, overload) or
   * invalid-response error: the n-th wait in a row is uniform in [d/2, d), d = min(maxMs,
   * baseMs * 2^(n-1)) (defaults 500 and 30000); a `retry-after` from the provider wins, bounded
   * to 1-60 s. Moving on to another target does not wait.
   */
  retryBackoff?: RetryBackoffSettings;
  /** Native tool calls accepted per turn; extra calls get an error message (default unlimited). */
  maxToolCallsPerTurn?: number;
  /** Per model call, milliseconds (default 120000). */
  llmTimeoutMs?: number;
  /** Per tool call, milliseconds (default 120000). */
  toolTimeoutMs?: number;
  temperature?: number;
  topP?: number;
  /** Top-k sampling (a positive integer): sent to Anthropic and OpenAI-compatible servers; others log a VRB notice. */
  topK?: number;
  /** Repeat penalty (above 0, at most 2; 1 = none): sent to OpenAI-compatible servers; others log a VRB notice. */
  repeatPenalty?: number;
  maxOutputTokens?: number;
  reasoning?: ReasoningOptions;
  /** Stream model answers (default true). */
  stream?: boolean;
  /**
   * A tool result over this many bytes goes to the tool-output hook (default 12288 when a hook
   * is set). Set without `toolOutput`, it turns the store on with its defaults (in `os.tmpdir()`).
   */
  toolResponseMaxBytes?: number;
  /** Overrides every target's context window. */
  contextWindow?: number;
  /**
   * Stores oversized tool outputs behind a handle (see `@agent/tool-output`): a hook factory, or
   * the module's settings (`{ enabled, storeDir, maxChunks, overlapPercent, avgLineBytesThreshold,
   * models, createReadGrepTools, ... }`) from which the session builds the hook. Absent: the
   * default store when `toolResponseMaxBytes` is set, else no hook (and no file I/O).
   */
  toolOutput?: ToolOutputConfig;
  /**
   * The session's own tools. `false`: neither `agent__task_status` nor `agent__batch` (extraction
   * children). `true` or absent: the defaults of the object form, `{ taskStatus: 'auto', batch: 'auto' }`:
   * task status only when the run has an `onEvent` listener, the batch tool only when some model
   * does not make parallel tool calls natively (`ModelClient.parallelToolCalls`). Each one is
   * ~125-200 tokens on every request it is offered in; a tool not turned off is answered anyway.
   */
  internalTools?: boolean | InternalToolsConfig;
  /**
   * Tool calls a person decides before they run: `tools`, globs over the tool names the model
   * sees (`fs__Write*`, `agent__deploy`), beside each `tool()`'s own `needsApproval`. Decided by
   * the `approver` run option, else the session pauses (`EXIT-AWAITING-APPROVAL`); docs/sessions.md.
   */
  approval?: { tools?: readonly string[] };
  /**
   * Checks on the prompt, the report (as it streams and before it is committed) and tool calls
   * (arguments and results), built with `guardrail()`; a trip ends the run `EXIT-GUARDRAIL`
   * (docs/guardrails.md). Absent or empty: nothing is checked and nothing costs anything.
   */
  guardrails?: readonly Guardrail[];
  /**
   * Rules that allow, deny or ask (a person's approval) for each tool call from its name and
   * arguments, in order, the first match deciding (docs/guardrails.md). A call `approval.tools`
   * or `needsApproval` picks is asked whatever the policy says.
   */
  toolPolicy?: ToolPolicy;
  /**
   * Long sessions (docs/compaction.md): when the next request is projected past `at` of the
   * usable window, older turns are replaced by a summary the model writes, and stored behind a
   * handle `tool_output` expands; the session goes on instead of being forced to its final turn.
   * `true`: the defaults (`{ at: 0.8, keep: 2, attempts: 2, tokens: 2048 }`). Absent or `false`:
   * off. Turns on the tool-output store (its defaults) when no `toolOutput` is given.
   */
  compaction?: boolean | CompactionSettings;
  /**
   * Large toolsets (docs/tool-search.md): when the session has more than `after` tools, the
   * model gets `tool_search` (and the `alwaysOn` tools) instead of every definition; the tools a
   * search finds are sent from the next request on, for the rest of the session and across a
   * resume. Absent: every tool in every request.
   */
  toolSearch?: ToolSearchSettings;
}

/** What one run is asked: a prompt, or a prompt after earlier messages. */
export type RunInput =
  | string
  | {
      prompt: string;
      history?: readonly ConversationMessage[];
      /** A conversation's earlier exchanges, oldest first (see `AgentSessionConfig.exchanges`). */
      exchanges?: readonly ConversationExchange[];
    };

/**
 * Test hooks. NOT part of the public API: they may change in any release without notice.
 * `nonce` fixes the FINAL tag's nonce (default a fresh cryptographic one); `now` and `sleep`
 * replace the clock and the waits.
 */
export interface InternalHooks {
  nonce?: string;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** How one run is watched and controlled (`run(agent, input, options)`). */
export interface RunOptions {
  /** Aborting it cancels the run at once, mid-stream or mid-tool (`EXIT-ABORTED`). */
  signal?: AbortSignal;
  onEvent?: EventListener;
  /**
   * Watches the session without changing it (a tracer): it gets every event but the streamed
   * ones (`output`, `thinking`, `assistant_text`, `output_retracted`) and logs, and unlike
   * `onEvent` it changes nothing the session does: `agent__task_status` is not offered for it
   * and no streamed delta is made for it.
   */
  observe?: EventListener;
  /** Session id; default a random UUID. */
  sessionId?: string;
  /** For runtimes that nest sessions: the dotted path of the parent agents. */
  parentAgentPath?: string;
  /** False for sub-agent sessions (events carry `isMaster: false`). */
  isMaster?: boolean;
  /** Passed on in event meta and logs (which headend started the run). */
  headendId?: string;
  /**
   * Called with a snapshot of the session after every turn it goes on from, when it pauses
   * and when it ends (`docs/sessions.md`); the next turn waits for it. Without it no snapshot
   * is ever built.
   */
  onCheckpoint?: (snapshot: SessionSnapshot) => void | Promise<void>;
  /**
   * Writes the turn journal (`docs/sessions.md`): called with the model's complete answer
   * before the session acts on it, and with each tool call's outcome as it finishes; the
   * session waits for it. With `onCheckpoint`, a session resumed with the journal written
   * since its snapshot (`journal` of `resume`) replays that answer and those outcomes instead
   * of asking the model and running the calls again.
   */
  onJournal?: (entry: TurnJournalEntry) => void | Promise<void>;
  /**
   * Decides each call that needs approval, as it comes; the session waits for the answer (up to
   * `approvalTimeoutMs`, default 10 minutes, then the call is denied). Without it such calls
   * pause the session: the result has `pendingApprovals` and the `snapshot` to resume.
   */
  approver?: Approver;
  approvalTimeoutMs?: number;
  /** Decisions for the calls a resumed session was waiting for, by call id. */
  approvals?: Readonly<Record<string, ApprovalDecision>>;
  /** Test hooks; not part of the public API (see `InternalHooks`). */
  internal?: InternalHooks;
}

/** How a resumed run is watched and controlled (`resume(agent, snapshot, options)`). */
export interface ResumeOptions extends Omit<RunOptions, 'sessionId'> {
  /**
   * The turn journal written since `snapshot` (what `onJournal` got, or a store's
   * `loadJournal`), oldest first: the turn it covers is replayed instead of run again.
   */
  journal?: readonly TurnJournalEntry[];
}

/**
 * The low-level session config of `createAgentSession` and `runAgent`: an agent, one run's
 * input and its options, flat, with the same names as `defineAgent` and `run`.
 */
export interface AgentSessionConfig extends AgentConfig, RunOptions {
  prompt: string;
  /** Earlier messages, sent between the system prompt and `prompt`. */
  history?: readonly ConversationMessage[];
  /**
   * A conversation's earlier exchanges (prompt and final report each), oldest first: sent after
   * the system prompt as user/assistant pairs, before `history`. The oldest that do not fit the
   * context window are dropped, with a `WRN agent:conversation` log line (docs/sessions.md).
   */
  exchanges?: readonly ConversationExchange[];
  /**
   * Continue the session of this snapshot (from `onCheckpoint` or a session store) instead of
   * starting one: `prompt` and `history` are not used, the session id is the snapshot's. It must
   * come from the same agent (its settings hash) and a version this release reads.
   */
  resumeFrom?: SessionSnapshot;
  /**
   * With `resumeFrom`: the turn journal written since that snapshot (oldest first). Its turn is
   * replayed: the journaled answers instead of model calls, the journaled outcomes instead of
   * running those calls; only the calls that never finished run again (same idempotency keys).
   */
  resumeJournal?: readonly TurnJournalEntry[];
}

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
export const DEFAULT_TOOL_RESPONSE_MAX_BYTES = 12_288;
