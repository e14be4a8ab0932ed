import type {
  ExpectedOutput,
  ModelTarget,
  SessionSnapshot,
  ToolDefinition,
  ToolOutputHook,
} from '@agent/protocol';
import { abortableSleep } from '@agent/protocol/util';
import type { Checkpointer } from './checkpoint/checkpointer.js';
import { Compactor } from './compaction/compactor.js';
import { resolveCompaction } from './compaction/settings.js';
import {
  type AgentSessionConfig,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_TOOL_RESPONSE_MAX_BYTES,
  DEFAULT_TOOL_TIMEOUT_MS,
} from './config.js';
import type { ContextGuard } from './context/context-guard.js';
import type { TokenEstimator } from './context/token-estimator.js';
import { GuardrailRunner } from './guardrails/guardrail-runner.js';
import { JournalReplay } from './journal/journal-replay.js';
import { TurnJournal } from './journal/turn-journal.js';
import { samplingOptions } from './loop/sampling.js';
import type { SessionCancel } from './loop/session-cancel.js';
import type { SessionState } from './loop/session-state.js';
import type { TargetRotation } from './loop/target-rotation.js';
import { TurnLoop } from './loop/turn-loop.js';
import type { TurnNotices } from './loop/turn-notice.js';
import type { OpTreeBuilder } from './observe/op-tree.js';
import type { SessionRecorder } from './observe/recorder.js';
import { resolveToolSearch } from './tool-search/settings.js';
import { ToolSearch } from './tool-search/tool-search.js';
import type { ApprovalGate } from './tools/approval-gate.js';
import { type InternalToolChoice, internalToolChoice } from './tools/internal-tool-choice.js';
import { batchTool, taskStatusTool } from './tools/internal-tools.js';
import { ResultSizer } from './tools/result-sizer.js';
import { ToolExecutor } from './tools/tool-executor.js';
import { type ToolRegistry, withHookTools } from './tools/tool-registry.js';

/** Everything a session has prepared before its loop starts. */
export interface LoopWiring {
  config: AgentSessionConfig;
  state: SessionState;
  recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  rotation: TargetRotation;
  estimator: TokenEstimator;
  guard: ContextGuard;
  registry: ToolRegistry;
  hook: ToolOutputHook | undefined;
  reportBack: ToolDefinition | undefined;
  expected: ExpectedOutput;
  nonce: string;
  notices: TurnNotices;
  maxTurns: number;
  maxRetries: number;
  targets: readonly ModelTarget[];
  checkpointer: Checkpointer | undefined;
  approvals: ApprovalGate | undefined;
  signal: AbortSignal;
  cancel: SessionCancel;
  agentPath: string;
  now: () => number;
  sessionId: string;
  /** The snapshot a resumed session continues. */
  resumeFrom: SessionSnapshot | undefined;
}

/** The turn journal a session writes, and the one it replays when resumed with it. */
interface JournalParts {
  journal: TurnJournal | undefined;
  replay: JournalReplay | undefined;
}

/** Builds the turn loop with its result sizer and tool executor. */
export function wireTurnLoop(w: LoopWiring): TurnLoop {
  const { config, hook, registry, reportBack, checkpointer } = w;
  const choice = internalToolChoice(config.internalTools, w.targets, config.onEvent !== undefined);
  const compactor = compactorOf(w);
  // A compaction inside a turn measures the loop's next request, and the loop needs the sizer.
  let loop: TurnLoop | undefined;
  const sizer = resultSizerFor(w, compactor, () => loop!);
  const journaling = journalPartsOf(w);
  const finalTools = reportBack === undefined ? [] : [reportBack];
  const internal = [
    ...(choice.offerTaskStatus ? [taskStatusTool] : []),
    ...(choice.offerBatch ? [batchTool] : []),
    ...finalTools,
  ];
  const toolSearch = ToolSearch.of(
    resolveToolSearch(config.toolSearch),
    registry.definitions,
    w.state,
    w.recorder,
    w.targets.every((target) => target.client.deferredTools === true),
  );
  const tools = offeredTools(registry.definitions, internal, hook, toolSearch);
  const guards = GuardrailRunner.of(config.guardrails, {
    recorder: w.recorder,
    opTree: w.opTree,
    agentPath: w.agentPath,
    now: w.now,
    signal: w.signal,
    sessionId: w.sessionId,
  });
  loop = new TurnLoop({
    state: w.state,
    recorder: w.recorder,
    opTree: w.opTree,
    rotation: w.rotation,
    estimator: w.estimator,
    guard: w.guard,
    executor: toolExecutorFor(w, sizer, choice, tools, journaling, guards, toolSearch),
    sizer,
    tools,
    finalTools,
    reportBack: reportBack !== undefined,
    answerFromLastMessage: config.answerFromLastMessage === true,
    expected: w.expected,
    nonce: w.nonce,
    notices: w.notices,
    maxTurns: w.maxTurns,
    maxRetries: w.maxRetries,
    llmTimeoutMs: config.llmTimeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    sampling: samplingOptions(config),
    signal: w.signal,
    cancel: w.cancel,
    agentPath: w.agentPath,
    now: w.now,
    sleep: config.internal?.sleep ?? abortableSleep,
    retryBackoff: config.retryBackoff,
    targets: w.targets,
    ...(compactor === undefined ? {} : { compactor }),
    ...(checkpointer === undefined ? {} : { checkpoint: () => checkpointer.turnEnded() }),
    ...(w.approvals === undefined ? {} : { approvals: w.approvals }),
    ...(guards === undefined ? {} : { guards, checkInput: w.resumeFrom === undefined }),
    ...journalOptions(journaling, checkpointer !== undefined && w.resumeFrom === undefined),
  });
  return loop;
}

/** The compactor of a session that compacts (docs/compaction.md). */
function compactorOf(w: LoopWiring): Compactor | undefined {
  const settings = resolveCompaction(w.config.compaction);
  if (settings === undefined) return undefined;
  return new Compactor({
    settings,
    state: w.state,
    guard: w.guard,
    estimator: w.estimator,
    rotation: w.rotation,
    hook: w.hook,
    maxTurns: w.maxTurns,
    stream: w.config.stream,
    recorder: w.recorder,
    opTree: w.opTree,
    cancel: w.cancel,
    timeoutMs: w.config.llmTimeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    agentPath: w.agentPath,
    now: w.now,
  });
}

function journalPartsOf(w: LoopWiring): JournalParts {
  const { onJournal, resumeJournal } = w.config;
  return {
    journal: onJournal === undefined ? undefined : new TurnJournal(onJournal, w.sessionId, w.recorder),
    replay:
      w.resumeFrom === undefined || resumeJournal === undefined
        ? undefined
        : JournalReplay.of(resumeJournal, w.resumeFrom, w.sessionId, w.recorder),
  };
}

/** The loop's journal options; a new session that journals and checkpoints checkpoints before turn 1. */
function journalOptions(parts: JournalParts, fresh: boolean) {
  const { journal, replay } = parts;
  return {
    ...(journal === undefined ? {} : { journal, openingCheckpoint: fresh }),
    ...(replay === undefined ? {} : { replay }),
  };
}

/**
 * Sizes each tool result against the byte cap and the context, storing what is too large; a
 * session that compacts compacts inside the turn for a result that does not fit, measuring the
 * loop's next request with the results admitted so far.
 */
function resultSizerFor(w: LoopWiring, compactor: Compactor | undefined, loop: () => TurnLoop): ResultSizer {
  const { rotation } = w;
  const makeRoom =
    compactor === undefined
      ? undefined
      : (pendingRaw: number, overflow: number) =>
          compactor.duringTurn({ nextProjection: () => loop().nextProjection(pendingRaw) }, overflow);
  return new ResultSizer({
    hook: w.hook,
    estimator: w.estimator,
    guard: w.guard,
    recorder: w.recorder,
    toolResponseMaxBytes: w.config.toolResponseMaxBytes ?? DEFAULT_TOOL_RESPONSE_MAX_BYTES,
    // Captures the rotation alone: a closure over `w` would keep the whole wiring for the session.
    target: () => rotation.current(),
    signal: w.signal,
    ...(makeRoom === undefined ? {} : { makeRoom }),
  });
}

/** Runs the model's tool calls: the registry's tools, the hook's, and the internal ones chosen. */
function toolExecutorFor(
  w: LoopWiring,
  sizer: ResultSizer,
  choice: InternalToolChoice,
  offered: () => readonly ToolDefinition[],
  journaling: JournalParts,
  guards: GuardrailRunner | undefined,
  toolSearch: ToolSearch | undefined,
): ToolExecutor {
  return new ToolExecutor({
    registry: withHookTools(w.registry, w.hook, offered),
    recorder: w.recorder,
    opTree: w.opTree,
    sizer,
    toolTimeoutMs: w.config.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    maxToolCallsPerTurn: w.config.maxToolCallsPerTurn,
    taskStatus: choice.taskStatus,
    batch: choice.batch,
    reportBack: w.reportBack !== undefined,
    signal: w.signal,
    cancel: w.cancel,
    agentPath: w.agentPath,
    now: w.now,
    sessionId: w.sessionId,
    ...(journaling.journal === undefined ? {} : { journal: journaling.journal }),
    ...(journaling.replay === undefined ? {} : { replay: journaling.replay }),
    ...(guards === undefined ? {} : { guards }),
    ...(toolSearch === undefined ? {} : { toolSearch }),
  });
}

/**
 * The tools offered each turn: the registry's and the internal ones (with tool search on, the
 * always-on, found and `tool_search` instead of the registry's), plus the hook's while it has
 * stored outputs. The same array comes back while nothing changes, so the per-turn work sees no new list.
 */
function offeredTools(
  registered: readonly ToolDefinition[],
  internal: readonly ToolDefinition[],
  hook: ToolOutputHook | undefined,
  toolSearch: ToolSearch | undefined,
) {
  const all = toolSearch === undefined ? [...registered, ...internal] : undefined;
  const base = () => all ?? toolSearch!.offeredWith(internal);
  let withExtra:
    | { base: readonly ToolDefinition[]; extra: readonly ToolDefinition[]; all: readonly ToolDefinition[] }
    | undefined;
  return (): readonly ToolDefinition[] => {
    const fixed = base();
    const extra = hook?.tools()?.definitions;
    if (extra === undefined) return fixed;
    if (withExtra?.extra !== extra || withExtra.base !== fixed)
      withExtra = { base: fixed, extra, all: [...fixed, ...extra] };
    return withExtra.all;
  };
}
