import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type SendMessageRequest, type Task } from '@a2a-js/sdk';
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

/** The official SDK's client for `agent` on the face at `baseUrl`, from its card. */
export async function a2aClient(baseUrl: string, agent: string, token: string | undefined): Promise<Client> {
  const fetchImpl = bearerFetch(token);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${baseUrl}/a2a/${agent}/.well-known/agent-card.json`, '');
}

export function text(value: string): Part {
  return { content: { $case: 'text', value }, mediaType: 'text/plain', filename: '', metadata: {} };
}

export function data(value: unknown): Part {
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
