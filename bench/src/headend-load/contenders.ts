// The two servers under the same load. Both read the request's JSON and stream the same
// scripted model (`script.ts`) as OpenAI chat-completion chunks: the headend through an
// @agent/core session, the proxy by relaying each delta as it comes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineAgent, run } from '@agent/core';
import { createCatalog, createOpenAiHeadend, type ServedAgent, serve } from '@agent/headends';
import type { AgentEventMeta, AgentResult, ModelClient } from '@agent/protocol';
import { runnerAgent } from './runner-agent.js';
import { ANSWER, benchModel, RAW_TEXT } from './script.js';

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Sessions being streamed right now and finished so far (one contender per process). */
export const inFlight = { count: 0, finished: 0 };

/** Counts `session` in `inFlight` until it settles. */
function counted<T>(session: Promise<T>): Promise<T> {
  inFlight.count++;
  return session.finally(() => {
    inFlight.count--;
    inFlight.finished++;
  });
}

export interface Contender {
  id: string;
  label: string;
  /** The text its client must read. */
  expected: string;
  start(maxConcurrency: number): Promise<Served>;
}

/** The agent is defined once, as a server does; each model call streams a fresh scripted model. */
function benchAgent(): ServedAgent {
  const model: ModelClient = {
    provider: 'scripted',
    model: 'scripted-model',
    stream: (request, options) => benchModel().stream(request, options),
  };
  const agent = defineAgent({ model });
  return {
    info: { name: 'bench', description: 'Streams a scripted answer.', outputFormat: 'markdown' },
    run: (input, options): Promise<AgentResult> =>
      counted(
        run(agent, input, {
          ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        }),
      ),
  };
}

/**
 * The same headend without a core session (a decomposition, not a contender anyone would run):
 * the run relays the scripted model's text between the FINAL tags as output events and answers
 * it as the report, so the headend's HTTP, admission and SSE path is measured alone.
 */
function relayAgent(): ServedAgent {
  const meta: AgentEventMeta = {
    isMaster: true,
    isFinal: false,
    source: 'stream',
    sessionId: 'relay',
    agentPath: 'bench',
  };
  return {
    info: { name: 'bench', description: 'Relays a scripted answer.', outputFormat: 'markdown' },
    run: (input, options): Promise<AgentResult> =>
      counted(
        (async (): Promise<AgentResult> => {
          const request = {
            messages: [{ role: 'user' as const, content: typeof input === 'string' ? input : input.prompt }],
            stream: true,
          };
          const callOptions = options.signal === undefined ? {} : { signal: options.signal };
          for await (const event of benchModel().stream(request, callOptions)) {
            if (event.type === 'text-delta' && !event.text.startsWith('<'))
              options.onEvent?.({ type: 'output', text: event.text }, meta);
          }
          return {
            success: true,
            exitCode: 'EXIT-FINAL-ANSWER',
            finalReport: { status: 'success', format: 'markdown', content: ANSWER, ts: Date.now() },
            conversation: [],
            logs: [],
            accounting: [],
            sessionId: 'relay',
          };
        })(),
      ),
  };
}

async function startHeadend(maxConcurrency: number, agent: ServedAgent = benchAgent()): Promise<Served> {
  const headend = createOpenAiHeadend({
    catalog: createCatalog([agent]),
    allowNoAuth: true,
    concurrency: maxConcurrency,
    queueSize: maxConcurrency,
  });
  return serve(headend, { host: '127.0.0.1' });
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  request.setEncoding('utf8');
  for await (const part of request) body += part;
  return body;
}

/** The pass-through: each delta of the scripted model written as a chunk the moment it arrives. */
async function relay(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
    response.writeHead(404).end();
    return;
  }
  const body = JSON.parse(await readBody(request)) as {
    model: string;
    messages: { role: 'user'; content: string }[];
  };
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    })}\n\n`;
  const controller = new AbortController();
  response.on('close', () => controller.abort());
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  response.write(chunk({ role: 'assistant', content: '' }));
  const model = benchModel();
  // The client's messages go upstream, as a relay would send them.
  const upstream = { messages: body.messages, stream: true };
  for await (const event of model.stream(upstream, { signal: controller.signal })) {
    if (event.type === 'text-delta') response.write(chunk({ content: event.text }));
  }
  response.write(chunk({}, 'stop'));
  response.end('data: [DONE]\n\n');
}

/** The headend serving the agent-server way: an agent file's runner (`runner-agent.ts`). */
async function startServer(maxConcurrency: number): Promise<Served> {
  const runner = await runnerAgent(counted);
  const served = await startHeadend(maxConcurrency, runner.agent);
  return {
    url: served.url,
    close: async () => {
      await served.close();
      await runner.close();
    },
  };
}

async function startProxy(): Promise<Served> {
  const server = createServer((request, response) => {
    counted(relay(request, response)).catch((error: unknown) => response.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 1024, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const CONTENDERS: readonly Contender[] = [
  {
    id: 'server',
    label: 'OpenAI headend + agent runner (as agent-server serves)',
    expected: ANSWER,
    start: startServer,
  },
  {
    id: 'headend',
    label: 'OpenAI headend + core session',
    expected: ANSWER,
    start: startHeadend,
  },
  {
    id: 'headend-no-session',
    label: 'OpenAI headend, no core session (decomposition)',
    expected: ANSWER,
    start: (maxConcurrency) => startHeadend(maxConcurrency, relayAgent()),
  },
  {
    id: 'proxy',
    label: 'pass-through proxy (node:http)',
    expected: RAW_TEXT,
    start: () => startProxy(),
  },
];

export function contenderById(id: string): Contender {
  const found = CONTENDERS.find((contender) => contender.id === id);
  if (found === undefined) throw new Error(`headend-load: no contender "${id}"`);
  return found;
}
