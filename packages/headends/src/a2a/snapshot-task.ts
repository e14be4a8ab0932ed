import { type Artifact, type Message, type Task, TaskState } from '@a2a-js/sdk';
import type { FinalReport, SessionSnapshot } from '@agent/protocol';
import { pendingCallIds } from '../sessions/decisions.js';
import { agentMessage, answeredReport, dataPart, reportParts, taskIn, textPart } from './a2a-parts.js';

/** The label the runtime keeps a session's conversation id under (`docs/sessions.md`). */
const CONVERSATION_LABEL = 'conversationId';

/** The question an input-required task asks: the pending calls as data, and how to answer. */
export function approvalQuestion(
  taskId: string,
  contextId: string,
  pending: SessionSnapshot['pending'],
): Message {
  const calls = (pending ?? []).map(({ callId, tool, arguments: args, argumentsHash }) => ({
    callId,
    tool,
    arguments: args,
    argumentsHash,
  }));
  const names = calls.map((call) => `${call.tool} (${call.callId})`).join(', ');
  const text =
    `Waiting for approval of ${names}. Answer on this task with a data part ` +
    '{"decisions": {"<callId>": {"approved": true} or {"approved": false, "reason": "..."}}}' +
    (calls.length === 1 ? ', or the text "approve" or "deny".' : '.');
  return agentMessage(taskId, contextId, [dataPart({ pendingApprovals: calls }), textPart(text)]);
}

/** The artifact of a report (one part: data for json, text for the text formats). */
export function reportArtifact(report: FinalReport): Artifact {
  return {
    artifactId: 'report',
    name: 'report',
    description: 'The final report of the run.',
    parts: reportParts(report),
    metadata: { format: report.format },
    extensions: [],
  };
}

/**
 * A task rebuilt from a stored session (task id = session id): after a restart, or for a task
 * another process ran. Paused → INPUT_REQUIRED with its pending calls; finished → COMPLETED
 * with the report, or FAILED; running → WORKING.
 */
export function snapshotTask(snapshot: SessionSnapshot): Task {
  const id = snapshot.sessionId;
  const contextId = snapshot.labels?.[CONVERSATION_LABEL] ?? '';
  const base = { id, contextId };
  if (snapshot.status === 'awaiting_approval' && pendingCallIds(snapshot).length > 0) {
    const pending = new Set(pendingCallIds(snapshot));
    const calls = (snapshot.pending ?? []).filter((call) => pending.has(call.callId));
    return taskIn(base, TaskState.TASK_STATE_INPUT_REQUIRED, approvalQuestion(id, contextId, calls));
  }
  if (snapshot.status !== 'finished') return taskIn(base, TaskState.TASK_STATE_WORKING);
  const report = answeredReport(snapshot);
  const succeeded = snapshot.exitCode === 'EXIT-FINAL-ANSWER' && report !== undefined;
  if (!succeeded) {
    const why = `the agent run failed (${snapshot.exitCode ?? 'no exit code'})`;
    return taskIn(base, TaskState.TASK_STATE_FAILED, agentMessage(id, contextId, [textPart(why)]));
  }
  return { ...taskIn(base, TaskState.TASK_STATE_COMPLETED), artifacts: [reportArtifact(report)] };
}
