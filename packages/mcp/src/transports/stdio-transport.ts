import { type ChildProcess, spawn } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../client/config.js';
import { McpUnavailableError } from '../client/tool-errors.js';
import { JsonLineBuffer } from './json-line-buffer.js';
import { groupsSupported, signalGroup, trackGroup, untrackGroup } from './process-group.js';
import { StderrTail } from './stderr-tail.js';

export interface StdioTransportOptions {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  maxMessageBytes?: number;
  /** Each line the server writes to stderr (never inherited: it would reach our terminal). */
  onStderrLine?: (line: string) => void;
  /** Milliseconds to wait after closing stdin before signalling the group (default 500). */
  gracefulExitMs?: number;
}

function describeSpawnError(command: string, error: NodeJS.ErrnoException): McpUnavailableError {
  // No `cause`: the message says it all, and a cause would add its code to what users read.
  if (error.code === 'ENOENT') return new McpUnavailableError(`command not found: "${command}"`);
  if (error.code === 'EACCES') return new McpUnavailableError(`command is not executable: "${command}"`);
  return new McpUnavailableError(`could not start "${command}": ${error.message}`);
}

function waitForExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * MCP client transport over a child process's stdin/stdout, like the SDK's
 * `StdioClientTransport` but: the child runs in its own process group and closing stops the
 * whole group (grandchildren included); stderr is piped (kept as a tail for diagnostics, never
 * inherited); large messages are assembled in linear time.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private readonly lines: JsonLineBuffer;
  private readonly tail = new StderrTail();
  private closing?: Promise<void>;
  private notifiedClose = false;
  private readonly inbox: JSONRPCMessage[] = [];
  private draining = false;

  constructor(private readonly options: StdioTransportOptions) {
    this.lines = new JsonLineBuffer(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  }

  /** The server process id (also its process group id), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the server wrote to stderr, for error messages. */
  stderrTail(): string {
    return this.tail.text();
  }

  start(): Promise<void> {
    if (this.child)
      return Promise.reject(new McpUnavailableError('ProcessGroupStdioTransport already started'));
    const { command, args = [], env, cwd } = this.options;
    return new Promise((resolve, reject) => {
      let spawned = false;
      const child = spawn(command, args, {
        env: { ...getDefaultEnvironment(), ...env },
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: groupsSupported,
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (!spawned) {
          reject(describeSpawnError(command, error));
          this.notifyClosed();
        } else {
          this.onerror?.(error);
        }
      });
      child.once('spawn', () => {
        spawned = true;
        if (groupsSupported && child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.once('exit', () => {
        if (groupsSupported && child.pid !== undefined) {
          // The leader is gone; anything it left in its group (which may hold our pipes open)
          // is stopped too.
          signalGroup(child.pid, 'SIGKILL');
          untrackGroup(child.pid);
        }
      });
      child.once('close', () => this.notifyClosed());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        for (const line of this.tail.push(text)) this.options.onStderrLine?.(line);
      });
    });
  }

  private receive(chunk: Buffer): void {
    let lines: string[];
    try {
      lines = this.lines.push(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (const line of lines) {
      if (line.trim() === '') continue;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (error) {
        this.onerror?.(
          new McpUnavailableError(
            `the server wrote a line that is not a JSON-RPC message: ${(error as Error).message}`,
          ),
        );
        continue;
      }
      this.inbox.push(message);
    }
    this.drain();
  }

  /**
   * Delivers messages in order. After a notification, the rest waits for the next turn of the
   * event loop: the SDK runs notification handlers a microtask later but settles responses at
   * once, so a progress notification followed in the same chunk by its call's response would
   * otherwise reach a handler that was already removed.
   */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    while (this.inbox.length > 0) {
      const message = this.inbox.shift()!;
      try {
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
      if (!('id' in message) && this.inbox.length > 0) {
        setImmediate(() => {
          this.draining = false;
          this.drain();
        });
        return;
      }
    }
    this.draining = false;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin?.writable || this.closing) return Promise.reject(new McpUnavailableError('Not connected'));
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Closes stdin, then stops the process group (SIGTERM, then SIGKILL). Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    const child = this.child;
    if (child && child.pid !== undefined) {
      child.stdin?.end();
      await waitForExit(child, this.options.gracefulExitMs ?? 500);
      if (groupsSupported) {
        signalGroup(child.pid, 'SIGTERM');
        await waitForExit(child, 1000);
        signalGroup(child.pid, 'SIGKILL');
        untrackGroup(child.pid);
      } else if (child.exitCode === null) {
        child.kill('SIGKILL');
      }
      await waitForExit(child, 1000);
    }
    this.lines.clear();
    this.notifyClosed();
  }

  private notifyClosed(): void {
    if (this.notifiedClose) return;
    this.notifiedClose = true;
    this.onclose?.();
  }
}
