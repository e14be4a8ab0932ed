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

/** The server's `held` messages matched with `waitHeld` calls, whichever comes first. */
class HeldPhases {
  private readonly waiting = new Map<string, () => void>();
  private readonly early = new Set<string>();

  /** The server says `phase` is held. */
  arrived(phase: string): void {
    const waiter = this.waiting.get(phase);
    if (waiter === undefined) this.early.add(phase);
    else waiter();
  }

  wait(phase: string): Promise<void> {
    if (this.early.delete(phase)) return Promise.resolve();
    return new Promise<void>((resolve) =>
      this.waiting.set(phase, () => {
        this.waiting.delete(phase);
        resolve();
      }),
    );
  }
}

/** The next message of one kind from the server, for one caller at a time. */
class NextMessage<T> {
  private waiter: ((value: T) => void) | undefined;

  /** Resolves with what the next `arrived` brings. */
  next(): Promise<T> {
    return new Promise<T>((resolve) => {
      this.waiter = (value) => {
        this.waiter = undefined;
        resolve(value);
      };
    });
  }

  arrived(value: T): void {
    this.waiter?.(value);
  }
}

export async function startServerProcess(): Promise<ServerProcess> {
  const child: ChildProcess = fork(SERVER_SCRIPT, [], {
    cwd: BENCH_DIR,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const held = new HeldPhases();
  const tokens = new NextMessage<RequestAdditions[]>();
  const tokensStarted = new NextMessage<void>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`agent-loop: the model server exited with code ${code} before listening`)),
    );
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'listening') resolve(message.url);
      else if (message.type === 'tokens') tokens.arrived(message.requests);
      else if (message.type === 'tokens-started') tokensStarted.arrived();
      else if (message.type === 'held') held.arrived(message.phase);
    });
  });
  const send = (command: ServerCommand) => child.send(command);
  return {
    baseURL: `${url}/v1`,
    waitHeld: (phase) => held.wait(phase),
    release(phase) {
      send({ type: 'release', phase });
    },
    startTokens() {
      const started = tokensStarted.next();
      send({ type: 'tokens-start' });
      return started;
    },
    stopTokens() {
      const reply = tokens.next();
      send({ type: 'tokens-stop' });
      return reply;
    },
    async close() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}
