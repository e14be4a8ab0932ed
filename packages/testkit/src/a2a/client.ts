// Clients of an A2A face in tests: the official SDK's client, message and request builders, and
// readers of the tasks it answers.
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
export function bearerFetch(token: string | undefined): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

/** The official SDK's client for `agent` on the A2A face at `faceUrl` (`http://…/a2a`), from its card. */
export async function a2aClient(faceUrl: string, agent: string, token?: string): Promise<Client> {
  const fetchImpl = bearerFetch(token);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${faceUrl}/${agent}/.well-known/agent-card.json`, '');
}

export function textPart(value: string): Part {
  return { content: { $case: 'text', value }, mediaType: 'text/plain', filename: '', metadata: {} };
}

export function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, mediaType: 'application/json', filename: '', metadata: {} };
}

/** A user message (on `taskId` when it continues a task). */
export function userMessage(parts: Part[], taskId = '', contextId = ''): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_USER,
    parts,
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The request `sendMessage` takes for `message`. */
export function sendRequest(message: Message, returnImmediately = false): SendMessageRequest {
  return {
    tenant: '',
    message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately,
    },
    metadata: {},
  };
}

/** The request for a user message of these parts (on `task` when it continues one). */
export function send(parts: Part[], task?: Pick<Task, 'id' | 'contextId'>): SendMessageRequest {
  return sendRequest(userMessage(parts, task?.id, task?.contextId));
}

/** The task a send answered with (the face always answers with a task). */
export function asTask(answer: Message | Task): Task {
  if (!('status' in answer)) throw new Error(`expected a task, got a message: ${JSON.stringify(answer)}`);
  return answer;
}

/** The text of a task's status message. */
export function statusText(task: Task): string {
  return (task.status?.message?.parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('\n');
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

/** A raw A2A v0.3 `message/send` call (no A2A-Version header, as v0.3 clients send it). */
export function postV03Send(
  url: string,
  token: string,
  id: string | number,
  prompt: string,
): Promise<Response> {
  const message = {
    kind: 'message',
    messageId: `m-${id}`,
    role: 'user',
    parts: [{ kind: 'text', text: prompt }],
  };
  return bearerFetch(token)(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'message/send', params: { message } }),
  });
}
