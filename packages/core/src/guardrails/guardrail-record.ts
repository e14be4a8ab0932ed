import type {
  Guardrail,
  GuardrailAccountingEntry,
  GuardrailRun,
  GuardrailVerdict,
  LogEntry,
  OpNode,
} from '@agent/protocol';
import { appendHeld } from '../observe/held-list.js';
import type { OpTreeBuilder } from '../observe/op-tree.js';
import type { SessionRecorder } from '../observe/recorder.js';

/** Where a guardrail run is recorded: the session's voice and op tree. */
export interface GuardrailRecordTarget {
  recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  agentPath: string;
  now: () => number;
}

/**
 * Records one guardrail run everywhere it is seen: the `guardrail` event, its accounting entry
 * (plus the entries the verdict carries, e.g. a model judge's own calls), an op-tree node under
 * `parent` (with the verdict's op tree below it) and a log line `agent:guardrail`.
 */
export function recordGuardrailRun(
  target: GuardrailRecordTarget,
  parent: OpNode,
  run: GuardrailRun,
  verdict: GuardrailVerdict | undefined,
  tripped: boolean,
): void {
  const { recorder, opTree } = target;
  recorder.emit({ type: 'guardrail', run });
  for (const entry of verdict?.accounting ?? []) recorder.account(entry);
  const entry: GuardrailAccountingEntry = {
    type: 'guardrail',
    timestamp: target.now(),
    status: run.outcome === 'error' ? 'failed' : 'ok',
    latency: run.latencyMs,
    name: run.name,
    on: run.on,
    phase: run.phase,
    outcome: run.outcome,
    turn: recorder.turn,
    agentPath: target.agentPath,
  };
  if (run.callId !== undefined) entry.callId = run.callId;
  recorder.account(entry);
  const node = opTree.begin(parent, 'guardrail', `guardrail ${run.name} (${run.phase})`);
  node.guardrail = run;
  if (run.callId !== undefined) node.toolCallId = run.callId;
  if (verdict?.opTree !== undefined) node.children = appendHeld(node.children, verdict.opTree);
  const failed = tripped || (run.outcome === 'error' && run.failedOpen !== true);
  opTree.end(node, failed ? 'failed' : 'ok', entry, failed ? (run.reason ?? run.outcome) : undefined);
  const type = run.on === 'tool' ? 'tool' : 'llm';
  recorder.line(severityOf(run, tripped), 'response', type, 'agent:guardrail', describeRun(run));
}

function severityOf(run: GuardrailRun, tripped: boolean): LogEntry['severity'] {
  if (tripped) return 'ERR';
  return run.outcome === 'pass' ? 'VRB' : 'WRN';
}

function describeRun(run: GuardrailRun): string {
  const call = run.callId === undefined ? '' : ` call ${run.callId} (${run.tool})`;
  const open = run.failedOpen === true ? ' (failed open: the run goes on)' : '';
  const reason = run.reason === undefined ? '' : `: ${run.reason}`;
  return `guardrail ${run.name} ${run.on}/${run.phase}${call}: ${run.outcome}${open} in ${run.latencyMs} ms${reason}`;
}

/** Whether a guardrail checks `phase` (its own `phases`, else every phase of its stage). */
export function checksPhase(guard: Guardrail, phase: GuardrailRun['phase']): boolean {
  return guard.phases === undefined || guard.phases.includes(phase);
}
