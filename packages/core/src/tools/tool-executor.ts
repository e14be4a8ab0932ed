import {
  BATCH_TOOL,
  FINAL_REPORT_SHORT_NAME,
  FINAL_REPORT_TOOL,
  type ForcedFinalReason,
  INTERNAL_TOOL_SERVER,
  isFinalReportName,
  type OpNode,
  type PausedChild,
  type ProgressEvent,
  REPORT_BACK_TOOL,
  TASK_STATUS_TOOL,
  TOOL_SEARCH_TOOL,
  type ToolAccountingEntry,
  type ToolCall,
  type ToolEndSession,
  type ToolResultMessage,
} from '@agent/protocol';
import { appendHeld } from '../observe/held-list.js';
import { AbortFanout, type CancelSource } from './abort-fanout.js';
import { CallBudget } from './call-budget.js';
import {
  type ExternalCallOptions,
  failedText,
  type PausedCall,
  type RawToolOutcome,
  remoteIdentifier,
  runExternalCall,
} from './call-runner.js';
import { readBatchCalls, readTaskStatus, taskStatusCharacters } from './internal-tools.js';
import { guardResult } from './result-guard.js';
import { ToolEvents } from './tool-events.js';
import type { ToolExecutorOptions, TurnToolsOutcome } from './tool-executor-options.js';

/**
 * A call that ran: what `finishCall` needs to write its accounting and log once the text the
 * model gets is known (kept as data, not in a closure per call).
 */
interface CallRun {
  call: ToolCall;
  node: OpNode;
  started: number;
  argsJson: string;
  outcome: RawToolOutcome;
  /** The context guard dropped the result: its projection, for the call's accounting entry. */
  refusal?: Record<string, number>;
}

export type { PausedCall, ToolExecutorOptions, TurnToolsOutcome };

/** Runs the native tool calls of one turn in parallel and turns every outcome into a tool message. */
export class ToolExecutor {
  private readonly events: ToolEvents;
  /** Where the calls in flight hear a cancellation. */
  private readonly cancel: CancelSource;

  /**
   * Paused sub-agent sessions the next run of their calls continues, by call id (used once);
   * made only by a resumed session that has some (an empty map is ~180 bytes per session).
   */
  private pausedChildren: Map<string, PausedChild> | undefined;

  constructor(private readonly options: ToolExecutorOptions) {
    this.events = new ToolEvents(options.recorder, options.agentPath);
    this.cancel = options.cancel ?? new AbortFanout(options.signal);
  }

  /** A resumed session's paused turn: its calls that ran a paused sub-agent continue that session. */
  continueChildren(children: ReadonlyMap<string, PausedChild>): void {
    if (children.size === 0) return;
    this.pausedChildren ??= new Map();
    for (const [callId, child] of children) this.pausedChildren.set(callId, child);
  }

  /** `denied`: calls that do not run (a person denied them, their approval no longer matches), by id, with what the model is told. */
  async runTurn(
    calls: readonly ToolCall[],
    turnNode: OpNode,
    denied?: ReadonlyMap<string, string>,
  ): Promise<TurnToolsOutcome> {
    const budget = new CallBudget(this.options.maxToolCallsPerTurn);
    let forceFinal: ForcedFinalReason | undefined;
    const requestFinal = (reason: ForcedFinalReason) => {
      forceFinal ??= reason;
    };
    // Slots are taken synchronously as each call (and each call inside a batch) starts, so the
    // budget goes to the calls in the order the model wrote them.
    const runs = await Promise.all(
      calls.map((call) => {
        const reason = denied?.get(call.id);
        if (reason !== undefined) return this.refuse(call, turnNode, reason, 'denied');
        const isBatch = call.name === BATCH_TOOL && this.options.batch && call.parseError === undefined;
        if (!isBatch && !budget.take()) return this.refuse(call, turnNode, budget.refusal);
        return this.runCall(call, turnNode, requestFinal, budget, denied);
      }),
    );
    // Sized in call order, so the context guard's decisions do not depend on which call ended first.
    const messages: ToolResultMessage[] = [];
    for (const [index, call] of calls.entries()) {
      const run = runs[index]!;
      const admitted = this.options.sizer.admit(call, run.outcome.text);
      const sized = admitted instanceof Promise ? await admitted : admitted;
      if (sized.contextExceeded) {
        forceFinal = 'context';
        // The result was dropped: the call failed for the model, and its one entry says why.
        run.outcome = { ...run.outcome, ok: false, text: sized.text, error: 'context_budget_exceeded' };
        run.refusal = sized.details;
      }
      this.finishCall(run, sized.text);
      const message: ToolResultMessage = {
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: sized.text,
      };
      if (!run.outcome.ok) message.isError = true;
      else if (run.outcome.toolReferences?.length) message.toolReferences = run.outcome.toolReferences;
      messages.push(message);
    }
    const onlyTaskStatus = calls.length > 0 && calls.every((call) => call.name === TASK_STATUS_TOOL);
    // Set only on calls that succeeded (a batch carries the one of its inner calls).
    const ending = runs.findIndex((run) => run.outcome.endSession !== undefined);
    const endSession =
      ending === -1
        ? undefined
        : { tool: calls[ending]!.name, report: runs[ending]!.outcome.endSession as ToolEndSession };
    // A sub-agent paused inside a batch is addressed by its inner call id (`<batch id>:<label>`),
    // which the resumed batch gives that inner call again.
    const tripped = runs.find((run) => run.outcome.guardrail !== undefined)?.outcome.guardrail;
    const paused = calls.flatMap((call, index): PausedCall[] => {
      const { paused: child, pausedInner } = runs[index]!.outcome;
      if (pausedInner !== undefined) return pausedInner;
      return child === undefined ? [] : [{ callId: call.id, ...child }];
    });
    // Optional fields set after the literal: a conditional spread cost an object and a copy each.
    const outcome: TurnToolsOutcome = { messages, onlyTaskStatus };
    if (forceFinal !== undefined) outcome.forceFinal = forceFinal;
    if (endSession !== undefined) outcome.endSession = endSession;
    if (paused.length > 0) outcome.paused = paused;
    if (tripped !== undefined) outcome.guardrail = tripped;
    return outcome;
  }

  private async refuse(
    call: ToolCall,
    parent: OpNode,
    message: string,
    error = 'too_many_calls',
  ): Promise<CallRun> {
    const node = this.options.opTree.begin(parent, 'tool', call.name);
    node.toolCallId = call.id;
    const started = this.options.now();
    const outcome: RawToolOutcome = { ok: false, text: failedText(message), error };
    this.events.started(call);
    this.events.finished(call, outcome, 0);
    const argsJson = call.rawArguments ?? JSON.stringify(call.arguments);
    return { call, node, started, argsJson, outcome };
  }

  /** Runs one call; its accounting is written by `finishCall`, once the text the model gets is known. */
  private async runCall(
    call: ToolCall,
    parent: OpNode,
    requestFinal: (reason: ForcedFinalReason) => void,
    budget: CallBudget,
    denied?: ReadonlyMap<string, string>,
  ): Promise<CallRun> {
    const node = this.options.opTree.begin(parent, 'tool', call.name);
    node.toolCallId = call.id;
    const started = this.options.now();
    const argsJson = call.rawArguments ?? JSON.stringify(call.arguments);
    this.events.started(call);
    let outcome: RawToolOutcome;
    if (call.parseError !== undefined) {
      outcome = {
        ok: false,
        text: failedText(`the arguments are not valid JSON (${call.parseError}); send a JSON object`),
        error: 'invalid_arguments',
      };
    } else if (call.name === TASK_STATUS_TOOL && this.options.taskStatus) {
      outcome = this.taskStatus(call, requestFinal);
    } else if (call.name === BATCH_TOOL && this.options.batch) {
      outcome = await this.batch(call, node, budget, denied);
    } else if (isFinalReportName(call.name)) {
      outcome = { ok: true, text: 'Final report captured.' };
    } else if (call.name === TOOL_SEARCH_TOOL && this.options.toolSearch !== undefined) {
      outcome = await this.options.toolSearch.run(call.arguments, this.options.recorder.turn);
    } else {
      // Called by its exact name (it may not have been offered yet): offered from the next request on.
      this.options.toolSearch?.noteCalled(call.name);
      this.options.recorder.line(
        'VRB',
        'request',
        'tool',
        remoteIdentifier(this.options.registry.resolve(call.name)?.provider, call.name),
        `call ${call.id}: ${truncateForLog(argsJson)}`,
      );
      const resume = this.pausedChildren?.get(call.id);
      this.pausedChildren?.delete(call.id);
      const callOptions: ExternalCallOptions = {
        cancel: this.cancel,
        timeoutMs: this.options.toolTimeoutMs,
        onProgress: (p) => this.events.progress(call, p),
        sessionId: this.options.sessionId,
        turn: this.options.recorder.turn,
      };
      if (resume !== undefined) callOptions.resume = resume;
      outcome = await this.external(call, callOptions);
      const { guards } = this.options;
      if (guards?.checks('result', call.name)) outcome = await guardResult(guards, call, outcome, parent);
    }
    this.events.finished(call, outcome, this.options.now() - started);
    return { call, node, started, argsJson, outcome };
  }

  /**
   * An external call: its journaled outcome when a resumed session has one, else run (and its
   * outcome journaled, awaited, before the turn sizes it and shows it to the model).
   */
  private async external(call: ToolCall, callOptions: ExternalCallOptions): Promise<RawToolOutcome> {
    const { journal, replay, registry } = this.options;
    const { turn } = callOptions;
    const replayed = replay?.outcome(turn, call.id);
    if (replayed !== undefined) {
      this.options.recorder.line(
        'VRB',
        'response',
        'tool',
        'agent:journal',
        `call ${call.id}: its outcome is replayed from the turn journal; the tool is not called again`,
      );
      const provider = registry.resolve(call.name)?.provider;
      if (provider !== undefined) replayed.provider = provider;
      return replayed;
    }
    const outcome = await runExternalCall(registry, call.name, call.arguments, call.id, callOptions);
    if (journal !== undefined) await journal.toolFinished(turn, call, outcome, this.options.signal.aborted);
    return outcome;
  }

  private finishCall(run: CallRun, textOut: string): void {
    const { call, node, started, argsJson, outcome } = run;
    const internal =
      (call.name.startsWith('agent__') ||
        (call.name === TOOL_SEARCH_TOOL && this.options.toolSearch !== undefined)) &&
      this.options.registry.resolve(call.name) === undefined;
    const entry: ToolAccountingEntry = {
      type: 'tool',
      timestamp: this.options.now(),
      status: outcome.ok ? 'ok' : 'failed',
      latency: this.options.now() - started,
      mcpServer: internal ? INTERNAL_TOOL_SERVER : (outcome.provider?.id ?? 'unknown'),
      command: call.name,
      callId: call.id,
      charactersIn: argsJson.length,
      charactersOut: charactersOut(call, internal, outcome.ok, textOut),
      turn: this.options.recorder.turn,
      agentPath: this.options.agentPath,
    };
    if (!outcome.ok) entry.error = outcome.error ?? 'failed';
    if (outcome.cached) entry.cached = true;
    if (outcome.replayed) entry.replayed = true;
    if (run.refusal !== undefined) entry.details = run.refusal;
    this.options.recorder.account(entry);
    if (outcome.cached) node.cached = true;
    if (outcome.childSession !== undefined) node.children = appendHeld(node.children, outcome.childSession);
    this.options.opTree.end(
      node,
      outcome.ok ? 'ok' : 'failed',
      entry,
      outcome.ok ? undefined : (outcome.error ?? 'failed'),
      outcome.structured,
    );
    if (!internal) {
      this.options.recorder.line(
        outcome.ok ? 'VRB' : 'WRN',
        'response',
        'tool',
        remoteIdentifier(outcome.provider, call.name),
        outcome.ok
          ? `call ${call.id}: ${outcome.text.length} characters in ${entry.latency} ms`
          : `call ${call.id} failed (${outcome.error}): ${truncateForLog(outcome.text)}`,
      );
    }
  }

  private taskStatus(call: ToolCall, requestFinal: (reason: ForcedFinalReason) => void): RawToolOutcome {
    const status = readTaskStatus(call.arguments);
    const event: ProgressEvent & { type: 'agent_update' } = {
      type: 'agent_update',
      agentPath: this.options.agentPath,
      message: status.now,
      status: status.status,
      now: status.now,
    };
    if (status.done !== undefined) event.done = status.done;
    if (status.pending !== undefined) event.pending = status.pending;
    this.options.recorder.emit({ type: 'progress', event });
    this.options.recorder.emit({ type: 'status', event });
    if (status.status === 'completed') requestFinal('task_status_completed');
    return {
      ok: true,
      text:
        status.status === 'completed' ? 'Status recorded. Send your final report now.' : 'Status recorded.',
    };
  }

  /** `denied`: inner calls that do not run (the tool policy denied them), by `<batch id>:<inner id>`. */
  private async batch(
    call: ToolCall,
    node: OpNode,
    budget: CallBudget,
    denied: ReadonlyMap<string, string> | undefined,
  ): Promise<RawToolOutcome> {
    const calls = readBatchCalls(call.arguments);
    if (typeof calls === 'string') return { ok: false, text: failedText(calls), error: 'invalid_arguments' };
    const forbidden = new Set([BATCH_TOOL, FINAL_REPORT_TOOL, FINAL_REPORT_SHORT_NAME, TASK_STATUS_TOOL]);
    if (this.options.reportBack === true) forbidden.add(REPORT_BACK_TOOL);
    const parts = await Promise.all(
      calls.map(async (inner) => {
        if (forbidden.has(inner.tool)) {
          return {
            id: inner.id,
            tool: inner.tool,
            ok: false,
            text: failedText(`${inner.tool} cannot run inside ${BATCH_TOOL}`),
          };
        }
        const innerCall: ToolCall = {
          id: `${call.id}:${inner.id}`,
          name: inner.tool,
          arguments: inner.parameters,
        };
        const refusal = denied?.get(innerCall.id);
        const run =
          refusal !== undefined
            ? await this.refuse(innerCall, node, refusal, 'denied')
            : budget.take()
              ? await this.runCall(innerCall, node, () => {}, budget)
              : await this.refuse(innerCall, node, budget.refusal);
        const sized = await this.options.sizer.resize(innerCall, run.outcome.text);
        this.finishCall(run, sized);
        const endSession = run.outcome.ok ? run.outcome.endSession : undefined;
        const paused =
          run.outcome.paused === undefined ? undefined : { callId: innerCall.id, ...run.outcome.paused };
        return { id: inner.id, tool: inner.tool, ok: run.outcome.ok, text: sized, endSession, paused };
      }),
    );
    // A sub-agent that paused inside the batch pauses the session (the batch runs again on resume).
    const pausedInner = parts.flatMap((p) => (p.paused === undefined ? [] : [p.paused]));
    const pausing = pausedInner.length === 0 ? {} : { pausedInner };
    // A batched call that answers for the session ends it as a direct call would.
    const ending = parts.find((p) => p.endSession !== undefined)?.endSession;
    const end = ending === undefined ? {} : { endSession: ending };
    const text = parts
      .map((p) => `--- result of call ${p.id} (${p.tool})${p.ok ? '' : ' [failed]'} ---\n${p.text}`)
      .join('\n\n');
    const failed = parts.filter((p) => !p.ok).length;
    if (failed === 0) return { ok: true, text, ...end };
    return {
      ok: false,
      text,
      error: 'partial_failure',
      summary: `${failed} of ${parts.length} batched calls failed`,
      ...end,
      ...pausing,
    };
  }
}

/**
 * `charactersOut` as seed 002 defines it: 0 for a failed external call, the size of the
 * `done`/`pending`/`now` texts for `agent__task_status`, else the text the model gets (after
 * handle replacement).
 */
function charactersOut(call: ToolCall, internal: boolean, ok: boolean, textOut: string): number {
  if (!internal) return ok ? textOut.length : 0;
  return ok && call.name === TASK_STATUS_TOOL ? taskStatusCharacters(call.arguments) : textOut.length;
}

function truncateForLog(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
