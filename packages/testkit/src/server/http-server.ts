import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConfigError } from '@agent/protocol';
import { defaultFixturesDir } from '../fixtures-dir.js';
import { StepQueue } from '../step-queue.js';
import type { RecordedRequest, ScriptedAnswer, ScriptStep } from '../steps.js';
import { createCallAnswerer } from './call-answerer.js';
import { testkitErrorAnswer } from './faults.js';
import { modelsList } from './models-route.js';
import type { WireApi } from './sse.js';
import { FLAVOURS, type Flavour, type StrictOptions } from './strict/index.js';
import { playWireAnswer } from './wire-answer.js';

export interface ModelServerOptions {
  /** Answers in call order, shared by every route. */
  steps?: readonly ScriptStep[];
  /** Instead of steps: answers every call (benchmarks and demos that loop). */
  handler?: (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>;
  /** Where `{ replay }` paths are resolved (default `defaultFixturesDir()`). */
  fixturesDir?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Ids listed by `GET /v1/models` (default `['scripted-model']`). */
  models?: readonly string[];
  /**
   * Refuse what the real APIs refuse, with their status and error body (docs/testkit.md lists
   * the rules); a refused call uses no step. `true` or options. Default off.
   */
  strict?: boolean | StrictOptions;
}

/** One HTTP request the server received, and when its connection went away. */
export interface ServerExchange {
  /** Method and path as received, e.g. `POST /v1/chat/completions`. */
  readonly route: string;
  /** `Date.now()` when the request arrived. */
  readonly receivedAt: number;
  /** `Date.now()` when the response closed: answered in full, or cut by the client. */
  readonly closedAt?: number;
  /** True when the server wrote its whole answer before the close; false when the client left first. */
  readonly answered?: boolean;
}

export interface ModelServer {
  /** Base URL, `http://127.0.0.1:PORT`: OpenAI clients take `${url}/v1`, Anthropic clients `url`. */
  readonly url: string;
  /** Every model call received, in order (unplanned and failed ones included). */
  readonly requests: readonly RecordedRequest[];
  /**
   * Every HTTP request, in arrival order, with when it closed: shows whether a client that
   * gave up really closed its request to the model.
   */
  readonly exchanges: readonly ServerExchange[];
  /**
   * When exchange `index` closed (`Date.now()`), waiting for it to arrive and close; `undefined`
   * when it is still open after `timeoutMs`.
   */
  closedAt(index: number, timeoutMs: number): Promise<number | undefined>;
  /** Model calls taken so far. */
  readonly calls: number;
  /** Planned steps not used yet (0 with a handler). */
  readonly remaining: number;
  /** Plans more calls after the ones already scripted. */
  push(...steps: ScriptStep[]): void;
  /** Throws when planned steps were left unused, naming how many. */
  assertAllConsumed(): void;
  /** Stops listening and cuts every open connection, hung ones included. */
  close(): Promise<void>;
}

const ROUTES: Record<string, WireApi> = {
  '/chat/completions': 'openai-chat',
  '/responses': 'openai-responses',
  '/messages': 'anthropic',
};

/** Longest scope a request may name (decoded characters). */
export const MAX_SCOPE_LENGTH = 256;

/**
 * `/scope/<id>/v1/...` -> the decoded id and the rest of the path: one server answers many
 * clients and tells them apart by their base URL (a replay gives each session its own).
 * A malformed scope (bad percent-encoding, empty, too long, control characters) is an error.
 */
function splitScope(path: string): { scope?: string; path: string } | { error: string } {
  if (!path.startsWith('/scope/')) return { path };
  const match = /^\/scope\/([^/]*)(\/.*)?$/.exec(path);
  const raw = match?.[1] ?? '';
  let scope: string;
  try {
    scope = decodeURIComponent(raw);
  } catch {
    return { error: `the scope ${JSON.stringify(raw.slice(0, 80))} is not valid percent-encoding` };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (scope === '' || scope.length > MAX_SCOPE_LENGTH || /[\u0000-\u001f\u007f]/.test(scope)) {
    return {
      error: `a scope is 1-${MAX_SCOPE_LENGTH} characters without control characters (/scope/<percent-encoded id>/v1/...)`,
    };
  }
  return { scope, path: match?.[2] ?? '' };
}

/** `/mistral/v1/chat/completions` -> `mistral` and `/v1/chat/completions`. */
function splitFlavour(path: string): { flavour?: Flavour; path: string } {
  const match = /^\/([a-z]+)(\/.*)$/.exec(path);
  const name = match?.[1] as Flavour | undefined;
  if (match === null || name === undefined || !FLAVOURS.includes(name)) return { path };
  return { flavour: name, path: match[2] ?? '' };
}

/**
 * Starts a real HTTP server on loopback speaking OpenAI Chat Completions, OpenAI Responses and
 * Anthropic Messages (with and without the `/v1` prefix), answering from steps or a handler.
 */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  if (options.steps !== undefined && options.handler !== undefined) {
    throw new ConfigError({
      field: 'steps',
      allowed: 'steps or a handler, not both',
      message: 'startModelServer: give either steps or handler, not both',
    });
  }
  const queue = new StepQueue('model server', options.steps ?? []);
  const requests: RecordedRequest[] = [];
  const answerer = createCallAnswerer({
    source: options.handler === undefined ? { queue } : { handler: options.handler },
    fixturesDir: options.fixturesDir ?? defaultFixturesDir(),
    requests,
    ...(options.strict === undefined || options.strict === false
      ? {}
      : { strict: options.strict === true ? {} : options.strict }),
  });
  const sockets = new Set<Socket>();
  const inFlight = new Set<AbortController>();
  const exchanges: ServerExchange[] = [];

  const routing = { answerer, inFlight, exchanges, models: options.models ?? ['scripted-model'] };
  const server = createServer((req, res) => void handleModelRequest(req, res, routing));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port ?? 0, host);
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const controller of inFlight) controller.abort();
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };

  return {
    url,
    requests,
    exchanges,
    closedAt: (index, timeoutMs) => closedAt(exchanges, index, timeoutMs),
    get calls() {
      return answerer.calls();
    },
    get remaining() {
      return queue.remaining;
    },
    push: (...steps) => queue.push(...steps),
    assertAllConsumed: () => queue.assertAllConsumed(),
    close,
  };
}

/** What the request handler needs of its server. */
interface Routing {
  answerer: ReturnType<typeof createCallAnswerer>;
  /** The controllers of the requests being answered (aborted when the server closes). */
  inFlight: Set<AbortController>;
  exchanges: ServerExchange[];
  models: readonly string[];
}

/** One request: `GET /models`, a model call on one of the routes, or a 404 in the client's error format. */
async function handleModelRequest(
  req: IncomingMessage,
  res: ServerResponse,
  routing: Routing,
): Promise<void> {
  const { answerer, inFlight } = routing;
  const controller = new AbortController();
  inFlight.add(controller);
  const exchange: { -readonly [K in keyof ServerExchange]: ServerExchange[K] } = {
    route: `${req.method} ${req.url}`,
    receivedAt: Date.now(),
  };
  routing.exchanges.push(exchange);
  res.on('close', () => {
    exchange.closedAt = Date.now();
    exchange.answered = res.writableFinished;
    controller.abort();
    inFlight.delete(controller);
  });
  const scoped = splitScope(new URL(req.url ?? '/', 'http://testkit').pathname);
  const { flavour, path: unprefixed } = splitFlavour('error' in scoped ? '' : scoped.path);
  const path = unprefixed.replace(/^\/v1(?=\/)/, '').replace(/\/$/, '');
  const anthropicClient = req.headers['anthropic-version'] !== undefined;
  const api = ROUTES[path];
  try {
    if ('error' in scoped) {
      req.resume();
      const message = `agent-testkit server: no route for ${req.method} ${req.url}: ${scoped.error}`;
      await notFound(res, anthropicClient, message, controller.signal);
      return;
    }
    if (req.method === 'GET' && path === '/models') {
      const body = JSON.stringify(modelsList(routing.models, anthropicClient));
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    if (req.method !== 'POST' || api === undefined) {
      req.resume();
      const message = `agent-testkit server: no route for ${req.method} ${req.url}; routes: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages, GET /v1/models`;
      await notFound(res, anthropicClient, message, controller.signal);
      return;
    }
    const prefixes = { flavour, scope: scoped.scope };
    const { wire, ...pacing } = await answerer.answerCall(api, req, controller.signal, prefixes);
    await playWireAnswer(res, wire, { ...pacing, signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted) return;
    if (res.headersSent) res.destroy();
    else
      res
        .writeHead(500, { 'content-type': 'text/plain' })
        .end(`agent-testkit server: ${(error as Error).message}`);
  }
}

/** A 404 in the client's error format (Anthropic's when it sent `anthropic-version`). */
async function notFound(
  res: ServerResponse,
  anthropicClient: boolean,
  message: string,
  signal: AbortSignal,
): Promise<void> {
  const api = anthropicClient ? 'anthropic' : 'openai-chat';
  const wire = testkitErrorAnswer(api, 404, message, 'req_testkit_noroute');
  await playWireAnswer(res, wire, { signal });
}

/** Checks every few milliseconds: a test's wait, bounded by `timeoutMs`. */
async function closedAt(
  exchanges: readonly ServerExchange[],
  index: number,
  timeoutMs: number,
): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const at = exchanges[index]?.closedAt;
    if (at !== undefined || Date.now() >= deadline) return at;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
