// A server started as a child process, ready once its output says so (`listening on <url>`),
// and always stopped, with whatever it started (`npx` runs the server as its own child): by
// `stop()`, and by this process's exit when a test failed before that.
import { type ChildProcess, spawn } from 'node:child_process';

export interface ServerProcess {
  readonly child: ChildProcess;
  /** The match of `ready` on the server's output. */
  readonly ready: RegExpExecArray;
  /** What the server printed (the last few thousand characters of stdout and stderr). */
  output(): string;
  /** SIGTERM to its process group, then SIGKILL after 3 s; idempotent. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Matched against stdout and stderr; the server counts as started at the first match. */
  ready: RegExp;
  timeoutMs: number;
  /** Keep stdin open (a pipe) instead of closed; the registry stops when it ends. */
  stdinPipe?: boolean;
}

const KEPT_OUTPUT_CHARS = 4000;

export async function startServerProcess(
  command: string,
  args: readonly string[],
  options: ServerOptions,
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdinPipe === true ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  const killOnExit = () => signalGroup('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-KEPT_OUTPUT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        signalGroup('SIGTERM');
        const timer = setTimeout(() => signalGroup('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      // What it started may outlive it (npx's server): the group goes too.
      signalGroup('SIGKILL');
      process.removeListener('exit', killOnExit);
    })();
    return stopping;
  };
  const described = `${command} ${args.join(' ')}`;
  try {
    const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${described} did not start in ${options.timeoutMs} ms:\n${output}`)),
        options.timeoutMs,
      );
      const check = () => {
        const match = options.ready.exec(output);
        if (match === null) return;
        clearTimeout(timer);
        child.stdout?.off('data', check);
        child.stderr?.off('data', check);
        resolve(match);
      };
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      child.once('error', (error) => reject(new Error(`${described} could not start: ${error.message}`)));
      child.once('exit', (code, signal) =>
        reject(new Error(`${described} exited (${code ?? signal}) before it started:\n${output}`)),
      );
    });
    return { child, ready, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
