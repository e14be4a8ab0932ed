import { type ApprovalDecision, BATCH_TOOL, type PendingToolCall, type ToolCall } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { toolNameMatcher } from '@agent/schema';
import type { SessionRecorder } from '../observe/recorder.js';
import { readBatchCalls } from './internal-tools.js';

/** What an approver is asked: one call, with its arguments, of one session. */
export interface ApprovalRequest {
  callId: string;
  tool: string;
  arguments: Record<string, unknown>;
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
  | { kind: 'run'; denied: ReadonlyMap<string, string>; decisions: Record<string, ApprovalDecision> }
  | { kind: 'pause'; pending: PendingToolCall[]; decisions: Record<string, ApprovalDecision> };

export interface ApprovalGateOptions {
  rule: ApprovalRule;
  approver: Approver | undefined;
  /** Decisions given when the session was resumed, by call id (consumed as used). */
  decisions: Map<string, ApprovalDecision>;
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

  async review(calls: readonly ToolCall[]): Promise<GateOutcome> {
    const denied = new Map<string, string>();
    const decisions: Record<string, ApprovalDecision> = {};
    const pending: PendingToolCall[] = [];
    for (const call of calls) {
      if (call.parseError !== undefined || !this.o.rule(call.name, call.arguments)) continue;
      let decision = this.o.decisions.get(call.id);
      this.o.decisions.delete(call.id);
      if (decision === undefined && this.o.approver !== undefined) decision = await this.ask(call);
      if (decision === undefined) {
        pending.push({ callId: call.id, tool: call.name, arguments: call.arguments });
        continue;
      }
      decisions[call.id] = decision;
      this.log(call, decision);
      if (!decision.approved) denied.set(call.id, decision.reason ?? 'no reason given');
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
        denied.set(call.id, 'it needs approval and came beside the final report');
    }
    return denied;
  }

  /** The approver's answer; one that throws or does not answer in time denies, saying so. */
  private async ask(call: ToolCall): Promise<ApprovalDecision> {
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
