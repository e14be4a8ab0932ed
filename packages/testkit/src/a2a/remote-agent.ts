// A remote A2A agent served by the official SDK's own server (express), for tests (`@agent/testkit/a2a`):
// skills that answer text, a data artifact, stream status updates, ask for input, or wait to be canceled.

import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, type Part, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';

export interface RemoteAgent {
  cardUrl: string;
  /** The Authorization header of every request, in order. */
  authorizations: (string | undefined)[];
  /** Message metadata of every message received. */
  metadata: Record<string, unknown>[];
  canceled: string[];
  /** `start <prompt>` / `end <prompt>` of each `pause` call, in order. */
  log: string[];
  /** Tokens the OAuth endpoint issued (with `oauth`). */
  issued: string[];
  close(): Promise<void>;
}

/** A client the agent's own OAuth token endpoint knows (`client_credentials`, HTTP basic auth). */
export interface RemoteAgentOAuth {
  clientId: string;
  clientSecret: string;
}

const SKILLS = ['answer', 'weather', 'progress', 'ask', 'slow', 'pause'];
/** How long a `pause` call takes. */
const PAUSE_MS = 300;

function text(value: string): Part {
  return { content: { $case: 'text', value }, mediaType: 'text/plain', filename: '', metadata: undefined };
}
function data(value: unknown): Part {
  return {
    content: { $case: 'data', value },
    mediaType: 'application/json',
    filename: '',
    metadata: undefined,
  };
}

class TestExecutor implements AgentExecutor {
  private readonly waiting = new Map<string, () => void>();
  constructor(private readonly agent: RemoteAgent) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = ctx;
    const message = ctx.userMessage;
    const metadata = message.metadata ?? {};
    this.agent.metadata.push(metadata);
    const prompt =
      message.parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : []))[0] ?? '';
    const status = (state: TaskState, words?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            timestamp: new Date().toISOString(),
            message:
              words === undefined
                ? undefined
                : {
                    messageId: `m-${Math.random()}`,
                    taskId,
                    contextId,
                    role: 2,
                    parts: [text(words)],
                    metadata: undefined,
                    extensions: [],
                    referenceTaskIds: [],
                  },
          },
          metadata: undefined,
        }),
      );
    const artifact = (parts: Part[], append = false, artifactId = 'answer') =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId,
            name: 'answer',
            description: '',
            parts,
            metadata: undefined,
            extensions: [],
          },
          append,
          lastChunk: true,
          metadata: undefined,
        }),
      );
    // The SDK wants a task (or message) first on every turn, a follow-up's too.
    bus.publish(
      AgentEvent.task(
        ctx.task ?? {
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
          artifacts: [],
          history: [message],
          metadata: {},
        },
      ),
    );
    const skill = String(metadata.skillId ?? 'answer');
    if (skill === 'answer') {
      artifact([text(`hello from remote: ${prompt}`)]);
    } else if (skill === 'weather') {
      artifact([data(prompt.includes('broken') ? { city: 3 } : { city: 'Paris', temperature: 21 })]);
    } else if (skill === 'progress') {
      status(TaskState.TASK_STATE_WORKING, 'looking it up');
      status(TaskState.TASK_STATE_WORKING, 'writing it down');
      artifact([text('part one, ')], false, 'chunked');
      artifact([text('part two')], true, 'chunked');
    } else if (skill === 'ask') {
      if (ctx.task === undefined) {
        status(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which city?');
        bus.finished();
        return;
      }
      artifact([text(`the weather in ${prompt} is fine`)]);
    } else if (skill === 'pause') {
      this.agent.log.push(`start ${prompt}`);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      this.agent.log.push(`end ${prompt}`);
      artifact([text(`paused: ${prompt}`)]);
    } else if (skill === 'slow') {
      status(TaskState.TASK_STATE_WORKING, 'thinking slowly');
      await new Promise<void>((resolve) => this.waiting.set(taskId, resolve));
      status(TaskState.TASK_STATE_CANCELED, 'canceled by the client');
      bus.finished();
      return;
    }
    status(TaskState.TASK_STATE_COMPLETED);
    bus.finished();
  }

  async cancelTask(taskId: string): Promise<void> {
    this.agent.canceled.push(taskId);
    this.waiting.get(taskId)?.();
  }
}

/**
 * Starts the remote agent on a free loopback port; `skills: false` serves a card without skills.
 * With `oauth` the JSON-RPC endpoint answers 401 without a token from its own token endpoint
 * (RFC 9728 resource metadata, RFC 8414 server metadata, the client_credentials grant).
 */
export async function startRemoteAgent(
  options: { skills?: boolean; streaming?: boolean; oauth?: RemoteAgentOAuth } = {},
): Promise<RemoteAgent> {
  const app = express();
  const agent: RemoteAgent = {
    cardUrl: '',
    authorizations: [],
    metadata: [],
    canceled: [],
    log: [],
    issued: [],
    close: async () => {},
  };
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: 'Weather desk',
    description: 'Answers questions about the weather',
    supportedInterfaces: [
      { url: `${base}/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: options.streaming ?? true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills:
      options.skills === false
        ? []
        : SKILLS.map((id) => ({
            id,
            name: id,
            description: `The ${id} skill`,
            tags: [],
            examples: [],
            inputModes: [],
            outputModes: [],
            securityRequirements: [],
          })),
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new TestExecutor(agent));
  app.use((req, _res, next) => {
    agent.authorizations.push(req.headers.authorization);
    next();
  });
  app.get('/broken/agent-card.json', (_req, res) => {
    res.json({ description: 'no name, no endpoint' });
  });
  // The card as JSON (the SDK's agentCardHandler logs to the console under express 5's router).
  app.get('/.well-known/agent-card.json', (_req, res) => {
    res.json(card);
  });
  if (options.oauth !== undefined) protectWithOAuth(app, base, options.oauth, agent.issued);
  app.use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  agent.cardUrl = `${base}/.well-known/agent-card.json`;
  agent.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return agent;
}

/** Serves OAuth metadata and a client_credentials token endpoint; `/a2a` wants one of its tokens. */
function protectWithOAuth(
  app: express.Express,
  base: string,
  client: RemoteAgentOAuth,
  issued: string[],
): void {
  const metadata = `${base}/.well-known/oauth-protected-resource/a2a`;
  app.get('/.well-known/oauth-protected-resource/a2a', (_req, res) => {
    res.json({ resource: `${base}/a2a`, authorization_servers: [base] });
  });
  app.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.json({
      issuer: base,
      authorization_endpoint: `${base}/authorize`, // required by the metadata's schema; unused here
      token_endpoint: `${base}/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
      response_types_supported: ['token'],
    });
  });
  app.post('/token', express.urlencoded({ extended: false }), (req, res) => {
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== basic) return void res.status(401).json({ error: 'invalid_client' });
    if (req.body?.grant_type !== 'client_credentials')
      return void res.status(400).json({ error: 'unsupported_grant_type' });
    const token = randomBytes(18).toString('base64url');
    issued.push(token);
    res.json({ access_token: token, token_type: 'Bearer', expires_in: 3600 });
  });
  app.use('/a2a', (req, res, next) => {
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (issued.includes(token)) return next();
    res
      .status(401)
      .set('www-authenticate', `Bearer error="invalid_token", resource_metadata="${metadata}"`)
      .json({ error: 'invalid_token' });
  });
}
