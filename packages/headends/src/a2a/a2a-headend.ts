import { AgentCard as AgentCardJson } from '@a2a-js/sdk';
import { DefaultExecutionEventBusManager, DefaultRequestHandler } from '@a2a-js/sdk/server';
import { ConfigError } from '@agent/protocol';
import type { Context } from 'hono';
import type { AgentInfo } from '../agent-catalog.js';
import type { Headend } from '../headend.js';
import { createHeadendBase } from '../headend-base.js';
import type { ErrorResponder } from '../http-guards.js';
import { A2aExecutor } from './a2a-executor.js';
import { type A2aHeadendOptions, DEFAULT_A2A_MAX_TASKS } from './a2a-options.js';
import { agentCard, type CardSettings } from './agent-card.js';
import { type AgentEndpoint, answerJsonRpc, rpcError } from './json-rpc-route.js';
import { SessionTaskStore } from './session-task-store.js';

/** The card path under an agent's base URL (`AGENT_CARD_PATH` of the SDK). */
const CARD_PATH = '.well-known/agent-card.json';

/** JSON-RPC error codes for what the HTTP layer refuses (no token, too large, wrong host, busy). */
const HTTP_CODES: Record<string, number> = { bad_request: -32600, too_large: -32600 };

const respondA2a: ErrorResponder = (c, status, kind, message) =>
  rpcError(c, null, { code: HTTP_CODES[kind] ?? -32000, message, data: { type: kind } }, status);

function checkOptions(options: A2aHeadendOptions): void {
  const { publicUrl, maxTasks } = options;
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+(\/.*)?$/.test(publicUrl)) {
    throw new ConfigError({
      field: 'publicUrl',
      value: publicUrl,
      allowed: 'an http:// or https:// URL',
      message: `a2a headend: publicUrl ${JSON.stringify(publicUrl)} is not an http(s) URL`,
    });
  }
  if (maxTasks !== undefined && (!Number.isInteger(maxTasks) || maxTasks < 1)) {
    throw new ConfigError({
      field: 'maxTasks',
      value: maxTasks,
      allowed: 'a positive integer',
      message: `a2a headend: maxTasks must be a positive integer, not ${String(maxTasks)}`,
    });
  }
}

/**
 * Agent2Agent headend (docs/a2a.md): per served agent a card at
 * `/a2a/<agent>/.well-known/agent-card.json` and a JSON-RPC endpoint at `/a2a/<agent>` (A2A v1.0,
 * and v0.3 unless `legacy: false`) on the official SDK's request handler. Task id = session id;
 * a run paused for approval is an INPUT_REQUIRED task the client's next message decides.
 */
export function createA2aHeadend(options: A2aHeadendOptions): Headend {
  checkOptions(options);
  const publicCard = options.publicCard !== false;
  const legacy = options.legacy !== false;
  const { app, admission, tokens, headendId } = createHeadendBase('a2a', options, {
    respond: respondA2a,
    publicPaths: publicCard ? [`/a2a/*/${CARD_PATH}`, `/${CARD_PATH}`] : [],
  });
  const settings = (c: Context): CardSettings => ({
    baseUrl: (options.publicUrl ?? new URL(c.req.url).origin).replace(/\/+$/, ''),
    authRequired: tokens !== undefined,
    legacy,
    ...(options.provider === undefined ? {} : { provider: options.provider }),
  });
  const endpoints = new Map<string, AgentEndpoint>();
  const endpointOf = (name: string): AgentEndpoint | undefined => {
    const known = endpoints.get(name);
    if (known !== undefined) return known;
    const agent = options.catalog.get(name);
    if (agent === undefined) return undefined;
    // The handler's card decides which protocol versions calls may ask for; its URLs are unused.
    const card = agentCard(agent.info, {
      baseUrl: options.publicUrl ?? 'http://localhost',
      authRequired: tokens !== undefined,
      legacy,
    });
    const executor = new A2aExecutor(options.catalog, agent, headendId);
    const store = new SessionTaskStore(
      options.catalog,
      name,
      options.maxTasks ?? DEFAULT_A2A_MAX_TASKS,
      (taskId) => executor.isRunning(taskId),
    );
    const handler = new DefaultRequestHandler(
      card,
      store,
      executor,
      // One scope: the task store decides who sees a task; a bus lives only while its task runs.
      new DefaultExecutionEventBusManager(() => 'a2a'),
      undefined,
      undefined,
      undefined,
      undefined,
      { keepBusAliveStates: [] },
    );
    const endpoint: AgentEndpoint = {
      card,
      handler,
      isRunning: (taskId) => executor.isRunning(taskId),
      stopElsewhere: async (taskId) => agent.sessions?.cancel?.(taskId),
    };
    endpoints.set(name, endpoint);
    return endpoint;
  };
  const unknownAgent = (c: Context, name: string) =>
    respondA2a(
      c,
      404,
      'not_found',
      `no agent named ${JSON.stringify(name)} (served: ${options.catalog
        .list()
        .map((info) => info.name)
        .join(', ')})`,
    );
  // Protobuf JSON (`{"httpAuthSecurityScheme": {...}}`), what A2A v1.0 clients of any SDK read.
  const card = (c: Context, info: AgentInfo) =>
    c.json(AgentCardJson.toJSON(agentCard(info, settings(c))) as object);

  app.get(`/a2a/:agent/${CARD_PATH}`, (c) => {
    const info = options.catalog.get(c.req.param('agent'))?.info;
    return info === undefined ? unknownAgent(c, c.req.param('agent')) : card(c, info);
  });
  app.get(`/${CARD_PATH}`, (c) => {
    const served = options.catalog.list();
    if (served.length === 1) return card(c, served[0] as AgentInfo);
    return respondA2a(
      c,
      404,
      'not_found',
      `this server serves ${served.length} agents: read each card at /a2a/<agent>/${CARD_PATH}`,
    );
  });
  app.post('/a2a/:agent', (c) => {
    const endpoint = endpointOf(c.req.param('agent'));
    if (endpoint === undefined) return unknownAgent(c, c.req.param('agent'));
    return answerJsonRpc(c, endpoint, admission, legacy);
  });

  return { kind: 'a2a', app, admission, authRequired: tokens !== undefined };
}
