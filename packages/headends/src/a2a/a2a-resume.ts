import { type Message, TaskState } from '@a2a-js/sdk';
import type { RequestContext } from '@a2a-js/sdk/server';
import type { SessionSnapshot } from '@agent/protocol';
import type { SessionTicket } from '../admission.js';
import type { AgentCatalog } from '../agent-catalog.js';
import { sessionOwner } from '../principal.js';
import { checkDecisions, pendingCallIds } from '../sessions/decisions.js';
import { claimSession, findSession } from '../sessions/find-session.js';
import { callState } from './a2a-caller.js';
import { agentMessage, dataPart, textPart } from './a2a-parts.js';
import type { TaskEvents, TaskRuns } from './task-events.js';

/** What a follow-up on a task waiting for approval needs. */
export interface ResumeInput {
  catalog: AgentCatalog;
  headendId: string;
  context: RequestContext;
  events: TaskEvents;
  ticket: SessionTicket | undefined;
  runs: TaskRuns;
}

const ANSWER_SHAPE =
  'send a data part {"decisions": {"<callId>": {"approved": true} or {"approved": false, "reason": "..."}}}';

/**
 * The decisions a user message carries: a data part's `decisions`, or the text `approve` /
 * `deny` (`deny: <reason>`) when exactly one call waits. A string says why there are none.
 */
export function messageDecisions(message: Message, snapshot: SessionSnapshot): unknown {
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'data' && typeof content.value === 'object' && content.value !== null) {
      const value = content.value as Record<string, unknown>;
      if ('decisions' in value) return value.decisions;
    }
  }
  const text = message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join(' ')
    .trim();
  const match = /^(approve|approved|yes|deny|denied|no)\b[\s:.,-]*(.*)$/is.exec(text);
  const pending = pendingCallIds(snapshot);
  if (match === null) return `no decisions in the message: ${ANSWER_SHAPE}`;
  if (pending.length !== 1) {
    return `${pending.length} calls wait (${pending.join(', ')}): "approve"/"deny" answers only one; ${ANSWER_SHAPE}`;
  }
  const approved = /^(approve|approved|yes)$/i.test(match[1] ?? '');
  const reason = match[2]?.trim() ?? '';
  const callId = pending[0] as string;
  return { [callId]: approved || reason === '' ? { approved } : { approved, reason } };
}

/** Keeps the task INPUT_REQUIRED, saying what was wrong with the answer and what is still asked. */
function stayWaiting(input: ResumeInput, problem: string, snapshot?: SessionSnapshot): void {
  const { events } = input;
  const parts = [textPart(problem)];
  if (snapshot !== undefined) {
    const pending = new Set(pendingCallIds(snapshot));
    const calls = (snapshot.pending ?? []).filter((call) => pending.has(call.callId));
    parts.unshift(dataPart({ pendingApprovals: calls }));
  }
  events.status(
    TaskState.TASK_STATE_INPUT_REQUIRED,
    undefined,
    agentMessage(events.taskId, events.contextId, parts),
  );
}

/**
 * A message on a task waiting for approval: the REST sequence of `POST /v1/sessions/:id/approvals`
 * (claim, find, check the decisions, resume the session as the task's run). Decisions that do not
 * fit keep the task waiting, with the problem in its status message.
 */
export async function resumeTask(input: ResumeInput): Promise<void> {
  const { catalog, context, events } = input;
  const taskId = context.taskId;
  const claim = claimSession(catalog, taskId);
  if (claim === undefined) return stayWaiting(input, `task ${taskId} is being resumed by another request`);
  try {
    const found = await findSession(catalog, taskId, callState(context.context).principal);
    if (found.kind !== 'found') return stayWaiting(input, found.message);
    const given = messageDecisions(context.userMessage, found.snapshot);
    if (typeof given === 'string') return stayWaiting(input, given, found.snapshot);
    const checked = checkDecisions(found.snapshot, given);
    if (!checked.ok) return stayWaiting(input, checked.message, found.snapshot);
    const owner = sessionOwner(found.snapshot);
    const sessions = found.agent.sessions!;
    await input.runs.track(events, input.ticket, (options) =>
      sessions.resume(taskId, {
        ...options,
        approvals: checked.decisions,
        ...(owner === undefined ? {} : { owner }),
      }),
    );
  } finally {
    claim.release();
  }
}
