import { randomUUID } from 'node:crypto';
import {
  type AgentResult,
  ConfigError,
  type ConversationMessage,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_TURNS,
  ModelError,
  type ToolOutputHook,
  type ToolProvider,
} from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
import { createNonce } from '@agent/xml-transport';
import type { Checkpointer } from './checkpoint/checkpointer.js';
import { setUpDurability } from './checkpoint/durability.js';
import { type CheckpointParts, takeSnapshot } from './checkpoint/session-checkpoint.js';
import { restoreToolOutputs } from './checkpoint/tool-output-carry.js';
import { initialCompactionState } from './compaction/plan.js';
import type { AgentSessionConfig } from './config.js';
import { ContextGuard } from './context/context-guard.js';
import { withExchanges } from './context/conversation-fit.js';
import { NoticeTokens } from './context/notice-tokens.js';
import { outputSchemaProblem } from './context/schema-preflight.js';
import { TokenEstimator } from './context/token-estimator.js';
import { childResumes } from './loop/paused-children.js';
import { SessionCancel } from './loop/session-cancel.js';
import { newSessionState, type SessionState } from './loop/session-state.js';
import { TargetRotation } from './loop/target-rotation.js';
import type { TurnLoop } from './loop/turn-loop.js';
import { TurnNotices } from './loop/turn-notice.js';
import { OpTreeBuilder } from './observe/op-tree.js';
import { SessionRecorder } from './observe/recorder.js';
import { fromSeedNames, type SeedConfig } from './seed-config.js';
import { type CheckedSession, checkSession } from './session-check.js';
import { finishSession, type SessionEnding } from './session-finish.js';
import { initialConversation, modelTargets, toolProviders } from './session-inputs.js';
import { logRegistryWarnings, logSeedNames } from './session-start-logs.js';
import { wireTurnLoop } from './session-wiring.js';
import { reservedToolNames, ToolRegistry } from './tools/tool-registry.js';

export interface AgentSession {
  readonly sessionId: string;
  /** Runs the session once; calling it again returns the same promise. Never rejects for a run failure. */
  run(): Promise<AgentResult>;
  /** `stop` finishes with a final turn; `abort` cancels at once, mid-stream or mid-tool. */
  stop(reason: 'stop' | 'abort'): void;
}

export function createAgentSession(input: AgentSessionConfig): AgentSession {
  const seed = fromSeedNames(input);
  const { config } = seed;
  const resumedId = isRecord(config.resumeFrom) ? config.resumeFrom.sessionId : undefined;
  const sessionId = typeof resumedId === 'string' ? resumedId : (config.sessionId ?? newSessionId());
  const cancel = new SessionCancel();
  const state = newSessionState();
  const onExternalAbort = () =>
    cancel.abort(new ModelError({ kind: 'aborted', message: 'the caller aborted the session' }));
  if (config.signal?.aborted) onExternalAbort();
  else config.signal?.addEventListener('abort', onExternalAbort, { once: true });
  let running: Promise<AgentResult> | undefined;
  return {
    sessionId,
    run() {
      running ??= runSession(seed, sessionId, cancel, state, onExternalAbort);
      return running;
    },
    stop(reason) {
      if (reason === 'abort')
        cancel.abort(new ModelError({ kind: 'aborted', message: 'the session was stopped' }));
      else state.stopRequested = true;
    },
  };
}

/**
 * A random session id as one flat string. `randomUUID` builds its text by concatenation, a rope
 * of about a dozen nodes (~400 bytes) kept for the whole session and walked wherever the id is
 * read; `toLowerCase`, which changes nothing in it, hands back the text flattened (56 bytes).
 */
function newSessionId(): string {
  return randomUUID().toLowerCase();
}

/** Creates a session and runs it. */
export function runAgent(config: AgentSessionConfig): Promise<AgentResult> {
  return createAgentSession(config).run();
}

/**
 * Runs the session, then stops listening to the caller's signal (`onExternalAbort`): here, not
 * in a `.finally` on this promise, which cost a promise, a reaction and three closures more.
 */
async function runSession(
  seed: SeedConfig,
  sessionId: string,
  cancel: SessionCancel,
  state: SessionState,
  onExternalAbort: () => void,
): Promise<AgentResult> {
  const { signal } = cancel;
  const { config } = seed;
  const now = config.internal?.now ?? Date.now;
  const agentName = config.name ?? 'main';
  const agentPath =
    config.parentAgentPath === undefined ? agentName : `${config.parentAgentPath}.${agentName}`;
  const recorder = new SessionRecorder(
    config.onEvent,
    {
      isMaster: config.isMaster ?? true,
      sessionId,
      agentPath,
      ...(config.headendId === undefined ? {} : { headendId: config.headendId }),
    },
    now,
    config.observe,
  );
  const end: SessionEnding = {
    sessionId,
    state,
    recorder,
    opTree: new OpTreeBuilder(sessionId, agentName, now),
    expected: { format: config.output?.format ?? 'markdown' },
    now,
    inputRejected: false,
    pausedSnapshot: undefined,
  };
  const run: SessionRun = { config, sessionId, agentName, agentPath, signal, cancel, end };
  logSeedNames(seed, recorder);
  try {
    try {
      if (seed.problems.length > 0)
        configurationFailed(
          end,
          ConfigError.of(seed.problems, 'invalid session configuration').message,
          false,
        );
      // The loop's promise is awaited here, not returned up through the setup's async frames:
      // each level that returns a promise resolves its own through one more job and reaction.
      const loop = seed.problems.length > 0 ? undefined : await runChecked(run);
      if (loop !== undefined) {
        await loop.turns;
        keepPausedSnapshot(end, loop.parts);
      }
    } catch (error) {
      state.exitCode = signal.aborted ? 'EXIT-ABORTED' : 'EXIT-UNCAUGHT-EXCEPTION';
      state.error = signal.aborted ? 'the session was cancelled' : `unexpected error: ${errorMessage(error)}`;
    } finally {
      await releaseHook(run);
    }
    return await settle(run, finishSession(end));
  } finally {
    config.signal?.removeEventListener('abort', onExternalAbort);
  }
}

/** The loop, running: handed up in an object (a promise returned would be resolved through). */
interface RunningLoop {
  turns: Promise<void>;
  parts: CheckpointParts;
}

/** One run's context, filled in as the session is set up. */
interface SessionRun {
  config: AgentSessionConfig;
  sessionId: string;
  agentName: string;
  agentPath: string;
  signal: AbortSignal;
  cancel: SessionCancel;
  end: SessionEnding;
  hook?: ToolOutputHook;
  checkpointer?: Checkpointer;
}

/** Checks the configuration, sets the session up and runs its loop. */
async function runChecked(run: SessionRun): Promise<RunningLoop | undefined> {
  const { config, end } = run;
  const checked = await checkSession(config, run.agentPath, runAgent);
  if (!checked.ok) return configurationFailed(end, checked.error, false);
  const { resumeFrom, reportBack } = checked;
  end.expected = checked.expected;
  const shared = sharedParts(run, checked);
  const tools = toolProviders(config.tools);
  const opening = resumeFrom?.conversation ?? initialConversation(config, tools);
  // Only a report with a schema has anything to check (and its input is not built otherwise).
  const schemaProblem =
    checked.expected.schema === undefined
      ? undefined
      : outputSchemaProblem({
          ...shared,
          messages: opening,
          ...(reportBack === undefined ? {} : { finalTools: [reportBack] }),
        });
  if (schemaProblem !== undefined) return configurationFailed(end, schemaProblem, true);
  // Settles when the setup is done (the loop runs on): this frame is not kept for the whole loop.
  return runLoop(run, shared, checked, tools, opening);
}

/** What the preflight, durability and the loop all take. */
function sharedParts(run: SessionRun, checked: CheckedSession) {
  const { config, end } = run;
  const nonce = checked.resumeFrom?.nonce ?? config.internal?.nonce ?? createNonce();
  const targets = modelTargets(config);
  const estimator = new TokenEstimator(targets[0]!.client);
  return {
    config,
    state: end.state,
    recorder: end.recorder,
    expected: checked.expected,
    nonce,
    targets,
    estimator,
    guard: new ContextGuard(
      config.contextWindow,
      config.maxOutputTokens ?? 0,
      (messages) => estimator.rawMessages(messages),
      (messages) => estimator.rawMessagesBound(messages),
    ),
    maxTurns: config.maxTurns ?? DEFAULT_MAX_TURNS,
    maxRetries: config.maxRetries ?? DEFAULT_MAX_RETRIES,
    notices: new TurnNotices(new NoticeTokens(estimator, nonce)),
    agentPath: run.agentPath,
    now: end.now,
    signal: run.signal,
    cancel: run.cancel,
  };
}

type SharedParts = ReturnType<typeof sharedParts>;

/** Builds the tool-output hook, the registry, durability and the loop, then runs the loop. */
async function runLoop(
  run: SessionRun,
  shared: SharedParts,
  checked: CheckedSession,
  tools: ToolProvider[],
  opening: readonly ConversationMessage[],
): Promise<RunningLoop | undefined> {
  const { config, end, signal } = run;
  const { recorder, targets } = shared;
  const { resumeFrom, reportBack } = checked;
  run.hook = openToolOutputHook(run, shared, checked);
  const reserved = reservedToolNames(reportBack !== undefined, config.toolSearch !== undefined);
  const registry = await ToolRegistry.create(tools, reserved, signal);
  logRegistryWarnings(registry, recorder);
  const rotation = new TargetRotation(targets);
  const durable = durabilityOf(run, shared, checked, registry, rotation);
  if (!durable.ok) return configurationFailed(end, durable.error, true);
  await restoreToolOutputs(run.hook, resumeFrom, recorder);
  end.opTree = durable.opTree;
  run.checkpointer = durable.checkpointer;
  const loop = turnLoopOf(run, shared, checked, { registry, rotation, durable });
  const first = resumeFrom === undefined ? withExchanges(opening, config.exchanges, loop, recorder) : opening;
  for (const message of first) loop.push(message);
  // The opening (system prompt, history, exchanges, the request) is never compacted.
  if (resumeFrom === undefined && config.compaction !== undefined && config.compaction !== false)
    end.state.compaction = initialCompactionState(first, first.length);
  // Driven in a frame of its own: this one (the setup's parts) is not kept for the whole loop.
  const turns =
    resumeFrom?.status === 'awaiting_approval'
      ? loop.resumePaused(resumeFrom.turnCalls ?? [], childResumes(resumeFrom, config.approvals))
      : loop.run();
  return { turns, parts: durable.parts };
}

/** After the loop: a session that paused keeps the snapshot to resume it from. */
function keepPausedSnapshot(end: SessionEnding, parts: CheckpointParts): void {
  const { paused } = end.state;
  if (paused !== undefined) end.pausedSnapshot = takeSnapshot(parts, 'awaiting_approval', { paused });
}

function configurationFailed(end: SessionEnding, error: string, inputRejected: boolean): undefined {
  end.state.exitCode = 'EXIT-CONFIGURATION';
  end.state.error = error;
  end.inputRejected = inputRejected;
  return undefined;
}

/** Releases the tool-output store; a failure is a warning, the result stands. */
async function releaseHook(run: SessionRun): Promise<void> {
  await run.hook?.dispose().catch((error: unknown) => {
    run.end.recorder.log({
      severity: 'WRN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:tool-output',
      message: `releasing the tool-output store failed: ${errorMessage(error)}`,
    });
  });
}

/** Stores the finished or paused session when it checkpoints; sends the snapshot as an event. */
async function settle(run: SessionRun, result: AgentResult): Promise<AgentResult> {
  const { checkpointer } = run;
  const paused = run.end.pausedSnapshot;
  if (checkpointer === undefined) {
    // No store: the paused snapshot is the one the result carries; consumers see it too.
    if (paused !== undefined) run.end.recorder.emit({ type: 'snapshot', payload: paused });
    return result;
  }
  if (paused === undefined) {
    await checkpointer.finished(result);
    return result;
  }
  if ((await checkpointer.paused(paused)) || result.success) return result;
  // The caller still has the snapshot in the result: nothing is lost, but it must know.
  return { ...result, error: `${result.error}; storing its snapshot failed: ${checkpointer.lastError}` };
}

/** The tool-output module's hook of this session, when its store is on. */
function openToolOutputHook(run: SessionRun, shared: SharedParts, checked: CheckedSession) {
  const { config, signal } = run;
  const { recorder, nonce, targets } = shared;
  return checked.toolOutput.factory?.({
    sessionId: run.sessionId,
    nonce,
    targets,
    ...(config.contextWindow === undefined ? {} : { contextWindow: config.contextWindow }),
    ...(config.maxOutputTokens === undefined ? {} : { maxOutputTokens: config.maxOutputTokens }),
    signal,
    log: (entry) => recorder.log(entry),
    account: (entry) => recorder.account(entry),
  });
}

/** Checkpoints and approvals of the session (a fresh one, or the snapshot it continues). */
function durabilityOf(
  run: SessionRun,
  shared: SharedParts,
  checked: CheckedSession,
  registry: ToolRegistry,
  rotation: TargetRotation,
) {
  // Listed, not spread from `shared`: a spread plus new keys builds each object the slow way.
  return setUpDurability({
    config: shared.config,
    resumeFrom: checked.resumeFrom,
    sessionId: run.sessionId,
    agent: run.agentName,
    agentPath: shared.agentPath,
    expected: shared.expected,
    reportBack: checked.reportBack !== undefined,
    maxTurns: shared.maxTurns,
    maxRetries: shared.maxRetries,
    targets: shared.targets,
    tools: registry.definitions,
    nonce: shared.nonce,
    state: shared.state,
    rotation,
    estimator: shared.estimator,
    recorder: shared.recorder,
    opTree: run.end.opTree,
    now: shared.now,
    signal: shared.signal,
    hook: run.hook,
  });
}

/** The turn loop over the session's parts, once durability is set up. */
function turnLoopOf(
  run: SessionRun,
  shared: SharedParts,
  checked: CheckedSession,
  parts: {
    registry: ToolRegistry;
    rotation: TargetRotation;
    durable: Extract<ReturnType<typeof setUpDurability>, { ok: true }>;
  },
): TurnLoop {
  const { durable } = parts;
  return wireTurnLoop({
    config: shared.config,
    state: shared.state,
    recorder: shared.recorder,
    opTree: run.end.opTree,
    rotation: parts.rotation,
    estimator: shared.estimator,
    guard: shared.guard,
    registry: parts.registry,
    hook: run.hook,
    reportBack: checked.reportBack,
    expected: shared.expected,
    nonce: shared.nonce,
    notices: shared.notices,
    maxTurns: shared.maxTurns,
    maxRetries: shared.maxRetries,
    targets: shared.targets,
    checkpointer: durable.checkpointer,
    approvals: durable.approvals,
    signal: shared.signal,
    cancel: shared.cancel,
    agentPath: shared.agentPath,
    now: shared.now,
    sessionId: run.sessionId,
    resumeFrom: checked.resumeFrom,
  });
}
