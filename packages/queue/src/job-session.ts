import { redisUrlSecrets } from '@agent/cache';
import type { AgentResult, SessionSnapshot } from '@agent/protocol';
import type { RunJobData } from './job.js';
import type { QueueAgent, QueueRunOptions } from './worker-types.js';

/** Runs the job's session: fresh, resumed from its last checkpoint, or (already finished) answered from it. */
export function runJobSession(
  agent: QueueAgent,
  data: RunJobData,
  sessionId: string,
  snapshot: SessionSnapshot | undefined,
  hooks: Pick<QueueRunOptions, 'signal' | 'onEvent'>,
): Promise<AgentResult> {
  const options: QueueRunOptions = {
    ...hooks,
    ...(data.format === undefined ? {} : { format: data.format }),
    ...(data.schema === undefined ? {} : { schema: data.schema }),
    ...(data.headendId === undefined ? {} : { headendId: data.headendId }),
    ...(data.traceparent === undefined ? {} : { traceparent: data.traceparent }),
  };
  if (snapshot?.status === 'finished') return Promise.resolve(resultOfFinished(snapshot));
  // A resumed session keeps the owner and conversation its snapshot names.
  if (data.resume !== undefined) {
    // The decisions answer the pause; a resume job that moved after its first checkpoint is past it.
    const { approvals } = data.resume;
    const decided = snapshot?.status === 'awaiting_approval' && approvals !== undefined;
    return agent.resume(sessionId, decided ? { ...options, approvals } : options);
  }
  if (snapshot === undefined) {
    const fresh = {
      ...options,
      sessionId,
      durable: true as const,
      ...(data.owner === undefined ? {} : { owner: data.owner }),
      ...(data.conversationId === undefined ? {} : { conversationId: data.conversationId }),
    };
    return agent.run(data.input, fresh);
  }
  return agent.resume(sessionId, options);
}

/** The result of a session whose worker died after its last checkpoint and before answering. */
function resultOfFinished(snapshot: SessionSnapshot): AgentResult {
  const base = {
    exitCode: snapshot.exitCode ?? ('EXIT-UNCAUGHT-EXCEPTION' as const),
    conversation: snapshot.conversation,
    logs: [],
    accounting: snapshot.accounting,
    opTree: snapshot.opTree,
    sessionId: snapshot.sessionId,
  };
  if (snapshot.exitCode === 'EXIT-FINAL-ANSWER' && snapshot.finalReport !== undefined) {
    return { ...base, success: true, finalReport: snapshot.finalReport };
  }
  return {
    ...base,
    success: false,
    error: `the session ended (${base.exitCode}) before its worker stopped`,
    ...(snapshot.finalReport === undefined ? {} : { finalReport: snapshot.finalReport }),
  };
}

/** Why a job's agent is not run here: the worker does not serve it, or its agent file did not load here. */
export function unservedMessage(agent: string, loadFailures: readonly string[], url: string): string {
  const name = JSON.stringify(agent);
  if (loadFailures.length === 0) {
    return `this worker serves no agent named ${name}: start the workers with the same --agent files as the face`;
  }
  const secrets = redisUrlSecrets(url);
  const why = loadFailures.map((line) =>
    secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), line),
  );
  return `this worker cannot run agent ${name}: agent files did not load here: ${why.join('; ')}`;
}
