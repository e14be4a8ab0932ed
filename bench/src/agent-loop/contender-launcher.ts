import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ContenderCommand, ContenderReply } from './ipc.js';
import { BENCH_DIR, CONTENDER_NODE_FLAGS } from './paths.js';

const CONTENDER_SCRIPT = fileURLToPath(new URL('./contender-process.ts', import.meta.url));

/** A command without its id; `exit` goes through `exit()`. */
type Command = ContenderCommand extends infer C
  ? C extends { id: number; type: infer T }
    ? T extends 'exit'
      ? never
      : Omit<C, 'id'>
    : never
  : never;
type ReplyOf<T extends ContenderReply['type']> = Extract<ContenderReply, { type: T }>;

/** A contender running in a fresh child process. */
export interface ContenderProcess {
  /** Sends a command and waits for its reply; an `error` reply rejects. */
  call<T extends Command['type']>(command: Extract<Command, { type: T }>): Promise<ReplyOf<T>>;
  /** Asks the child to exit and waits until it has. */
  exit(): Promise<void>;
}

export async function startContender(
  contenderId: string,
  baseURL: string,
  extraNodeFlags: readonly string[] = [],
): Promise<ContenderProcess> {
  const child: ChildProcess = fork(CONTENDER_SCRIPT, [contenderId, baseURL], {
    cwd: BENCH_DIR,
    execArgv: [...CONTENDER_NODE_FLAGS, ...extraNodeFlags],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<
    number,
    { resolve: (reply: ContenderReply) => void; reject: (error: Error) => void }
  >();
  let nextId = 1;
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      for (const waiter of pending.values()) {
        waiter.reject(
          new Error(`agent-loop: the ${contenderId} process exited (code ${code}) with a command pending`),
        );
      }
      pending.clear();
      resolve();
    }),
  );
  child.on('message', (reply: ContenderReply) => {
    const waiter = pending.get(reply.id);
    if (waiter === undefined) return;
    pending.delete(reply.id);
    if (reply.type === 'error') waiter.reject(new Error(`agent-loop: ${contenderId}: ${reply.message}`));
    else waiter.resolve(reply);
  });
  /** Waits for the reply with this id (0: the child's unprompted `ready`). */
  const replyTo = (id: number): Promise<ContenderReply> =>
    new Promise((resolve, reject) => {
      if (exitCode !== undefined)
        reject(new Error(`agent-loop: the ${contenderId} process has exited (code ${exitCode})`));
      else pending.set(id, { resolve, reject });
    });
  await replyTo(0);
  return {
    call(command) {
      const id = nextId++;
      const reply = replyTo(id);
      child.send({ ...command, id });
      return reply as never;
    },
    async exit() {
      if (exitCode === undefined && child.connected) child.send({ type: 'exit', id: nextId++ });
      await exited;
    },
  };
}
