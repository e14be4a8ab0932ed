import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerCommand, ServerMessage } from './ipc.js';
import { BENCH_DIR } from './paths.js';
import type { RequestAdditions } from './request-tokens.js';

const SERVER_SCRIPT = fileURLToPath(new URL('./server-process.ts', import.meta.url));

/** The testkit model server running in a child process of its own. */
export interface ServerProcess {
  /** `http://127.0.0.1:PORT/v1`, for the OpenAI-style clients. */
  baseURL: string;
  /** Resolves when `count` sessions of `phase` wait on their final request. */
  waitHeld(phase: string): Promise<void>;
  release(phase: string): void;
  /** Counts what each request adds from when it resolves, until `stopTokens`. */
  startTokens(): Promise<void>;
  /** The additions of the requests received since `startTokens`. */
  stopTokens(): Promise<RequestAdditions[]>;
  close(): Promise<void>;
}

export async function startServerProcess(): Promise<ServerProcess> {
  const child: ChildProcess = fork(SERVER_SCRIPT, [], {
    cwd: BENCH_DIR,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const held = new Map<string, () => void>();
  const heldEarly = new Set<string>();
  let tokensWaiter: ((requests: RequestAdditions[]) => void) | undefined;
  let startedWaiter: (() => void) | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`agent-loop: the model server exited with code ${code} before listening`)),
    );
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'listening') resolve(message.url);
      else if (message.type === 'tokens') tokensWaiter?.(message.requests);
      else if (message.type === 'tokens-started') startedWaiter?.();
      else if (message.type === 'held') {
        const waiter = held.get(message.phase);
        if (waiter === undefined) heldEarly.add(message.phase);
        else waiter();
      }
    });
  });
  return {
    baseURL: `${url}/v1`,
    waitHeld(phase) {
      if (heldEarly.delete(phase)) return Promise.resolve();
      return new Promise<void>((resolve) =>
        held.set(phase, () => {
          held.delete(phase);
          resolve();
        }),
      );
    },
    release(phase) {
      const command: ServerCommand = { type: 'release', phase };
      child.send(command);
    },
    startTokens() {
      const command: ServerCommand = { type: 'tokens-start' };
      const started = new Promise<void>((resolve) => {
        startedWaiter = () => {
          startedWaiter = undefined;
          resolve();
        };
      });
      child.send(command);
      return started;
    },
    stopTokens() {
      const command: ServerCommand = { type: 'tokens-stop' };
      const reply = new Promise<RequestAdditions[]>((resolve) => {
        tokensWaiter = (requests) => {
          tokensWaiter = undefined;
          resolve(requests);
        };
      });
      child.send(command);
      return reply;
    },
    async close() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}
