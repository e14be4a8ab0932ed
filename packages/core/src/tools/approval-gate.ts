import { type ApprovalDecision, BATCH_TOOL, type PendingToolCall, type ToolCall } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { toolNameMatcher } from '@agent/schema';
import type { SessionRecorder } from '../observe/recorder.js';
import { argumentsHash } from './arguments-hash.js';
import { readBatchCalls } from './internal-tools.js';

/** What an approver is asked: one call, with its arguments, of one session. */
export interface ApprovalRequest {
  callId: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** The hash the decision is bound to (`argumentsHash`). */
  argumentsHash: string;
  sessionId: string;
  agentPath: string;
}

/** Decides a call that needs approval; the session waits for it (up to `approvalTimeoutMs`). */
export type Approver = (
  request: ApprovalRequest,
  context: { signal: AbortSignal },
) => ApprovalDecision | Promise<ApprovalDecision>;

/** Whether one call needs a person's decision. */
export type ApprovalRule = (tool: string, args: Record<string, unknown>) => boolean;

/** Default wait for an approver's answer: 10 minutes, then the call is denied. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 600_000;

/**
 * The rule of a session: the tool-name globs of `approval.tools` and each `tool()`'s own
 * `needsApproval`; undefined when nothing needs approval (the turn loop then skips the gate).
 */
export function approvalRule(
  globs: readonly string[] | undefined,
  perTool: ReadonlyMap<string, ApprovalRule>,
): ApprovalRule | undefined {
  const matches = toolNameMatcher(globs);
  if (matches === undefined && perTool.size === 0) return undefined;
  const rule: ApprovalRule = (tool, args) =>
    matches?.(tool) === true || perTool.get(tool)?.(tool, args) === true;
  // A batch needs approval when any call inside it does: it must not be a way around the rule.
  return (tool, args) => {
    if (tool !== BATCH_TOOL) return rule(tool, args);
    const inner = readBatchCalls(args);
    return typeof inner !== 'string' && inner.some((call) => rule(call.tool, call.parameters));
  };
}

/** What the gate decided for the calls of one answer. */
export type GateOutcome =
  /** `denied`: the calls that do not run, by id, with the text the model gets instead. */
  | { kind: 'run'; denied: ReadonlyMap<string, string>; decisions: Record<string, ApprovalDecision> }
  | { kind: 'pause'; pending: PendingToolCall[]; decisions: Record<string, ApprovalDecision> };

export interface ApprovalGateOptions {
  rule: ApprovalRule;
  approver: Approver | undefined;
  /** Decisions given when the session was resumed, by call id (consumed as used). */
  decisions: Map<string, ApprovalDecision>;
  /**
   * The hashes of the arguments shown for approval, by call id: the paused snapshot's pending
   * calls and recorded decisions. A call with one runs only if its arguments still hash to it.
   */
  shown: ReadonlyMap<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  sessionId: string;
  agentPath: string;
  recorder: SessionRecorder;
}

/**
 * Stands between an answer's tool calls and their execution: calls that need approval get a
 * decision (given at resume, or asked of the approver one at a time, in the model's order);
 * without an approver the calls left undecided pause the session. Nothing has run when it pauses.
 */
export class ApprovalGate {
  constructor(private readonly o: ApprovalGateOptions) {}

  /** `asks`: calls an `arguments` guardrail sends to a person (by id), whatever the rule says. */
  async review(calls: readonly ToolCall[], asks?: ReadonlyMap<string, string>): Promise<GateOutcome> {
    const denied = new Map<string, string>();
    const decisions: Record<string, ApprovalDecision> = {};
    const pending: PendingToolCall[] = [];
    for (const call of calls) {
      if (call.parseError !== undefined) continue;
      const given = this.o.decisions.get(call.id);
      this.o.decisions.delete(call.id);
      const hash = argumentsHash(call.arguments);
      // Checked before the rule: arguments edited so the rule no longer picks the call still run nothing.
      const mismatch = bindingMismatch(call.id, given?.argumentsHash ?? this.o.shown.get(call.id), hash);
      if (mismatch !== undefined) {
        decisions[call.id] = { approved: false, reason: mismatch, argumentsHash: hash };
        this.logRefusal(mismatch);
        denied.set(call.id, mismatch);
        continue;
      }
      if (!this.o.rule(call.name, call.arguments) && asks?.has(call.id) !== true) continue;
      let decision = given;
      if (decision === undefined && this.o.approver !== undefined) decision = await this.ask(call, hash);
      if (decision === undefined) {
        pending.push({ callId: call.id, tool: call.name, arguments: call.arguments, argumentsHash: hash });
        continue;
      }
      decisions[call.id] = { ...decision, argumentsHash: hash };
      this.log(call, decision);
      if (!decision.approved) denied.set(call.id, deniedMessage(decision.reason ?? 'no reason given'));
    }
    if (pending.length > 0) return { kind: 'pause', pending, decisions };
    return { kind: 'run', denied, decisions };
  }

  /**
   * Calls beside a committed report that need approval: they are not run (the report ends the
   * session; nothing can wait for a decision), and the model's transcript says why.
   */
  unreviewable(calls: readonly ToolCall[]): ReadonlyMap<string, string> {
    const denied = new Map<string, string>();
    for (const call of calls) {
      if (this.o.rule(call.name, call.arguments))
        denied.set(call.id, deniedMessage('it needs approval and came beside the final report'));
    }
    return denied;
  }

  /** The approver's answer; one that throws or does not answer in time denies, saying so. */
  private async ask(call: ToolCall, hash: string): Promise<ApprovalDecision> {
    const { approver, timeoutMs, signal } = this.o;
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = AbortSignal.any([signal, timeout]);
    let cancel: () => void = () => {};
    const stopped = new Promise<ApprovalDecision>((resolve) => {
      const onAbort = () =>
        resolve({
          approved: false,
          reason: timeout.aborted
            ? `no decision within ${describeWait(timeoutMs)}`
            : 'the session was cancelled',
        });
      both.addEventListener('abort', onAbort, { once: true });
      cancel = () => both.removeEventListener('abort', onAbort);
    });
    const request: ApprovalRequest = {
      callId: call.id,
      tool: call.name,
      arguments: call.arguments,
      argumentsHash: hash,
      sessionId: this.o.sessionId,
      agentPath: this.o.agentPath,
    };
    try {
      const answer = Promise.resolve()
        .then(() => approver!(request, { signal: both }))
        .then(normalise, (error: unknown) => ({
          approved: false as const,
          reason: `the approver failed: ${errorMessage(error)}`,
        }));
      return await Promise.race([answer, stopped]);
    } finally {
      cancel();
    }
  }

  private logRefusal(why: string): void {
    this.o.recorder.log({
      severity: 'WRN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:approval',
      message: why,
    });
  }

  private log(call: ToolCall, decision: ApprovalDecision): void {
    this.o.recorder.log({
      severity: decision.approved ? 'VRB' : 'WRN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:approval',
      message: decision.approved
        ? `call ${call.id} (${call.name}) approved`
        : `call ${call.id} (${call.name}) denied: ${decision.reason ?? 'no reason given'}`,
    });
  }
}

/** Why a call does not run: the hash its decision is bound to is not its arguments' (undefined: it is, or none). */
function bindingMismatch(callId: string, bound: string | undefined, actual: string): string | undefined {
  if (bound === undefined || bound === actual) return undefined;
  return `call ${callId} was not run: its arguments changed after approval (approved ${bound}, the call has ${actual})`;
}

/** An approver's answer as the session keeps it (anything but `approved: true` denies). */
function normalise(value: unknown): ApprovalDecision {
  const answer = value as { approved?: unknown; reason?: unknown } | undefined;
  if (answer?.approved === true) return { approved: true };
  return typeof answer?.reason === 'string' && answer.reason.length > 0
    ? { approved: false, reason: answer.reason }
    : { approved: false };
}

/** The text the model gets for a denied call. */
export function deniedMessage(reason: string): string {
  return `a person denied this call: ${reason}`;
}

function describeWait(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
