import { randomUUID } from 'node:crypto';
import { rejectedReport, syntheticFailureReport } from '@agent/final-report';
import {
  type AgentResult,
  BATCH_TOOL,
  ConfigError,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_TURNS,
  type ExitCode,
  type ExpectedOutput,
  FINAL_REPORT_TOOL,
  type FinalReport,
  ModelError,
  REPORT_BACK_TOOL,
  type SessionSnapshot,
  TASK_STATUS_TOOL,
  TOOL_OUTPUT_TOOL,
  type ToolDefinition,
  type ToolOutputHook,
} from '@agent/protocol';
import { abortableSleep, errorMessage, isPositiveInteger, isRecord } from '@agent/protocol/util';
import { createNonce } from '@agent/xml-transport';
import type { Checkpointer } from './checkpoint/checkpointer.js';
import { setUpDurability } from './checkpoint/durability.js';
import { type CheckpointParts, takeSnapshot } from './checkpoint/session-checkpoint.js';
import { resumableSnapshot } from './checkpoint/snapshot-check.js';
import { restoreToolOutputs } from './checkpoint/tool-output-carry.js';
import {
  type AgentSessionConfig,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_TOOL_RESPONSE_MAX_BYTES,
  DEFAULT_TOOL_TIMEOUT_MS,
} from './config.js';
import { validateConfig } from './config-validation.js';
import { ContextGuard } from './context/context-guard.js';
import { withExchanges } from './context/conversation-fit.js';
import { NoticeTokens } from './context/notice-tokens.js';
import { outputSchemaProblem } from './context/schema-preflight.js';
import { TokenEstimator } from './context/token-estimator.js';
import { samplingOptions } from './loop/sampling.js';
import { newSessionState, type SessionState } from './loop/session-state.js';
import { TargetRotation } from './loop/target-rotation.js';
import { TurnLoop } from './loop/turn-loop.js';
import { TurnNotices } from './loop/turn-notice.js';
import { OpTreeBuilder } from './observe/op-tree.js';
import { SessionRecorder } from './observe/recorder.js';
import { finSummaries } from './observe/summaries.js';
import {
  expectedOutput,
  initialConversation,
  modelTargets,
  reportBackTool,
  toolProviders,
} from './session-inputs.js';
import { batchTool, taskStatusTool } from './tools/internal-tools.js';
import { ResultSizer } from './tools/result-sizer.js';
import { ToolExecutor } from './tools/tool-executor.js';
import { toolOutputFactory } from './tools/tool-output-wiring.js';
import { ToolRegistry, withHookTools } from './tools/tool-registry.js';

export interface AgentSession {
  readonly sessionId: string;
  /** Runs the session once; calling it again returns the same promise. Never rejects for a run failure. */
  run(): Promise<AgentResult>;
  /** `stop` finishes with a final turn; `abort` cancels at once, mid-stream or mid-tool. */
  stop(reason: 'stop' | 'abort'): void;
}

const RESERVED_TOOLS = new Set([FINAL_REPORT_TOOL, TASK_STATUS_TOOL, BATCH_TOOL, TOOL_OUTPUT_TOOL]);

export function createAgentSession(config: AgentSessionConfig): AgentSession {
  const resumedId = isRecord(config.resumeFrom) ? config.resumeFrom.sessionId : undefined;
  const sessionId = typeof resumedId === 'string' ? resumedId : (config.sessionId ?? randomUUID());
  const controller = new AbortController();
  const state = newSessionState();
  const onExternalAbort = () =>
    controller.abort(new ModelError({ kind: 'aborted', message: 'the caller aborted the session' }));
  if (config.signal?.aborted) onExternalAbort();
  else config.signal?.addEventListener('abort', onExternalAbort, { once: true });
  let running: Promise<AgentResult> | undefined;
  return {
    sessionId,
    run() {
      running ??= runSession(config, sessionId, controller.signal, state).finally(() =>
        config.signal?.removeEventListener('abort', onExternalAbort),
      );
      return running;
    },
    stop(reason) {
      if (reason === 'abort')
        controller.abort(new ModelError({ kind: 'aborted', message: 'the session was stopped' }));
      else state.stopRequested = true;
    },
  };
}

/** Creates a session and runs it. */
export function runAgent(config: AgentSessionConfig): Promise<AgentResult> {
  return createAgentSession(config).run();
}

async function runSession(
  config: AgentSessionConfig,
  sessionId: string,
  signal: AbortSignal,
  state: SessionState,
): Promise<AgentResult> {
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
  );
  let opTree = new OpTreeBuilder(sessionId, agentName, now);
  let checkpointer: Checkpointer | undefined;
  let parts: CheckpointParts | undefined;
  let pausedSnapshot: SessionSnapshot | undefined;
  let expected: ExpectedOutput = { format: config.output?.format ?? 'markdown' };
  let reportBack: ToolDefinition | undefined;
  let hook: ToolOutputHook | undefined;
  let inputRejected = false;
  try {
    const cap = config.toolResponseMaxBytes;
    const toolOutput = await toolOutputFactory(config.toolOutput, {
      runChildSession: runAgent,
      agentPath,
      toolResponseMaxBytes: isPositiveInteger(cap) ? cap : DEFAULT_TOOL_RESPONSE_MAX_BYTES,
      capGiven: isPositiveInteger(cap),
    });
    const problems = [...validateConfig(config), ...toolOutput.problems];
    let resumeFrom: SessionSnapshot | undefined;
    try {
      resumeFrom = config.resumeFrom === undefined ? undefined : resumableSnapshot(config.resumeFrom);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error);
    }
    if (problems.length === 0) {
      try {
        expected = expectedOutput(config);
        reportBack = reportBackTool(config, expected);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        problems.push(error);
      }
    }
    if (problems.length > 0) {
      state.exitCode = 'EXIT-CONFIGURATION';
      state.error = ConfigError.of(problems, 'invalid session configuration').message;
      return finish();
    }
    const nonce = resumeFrom?.nonce ?? config.internal?.nonce ?? createNonce();
    const targets = modelTargets(config);
    const tools = toolProviders(config.tools);
    const primary = targets[0]!;
    const estimator = new TokenEstimator(primary.client);
    const guard = new ContextGuard(config.contextWindow, config.maxOutputTokens ?? 0);
    const rotation = new TargetRotation(targets);
    const opening = resumeFrom?.conversation ?? initialConversation(config, tools);
    const maxTurns = config.maxTurns ?? DEFAULT_MAX_TURNS;
    const maxRetries = config.maxRetries ?? DEFAULT_MAX_RETRIES;
    const notices = new TurnNotices(new NoticeTokens(estimator, nonce));
    const schemaProblem = outputSchemaProblem({
      notices,
      expected,
      messages: opening,
      targets,
      estimator,
      guard,
      nonce,
      maxTurns,
      maxRetries,
      ...(reportBack === undefined ? {} : { finalTools: [reportBack] }),
    });
    if (schemaProblem !== undefined) {
      state.exitCode = 'EXIT-CONFIGURATION';
      state.error = schemaProblem;
      inputRejected = true;
      return finish();
    }
    hook = toolOutput.factory?.({
      sessionId,
      nonce,
      targets,
      ...(config.maxOutputTokens === undefined ? {} : { maxOutputTokens: config.maxOutputTokens }),
      signal,
      log: (entry) => recorder.log(entry),
      account: (entry) => recorder.account(entry),
    });
    const reserved =
      reportBack === undefined ? RESERVED_TOOLS : new Set([...RESERVED_TOOLS, REPORT_BACK_TOOL]);
    const registry = await ToolRegistry.create(tools, reserved, signal);
    for (const warning of registry.warnings) {
      recorder.log({
        severity: 'WRN',
        direction: 'response',
        type: 'tool',
        remoteIdentifier: `mcp:${warning.provider}`,
        message: warning.message,
      });
    }
    const durable = setUpDurability({
      config,
      resumeFrom,
      sessionId,
      agent: agentName,
      agentPath,
      expected,
      reportBack: reportBack !== undefined,
      maxTurns,
      maxRetries,
      targets,
      tools: registry.definitions,
      nonce,
      state,
      rotation,
      estimator,
      recorder,
      opTree,
      now,
      signal,
      hook,
    });
    if (!durable.ok) {
      state.exitCode = 'EXIT-CONFIGURATION';
      state.error = durable.error;
      inputRejected = true;
      return finish();
    }
    await restoreToolOutputs(hook, resumeFrom, recorder);
    opTree = durable.opTree;
    checkpointer = durable.checkpointer;
    parts = durable.parts;
    const lookup = withHookTools(registry, hook);
    const sizer = new ResultSizer({
      hook,
      estimator,
      guard,
      recorder,
      toolResponseMaxBytes: config.toolResponseMaxBytes ?? DEFAULT_TOOL_RESPONSE_MAX_BYTES,
      target: () => rotation.current(),
      signal,
      now,
      agentPath,
    });
    const executor = new ToolExecutor({
      registry: lookup,
      recorder,
      opTree,
      sizer,
      toolTimeoutMs: config.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      maxToolCallsPerTurn: config.maxToolCallsPerTurn,
      internalTools: config.internalTools !== false,
      reportBack: reportBack !== undefined,
      signal,
      agentPath,
      now,
    });
    const finalTools = reportBack === undefined ? [] : [reportBack];
    const internal = [...(config.internalTools === false ? [] : [taskStatusTool, batchTool]), ...finalTools];
    const loop = new TurnLoop({
      state,
      recorder,
      opTree,
      rotation,
      estimator,
      guard,
      executor,
      sizer,
      tools: () => {
        const extra = hook?.tools();
        return extra === undefined
          ? [...registry.definitions, ...internal]
          : [...registry.definitions, ...internal, ...extra.definitions];
      },
      finalTools,
      reportBack: reportBack !== undefined,
      expected,
      nonce,
      notices,
      maxTurns,
      maxRetries,
      llmTimeoutMs: config.llmTimeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
      sampling: samplingOptions(config),
      signal,
      agentPath,
      now,
      sleep: config.internal?.sleep ?? abortableSleep,
      retryBackoff: config.retryBackoff,
      targets,
      ...(checkpointer === undefined ? {} : { checkpoint: () => checkpointer!.turnEnded() }),
      ...(durable.approvals === undefined ? {} : { approvals: durable.approvals }),
    });
    const first =
      resumeFrom === undefined ? withExchanges(opening, config.exchanges, loop, recorder) : opening;
    for (const message of first) loop.push(message);
    if (resumeFrom?.status === 'awaiting_approval') await loop.resumePaused(resumeFrom.turnCalls ?? []);
    else await loop.run();
    if (state.paused !== undefined && parts !== undefined) {
      pausedSnapshot = takeSnapshot(parts, 'awaiting_approval', { paused: state.paused });
    }
  } catch (error) {
    state.exitCode = signal.aborted ? 'EXIT-ABORTED' : 'EXIT-UNCAUGHT-EXCEPTION';
    state.error = signal.aborted ? 'the session was cancelled' : `unexpected error: ${errorMessage(error)}`;
  } finally {
    if (hook !== undefined) {
      await hook.dispose().catch((error: unknown) => {
        recorder.log({
          severity: 'WRN',
          direction: 'response',
          type: 'tool',
          remoteIdentifier: 'agent:tool-output',
          message: `releasing the tool-output store failed: ${errorMessage(error)}`,
        });
      });
    }
  }
  const result = finish();
  if (checkpointer === undefined) return result;
  if (pausedSnapshot === undefined) {
    await checkpointer.finished(result);
    return result;
  }
  if ((await checkpointer.paused(pausedSnapshot)) || result.success) return result;
  // The caller still has the snapshot in the result: nothing is lost, but it must know.
  return { ...result, error: `${result.error}; storing its snapshot failed: ${checkpointer.lastError}` };

  function finish(): AgentResult {
    const exitCode: ExitCode = state.exitCode ?? 'EXIT-UNCAUGHT-EXCEPTION';
    const committed = state.finalReport;
    if (committed !== undefined) {
      if (!state.reportStreamed) {
        const text =
          committed.content ??
          (committed.content_json === undefined ? '' : JSON.stringify(committed.content_json));
        if (text.length > 0) recorder.emit({ type: 'output', text }, 'finalize');
      }
      recorder.emit({ type: 'final_report', report: committed });
    }
    let finalReport = committed;
    if (finalReport === undefined && state.lastRejected !== undefined) {
      // Every attempt was refused: the last one is kept, marked, for the caller; it is not a
      // report of the session, so no `final_report` event says it is.
      finalReport = rejectedReport({ format: expected.format, ...state.lastRejected, now });
    } else if (finalReport === undefined && !state.finalReportFailedEver) {
      const synthetic: FinalReport = syntheticFailureReport({
        reason: state.error ?? 'the session ended without a final report',
        turnsCompleted: Math.max(0, state.turn - 1),
        finalReportAttempts: state.finalReportAttempts,
        lastStopReason: state.lastStopReason === undefined ? undefined : String(state.lastStopReason),
        format: expected.format,
      });
      finalReport = synthetic;
      recorder.emit({ type: 'final_report', report: synthetic });
    }
    const success = committed !== undefined;
    recorder.log({
      severity: success ? 'VRB' : 'ERR',
      direction: 'response',
      type: 'llm',
      remoteIdentifier: `agent:${exitCode}`,
      message: endingMessage(state, exitCode),
    });
    for (const line of finSummaries(recorder.accounting)) recorder.log(line);
    const tree = opTree.finish(success ? 'ok' : 'failed', success ? undefined : state.error);
    recorder.emit({ type: 'op_tree', tree });
    // Keys in the order results always had: success, exitCode, error, inputRejected, finalReport, ...
    const rest = {
      conversation: state.conversation,
      logs: recorder.logs,
      accounting: recorder.accounting,
      opTree: tree,
      sessionId,
    };
    if (committed !== undefined) return { success: true, exitCode, finalReport: committed, ...rest };
    return {
      success: false,
      exitCode,
      error: state.error ?? `the session ended without a final report (${exitCode})`,
      ...(inputRejected ? { inputRejected: true as const } : {}),
      ...(finalReport === undefined ? {} : { finalReport }),
      ...(state.paused === undefined ? {} : { pendingApprovals: state.paused.pending }),
      ...(pausedSnapshot === undefined ? {} : { snapshot: pausedSnapshot }),
      ...rest,
    };
  }
}

/** The ending marker's text; a report after the context guard fired says so (seed 002). */
function endingMessage(state: SessionState, exitCode: ExitCode): string {
  const committed = state.finalReport;
  if (committed === undefined) return state.error ?? exitCode;
  const after = state.forcedFinal === 'context' ? ' after the context guard forced the final turn' : '';
  return `final report committed (${committed.status})${after}`;
}
