import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';

/** A fetch that sends `token` as a bearer token (none: no Authorization header). */
function bearerFetch(token: string | undefined): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

/** The official SDK's client for `agent` on the A2A face at `faceUrl` (`http://…/a2a`), from its card. */
export function a2aClient(faceUrl: string, agent: string, token?: string): Promise<Client> {
  const fetchImpl = bearerFetch(token);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${faceUrl}/${agent}/.well-known/agent-card.json`, '');
}

const part = (content: Part['content'], mediaType: string): Part => ({
  content,
  mediaType,
  filename: '',
  metadata: {},
});

/** The request `sendMessage` takes: a user message of these parts (on `taskId` when it continues one). */
export function send(parts: Part[], task?: Pick<Task, 'id' | 'contextId'>): SendMessageRequest {
  const message: Message = {
    messageId: randomUUID(),
    contextId: task?.contextId ?? '',
    taskId: task?.id ?? '',
    role: Role.ROLE_USER,
    parts,
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
  return {
    tenant: '',
    message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: false,
    },
    metadata: {},
  };
}

export const textPart = (value: string): Part => part({ $case: 'text', value }, 'text/plain');
export const dataPart = (value: unknown): Part => part({ $case: 'data', value }, 'application/json');

/** The task a send answered with (the face answers with a task). */
export function asTask(answer: Message | Task): Task {
  if (!('status' in answer)) throw new Error(`expected a task, got a message: ${JSON.stringify(answer)}`);
  return answer;
}

/** A task's state by name (`TASK_STATE_COMPLETED`), for readable assertions. */
export const stateOf = (task: Task) => TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED];

/** Every text and data part of the task's artifacts, in order. */
export function artifactValues(task: Task): unknown[] {
  return (task.artifacts ?? []).flatMap((artifact) => artifact.parts.map((p) => p.content?.value));
}

/** The data parts of the task's status message (`pendingApprovals` of an INPUT_REQUIRED task). */
export function statusData(task: Task): unknown[] {
  return (task.status?.message?.parts ?? []).flatMap((p) =>
    p.content?.$case === 'data' ? [p.content.value] : [],
  );
}
