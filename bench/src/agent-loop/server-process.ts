// The model server, in its own process so its CPU never counts against a contender. Forked by
// `server-launcher.ts`; answers every call from `planAnswer` (stateless per session) and, for
// the memory phase, holds final requests until the parent releases them.
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import type { ServerCommand, ServerMessage } from './ipc.js';
import { type RequestAdditions, requestAdditions } from './request-tokens.js';
import { planAnswer, promptFor, specFromMessages } from './script.js';

/** Idle keep-alive sockets stay open this long, so no run ever races a closing socket. */
const KEEP_ALIVE_MS = 120_000;
/** Pending connections the kernel queues (Node's default is 511; 1,000 sessions connect at once). */
const LISTEN_BACKLOG = 4096;

/**
 * `startModelServer` has no options for the HTTP server's limits, so they are raised on the
 * `http.Server` it creates: a keep-alive timeout far above any pause between runs (the clients
 * follow the `Keep-Alive: timeout` hint) and a deep listen backlog.
 */
function raiseServerLimits(): void {
  const createServer = http.createServer;
  const patched = (...args: Parameters<typeof createServer>) => {
    const server = createServer(...args);
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.maxRequestsPerSocket = 0;
    const listen = server.listen.bind(server) as (...listenArgs: unknown[]) => http.Server;
    server.listen = ((port: number, host: string, callback: () => void) =>
      listen(port, host, LISTEN_BACKLOG, callback)) as typeof server.listen;
    return server;
  };
  http.createServer = patched as typeof http.createServer;
  syncBuiltinESMExports();
}

raiseServerLimits();
const { startModelServer } = await import('@agent/testkit');

interface Gate {
  waiting: number;
  release: () => void;
  released: Promise<void>;
}

const gates = new Map<string, Gate>();

function send(message: ServerMessage): void {
  process.send?.(message);
}

function gate(phase: string): Gate {
  let found = gates.get(phase);
  if (found === undefined) {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    found = { waiting: 0, release, released };
    gates.set(phase, found);
  }
  return found;
}

let recorded: RecordedRequest[] = [];
/** Set while the parent counts request additions (never during the CPU or memory phases). */
let counted: RequestAdditions[] | undefined;
/** Requests counted at most, so a forgotten `tokens-stop` cannot grow the list without bound. */
const MAX_COUNTED = 1_000;

function count(request: RecordedRequest): void {
  if (counted === undefined || counted.length >= MAX_COUNTED) return;
  const spec = specFromMessages(request.messages);
  if (spec !== undefined) counted.push(requestAdditions(request.body, promptFor({ turns: spec.turns })));
}

async function handler(request: RecordedRequest): Promise<ScriptedAnswer> {
  // The server records every request; nothing here needs them, so memory stays flat.
  recorded.length = 0;
  count(request);
  const { answer, hold } = planAnswer(request);
  if (hold === undefined) return answer;
  const held = gate(hold.phase);
  held.waiting++;
  if (held.waiting === hold.count) send({ type: 'held', phase: hold.phase, count: held.waiting });
  await held.released;
  return answer;
}

const server = await startModelServer({ handler, models: ['gpt-4.1-mini'] });
recorded = server.requests as RecordedRequest[];

process.on('message', (command: ServerCommand) => {
  if (command.type === 'release') {
    gate(command.phase).release();
    gates.delete(command.phase);
  } else if (command.type === 'tokens-start') {
    counted = [];
    send({ type: 'tokens-started' });
  } else if (command.type === 'tokens-stop') {
    send({ type: 'tokens', requests: counted ?? [] });
    counted = undefined;
  }
});
// The parent going away (or closing the channel) ends the server.
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
send({ type: 'listening', url: server.url });
