// A bench child process driven over IPC: the parent sends commands with an id, the child
// answers each with exactly one reply of the same id (`ready` with id 0 when it has loaded,
// `error` when a command failed). `forkChild` is the parent's side, `answerParent` the child's.
import { type ChildProcess, fork } from 'node:child_process';

/** Every command carries an id; `exit` asks the child to leave. */
export interface ChildCommand {
  id: number;
  type: string;
}
export type ChildReply = { id: number; type: string } | { id: number; type: 'error'; message: string };

/** A command without its id; `exit` goes through `exit()`. */
type Callable<C extends ChildCommand> = C extends { type: 'exit' } ? never : Omit<C, 'id'>;

/** A child process answering commands. */
export interface ChildProcessCalls<C extends ChildCommand, R extends ChildReply> {
  /** Sends a command and waits for its reply (the reply type of the same name); `error` rejects. */
  call<T extends Callable<C>['type']>(
    command: Extract<Callable<C>, { type: T }>,
  ): Promise<Extract<R, { type: T }>>;
  /** Asks the child to exit and waits until it has. */
  exit(): Promise<void>;
}

export interface ForkOptions {
  /** Names the child in errors. */
  label: string;
  cwd: string;
  execArgv: readonly string[];
}

/** Forks `script` with `args` and waits for its `ready`. */
export async function forkChild<C extends ChildCommand, R extends ChildReply>(
  script: string,
  args: readonly string[],
  options: ForkOptions,
): Promise<ChildProcessCalls<C, R>> {
  const { label } = options;
  const child: ChildProcess = fork(script, [...args], {
    cwd: options.cwd,
    execArgv: [...options.execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (reply: R) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      for (const waiter of pending.values()) {
        waiter.reject(new Error(`${label}: the process exited (code ${code}) with a command pending`));
      }
      pending.clear();
      resolve();
    }),
  );
  child.on('message', (reply: R) => {
    const waiter = pending.get(reply.id);
    if (waiter === undefined) return;
    pending.delete(reply.id);
    if (reply.type === 'error' && 'message' in reply) waiter.reject(new Error(`${label}: ${reply.message}`));
    else waiter.resolve(reply);
  });
  /** Waits for the reply with this id (0: the child's unprompted `ready`). */
  const replyTo = (id: number): Promise<R> =>
    new Promise((resolve, reject) => {
      if (exitCode !== undefined) reject(new Error(`${label}: the process has exited (code ${exitCode})`));
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

/**
 * The child's side: answers each command with what `handle` returns (a thrown error becomes an
 * `error` reply), exits on `exit` (which also writes a `--cpu-prof` profile), then says `ready`.
 */
export function answerParent<C extends ChildCommand, R extends ChildReply>(
  handle: (command: C) => Promise<R>,
): void {
  const reply = (message: ChildReply) => process.send?.(message);
  process.on('message', (command: C) => {
    if (command.type === 'exit') {
      // Keep-alive sockets would hold the loop open.
      setImmediate(() => process.exit(0));
      return;
    }
    handle(command).then(reply, (error: unknown) =>
      reply({
        id: command.id,
        type: 'error',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
    );
  });
  reply({ id: 0, type: 'ready' });
}
