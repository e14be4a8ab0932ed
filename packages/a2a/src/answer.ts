import {
  type Artifact,
  type Message,
  type Part,
  type StreamResponse,
  type Task,
  TaskState,
} from '@a2a-js/sdk';

/** What a call has heard of the remote task so far: enough to make the tool's result. */
export interface RemoteAnswer {
  taskId: string;
  contextId: string;
  /** Undefined for an agent that answered with a message and no task. */
  state: TaskState | undefined;
  statusText: string;
  /** Artifacts by id, in the order they first came. */
  artifacts: Map<string, Part[]>;
  /** A direct message reply (no task). */
  reply: Part[] | undefined;
}

export function emptyAnswer(taskId = '', contextId = ''): RemoteAnswer {
  return { taskId, contextId, state: undefined, statusText: '', artifacts: new Map(), reply: undefined };
}

/** The text parts of a message, joined. */
export function messageText(message: Message | undefined): string {
  return partsText(message?.parts ?? []);
}

export function partsText(parts: readonly Part[]): string {
  return parts
    .flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : []))
    .join('\n')
    .trim();
}

/** Takes in a whole task or message (sendMessage's result, a stream's first event). */
export function takeResult(answer: RemoteAnswer, result: Task | Message): void {
  if ('status' in result) {
    answer.taskId = result.id;
    answer.contextId = result.contextId;
    answer.state = result.status?.state;
    answer.statusText = messageText(result.status?.message);
    for (const artifact of result.artifacts ?? []) addArtifact(answer, artifact, false);
    return;
  }
  answer.reply = result.parts;
  answer.contextId = result.contextId || answer.contextId;
  answer.state ??= TaskState.TASK_STATE_COMPLETED;
}

/**
 * Takes in one stream event; returns a status message's text for progress. Artifact chunks
 * accumulate by id: `append` adds parts to what came before, else they replace it.
 */
export function takeEvent(answer: RemoteAnswer, event: StreamResponse): string | undefined {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
    case 'message':
      takeResult(answer, payload.value);
      return undefined;
    case 'statusUpdate': {
      const update = payload.value;
      answer.taskId = update.taskId || answer.taskId;
      answer.contextId = update.contextId || answer.contextId;
      answer.state = update.status?.state ?? answer.state;
      const text = messageText(update.status?.message);
      if (text !== '') answer.statusText = text;
      return text === '' ? undefined : text;
    }
    case 'artifactUpdate':
      if (payload.value.artifact !== undefined)
        addArtifact(answer, payload.value.artifact, payload.value.append);
      return undefined;
    default:
      return undefined;
  }
}

function addArtifact(answer: RemoteAnswer, artifact: Artifact, append: boolean): void {
  const before = append ? answer.artifacts.get(artifact.artifactId) : undefined;
  if (before === undefined) answer.artifacts.set(artifact.artifactId, [...artifact.parts]);
  else before.push(...artifact.parts);
}

/** Every part of the answer: the artifacts', else a direct reply's, else the status message's. */
export function answerParts(answer: RemoteAnswer): Part[] {
  const artifactParts = [...answer.artifacts.values()].flat();
  if (artifactParts.length > 0) return artifactParts;
  return answer.reply ?? [];
}

/** The first data part's value, if any. */
export function dataOf(parts: readonly Part[]): { found: boolean; value?: unknown } {
  for (const part of parts)
    if (part.content?.$case === 'data') return { found: true, value: part.content.value };
  return { found: false };
}

export function isFinished(state: TaskState | undefined): boolean {
  return (
    state === TaskState.TASK_STATE_COMPLETED ||
    state === TaskState.TASK_STATE_FAILED ||
    state === TaskState.TASK_STATE_CANCELED ||
    state === TaskState.TASK_STATE_REJECTED ||
    state === TaskState.TASK_STATE_INPUT_REQUIRED ||
    state === TaskState.TASK_STATE_AUTH_REQUIRED
  );
}
