import type { Artifact, Message, Task, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';
import type { AgentResult } from '@agent/protocol';
import type { SessionTicket } from '../admission.js';
import type { ServedRunOptions } from '../agent-catalog.js';
import { agentMessage, textPart } from './a2a-parts.js';

/** What the executor publishes on one task's bus (it never throws: the SDK would log to the console). */
export class TaskEvents {
  constructor(
    private readonly bus: ExecutionEventBus,
    readonly taskId: string,
    readonly contextId: string,
  ) {}

  task(task: Task): void {
    this.bus.publish(AgentEvent.task(task));
  }

  status(state: TaskState, text?: string, message?: Message): void {
    const shown =
      message ??
      (text === undefined ? undefined : agentMessage(this.taskId, this.contextId, [textPart(text)]));
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        status: { state, message: shown, timestamp: new Date().toISOString() },
        metadata: {},
      }),
    );
  }

  artifact(artifact: Artifact): void {
    this.bus.publish(
      AgentEvent.artifactUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        artifact,
        append: false,
        lastChunk: true,
        metadata: {},
      }),
    );
  }
}

/** Runs a task's session as its live run and publishes how it ended (the executor does). */
export interface TaskRuns {
  track(
    events: TaskEvents,
    ticket: SessionTicket | undefined,
    start: (options: Pick<ServedRunOptions, 'signal' | 'onEvent' | 'headendId'>) => Promise<AgentResult>,
  ): Promise<void>;
}
