import {
  BATCH_TOOL,
  isFinalReportName,
  type OpNode,
  REPORT_BACK_TOOL,
  TASK_STATUS_TOOL,
  type ToolCall,
  type ToolPolicyVerdict,
} from '@agent/protocol';
import type { SessionRecorder } from '../observe/recorder.js';
import { readBatchCalls } from '../tools/internal-tools.js';
import { type CompiledToolPolicy, policyDeniedMessage } from './tool-policy.js';

/** What the policy says about one call of an answer, as the approval gate acts on it. */
export type PolicyStep =
  /** The call does not run; `denied` holds what the model is told. */
  | { kind: 'denied' }
  /** A person decides it; `reason` is shown to the approver. */
  | { kind: 'ask'; reason: string }
  /** The policy lets it through (approval.tools and needsApproval may still ask). */
  | { kind: 'allow' };

const ALLOW: PolicyStep = { kind: 'allow' };

/**
 * Applies the tool policy to the calls of an answer: each external or sub-agent call (each call
 * inside `agent__batch` on its own) gets a verdict, an event, a log line and, once the calls ran,
 * its tool node's `policy`. The session's own report and status calls are not the policy's.
 */
export class ToolPolicyReview {
  /** The verdicts of the answer under review, by call id, until its tool nodes are marked. */
  private readonly verdicts = new Map<string, ToolPolicyVerdict>();

  constructor(
    private readonly policy: CompiledToolPolicy,
    private readonly recorder: SessionRecorder,
  ) {}

  /**
   * Decides `call`, adding what the model is told to `denied` for denied calls (for a batch,
   * its denied inner calls by their inner ids `<batch id>:<inner id>`; the batch itself runs).
   */
  step(call: ToolCall, denied: Map<string, string>): PolicyStep {
    if (isSessionOwn(call.name)) return ALLOW;
    if (call.name !== BATCH_TOOL) return this.apply(this.decide(call.id, call.name, call.arguments), denied);
    const inner = readBatchCalls(call.arguments);
    // A malformed batch fails on its own without running anything.
    if (typeof inner === 'string') return ALLOW;
    const asks: string[] = [];
    for (const one of inner) {
      if (isSessionOwn(one.tool) || one.tool === BATCH_TOOL) continue;
      const step = this.apply(this.decide(`${call.id}:${one.id}`, one.tool, one.parameters), denied);
      if (step.kind === 'ask') asks.push(`${one.id} (${one.tool}): ${step.reason}`);
    }
    return asks.length === 0 ? ALLOW : { kind: 'ask', reason: asks.join('; ') };
  }

  /** Sets the `policy` of the tool nodes (and batched calls' nodes) of the calls just decided. */
  mark(turnNode: OpNode): void {
    if (this.verdicts.size === 0) return;
    for (const node of turnNode.children) {
      if (node.kind !== 'tool') continue;
      this.markOne(node);
      for (const inner of node.children) if (inner.kind === 'tool') this.markOne(inner);
    }
    this.verdicts.clear();
  }

  private markOne(node: OpNode): void {
    const verdict = node.toolCallId === undefined ? undefined : this.verdicts.get(node.toolCallId);
    if (verdict !== undefined) node.policy = verdict;
  }

  private decide(callId: string, tool: string, args: Record<string, unknown>): ToolPolicyVerdict {
    const verdict = this.policy.decide(callId, tool, args);
    this.verdicts.set(callId, verdict);
    this.recorder.emit({ type: 'tool_policy', verdict });
    const why = verdict.reason === undefined ? '' : `: ${verdict.reason}`;
    this.recorder.log({
      severity: verdict.decision === 'allow' ? 'VRB' : 'WRN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:policy',
      message: `call ${callId} (${tool}): ${verdict.decision} by policy rule ${verdict.ruleName}${why}`,
    });
    return verdict;
  }

  private apply(verdict: ToolPolicyVerdict, denied: Map<string, string>): PolicyStep {
    if (verdict.decision === 'allow') return ALLOW;
    if (verdict.decision === 'deny') {
      denied.set(verdict.callId, policyDeniedMessage(verdict));
      return { kind: 'denied' };
    }
    return {
      kind: 'ask',
      reason: `policy rule ${verdict.ruleName}: ${verdict.reason ?? 'a person decides this call'}`,
    };
  }
}

/** The session's own tools: the report and status calls are not external calls. */
function isSessionOwn(name: string): boolean {
  return isFinalReportName(name) || name === TASK_STATUS_TOOL || name === REPORT_BACK_TOOL;
}
