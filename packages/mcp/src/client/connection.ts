import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpOAuthProvider } from '../auth/oauth-provider.js';
import { createTransport } from '../transports/create-transport.js';
import { ProcessGroupStdioTransport } from '../transports/stdio-transport.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  type McpHealthProbe,
  type McpLogSink,
  type McpServerConfig,
} from './config.js';
import { McpUnavailableError, transportErrorText } from './tool-errors.js';

export interface BackoffOptions {
  /** Wait after the first failed reconnect (default 500 ms); doubles per further failure. */
  initialMs?: number;
  /** Longest wait between attempts (default 30 000 ms). */
  maxMs?: number;
}

export interface ConnectionOptions {
  server: string;
  config: McpServerConfig;
  clientInfo: { name: string; version: string };
  backoff?: BackoffOptions;
  onLog?: McpLogSink;
  /** Called with every newly connected client (to install notification handlers). */
  onConnected?: (client: Client) => void;
  /** OAuth for an HTTP server. */
  authProvider?: OAuthClientProvider;
}

/** Approvals one connect may go through (the first, then one step-up); more is a loop. */
const MAX_AUTHORIZATIONS = 2;

/**
 * One MCP client session with one server, (re)opened on demand. A crash or a closed transport
 * drops the session; the next `client()` call opens a new one. Failed attempts back off
 * exponentially: until the wait is over, `client()` fails at once with `McpUnavailableError`.
 */
export class McpConnection {
  /** Bumped on every successful connection, so users can tell a fresh session apart. */
  generation = 0;
  private current?: Client;
  private opening?: Promise<Client>;
  private transport?: Transport;
  private failures = 0;
  private retryAt = 0;
  private lastError?: string;
  private closed = false;
  private closing?: Promise<void>;
  private readonly dropping = new Set<Promise<unknown>>();

  constructor(private readonly options: ConnectionOptions) {}

  get connected(): boolean {
    return this.current !== undefined;
  }

  /** The live client, connecting first if there is none. */
  client(): Promise<Client> {
    if (this.closed) return Promise.reject(new McpUnavailableError('the connection has been closed'));
    if (this.current) return Promise.resolve(this.current);
    if (this.opening) return this.opening;
    const wait = this.retryAt - Date.now();
    if (wait > 0) {
      return Promise.reject(
        new McpUnavailableError(
          `the server is unavailable (${this.lastError ?? 'unknown reason'}); the next reconnect attempt is in ${wait} ms`,
        ),
      );
    }
    this.opening = this.open().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  /** Drops the session after a failure on it, so the next use reconnects. */
  discard(client: Client, reason: string): void {
    if (this.current !== client) return;
    this.current = undefined;
    this.lastError = reason;
    this.log('warn', `connection dropped: ${reason}`);
    const dropped = client.close().catch(() => undefined);
    this.dropping.add(dropped);
    void dropped.finally(() => this.dropping.delete(dropped));
  }

  /**
   * One health check: `ping` or `tools/list` on the live session, within `timeoutMs`. A failed
   * probe drops the session (a stdio server's process tree is stopped); then, whether the probe
   * failed or the session was already gone (the server died), one reconnect is tried, subject
   * to the backoff. `restarted` means a new session is up.
   */
  async probe(kind: McpHealthProbe, timeoutMs: number): Promise<'healthy' | 'restarted' | 'down'> {
    if (this.closed) return 'down';
    const client = this.current;
    if (client !== undefined) {
      try {
        if (kind === 'ping') await client.ping({ timeout: timeoutMs });
        else await client.listTools(undefined, { timeout: timeoutMs });
        return 'healthy';
      } catch (error) {
        const reason = `health probe (${kind}) failed: ${transportErrorText(error)}`;
        this.log('error', `${reason}; restarting`);
        this.discard(client, reason);
      }
    } else if (this.opening === undefined && this.retryAt > Date.now()) {
      return 'down';
    } else if (this.opening === undefined) {
      this.log('error', `server gone (${this.lastError ?? 'unknown reason'}), restarting`);
    }
    try {
      await this.client();
      return 'restarted';
    } catch {
      return 'down';
    }
  }

  /**
   * After an approval that happened during a request (the first connect, or a step-up to more
   * scopes), trades its code for tokens. False when there was none.
   */
  async completeAuthorization(): Promise<boolean> {
    const provider = this.options.authProvider;
    const code = provider instanceof McpOAuthProvider ? provider.takeAuthorizationCode() : undefined;
    const transport = this.transport as { finishAuth?: (code: string) => Promise<void> } | undefined;
    if (code === undefined || transport?.finishAuth === undefined) return false;
    await transport.finishAuth(code);
    return true;
  }

  /** The server's stderr tail (stdio servers), for diagnostics. */
  stderrTail(): string {
    return this.transport instanceof ProcessGroupStdioTransport ? this.transport.stderrTail() : '';
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    await this.opening?.catch(() => undefined);
    const client = this.current;
    this.current = undefined;
    if (client) await client.close().catch(() => undefined);
    else await this.transport?.close().catch(() => undefined);
    await Promise.all(this.dropping);
  }

  private async open(): Promise<Client> {
    const { server, config, clientInfo } = this.options;
    let client = new Client(clientInfo, { capabilities: {} });
    let transport: Transport | undefined;
    try {
      for (let authorizations = 0; ; authorizations++) {
        transport = await createTransport(config, {
          onStderrLine: (line) => this.log('debug', `stderr: ${line}`),
          ...(this.options.authProvider ? { authProvider: this.options.authProvider } : {}),
        });
        this.transport = transport;
        try {
          await client.connect(transport, { timeout: config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS });
          break;
        } catch (error) {
          // The user approved during the attempt: trade the code for tokens, connect again.
          if (authorizations >= MAX_AUTHORIZATIONS || !(await this.completeAuthorization())) throw error;
          await client.close().catch(() => undefined);
          client = new Client(clientInfo, { capabilities: {} });
        }
      }
    } catch (error) {
      await client.close().catch(() => undefined);
      await transport?.close().catch(() => undefined);
      this.failures++;
      const { initialMs = 500, maxMs = 30_000 } = this.options.backoff ?? {};
      this.retryAt = Date.now() + Math.min(maxMs, initialMs * 2 ** (this.failures - 1));
      const tail = this.stderrTail();
      this.lastError = `${transportErrorText(error)}${tail ? `; stderr: ${tail.split('\n').slice(-3).join(' | ')}` : ''}`;
      this.log('error', `could not connect to MCP server "${server}": ${this.lastError}`);
      throw new McpUnavailableError(`could not connect: ${this.lastError}`);
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new McpUnavailableError('the connection has been closed');
    }
    client.onclose = () => {
      if (this.current !== client) return;
      this.current = undefined;
      const tail = this.stderrTail();
      this.lastError = `the server closed the connection${tail ? ` (stderr: ${tail.split('\n').slice(-3).join(' | ')})` : ''}`;
      if (!this.closed) this.log('warn', this.lastError);
    };
    client.onerror = (error) => this.log('debug', `transport error: ${transportErrorText(error)}`);
    this.options.onConnected?.(client);
    this.failures = 0;
    this.retryAt = 0;
    this.generation++;
    this.current = client;
    this.log('info', `connected (session ${this.generation})`, {
      serverName: client.getServerVersion()?.name ?? 'unknown',
    });
    return client;
  }

  private log(
    level: 'debug' | 'info' | 'warn' | 'error',
    message: string,
    details?: Record<string, string>,
  ): void {
    this.options.onLog?.({ level, server: this.options.server, message, ...(details ? { details } : {}) });
  }
}
