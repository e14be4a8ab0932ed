import type {
  ToolCallRequest,
  ToolDefinition,
  ToolExecuteOptions,
  ToolProvider,
  ToolResult,
} from '@agent/protocol';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type Tool, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { authProviderFor } from '../auth/auth-provider-for.js';
import type { McpAuthOptions } from '../auth/oauth-provider.js';
import { abortable, linkedController } from './abortable.js';
import { ArgumentValidator } from './argument-validator.js';
import {
  DEFAULT_QUEUE,
  DEFAULT_TOOL_TIMEOUT_MS,
  IDEMPOTENCY_KEY_META,
  type McpLogSink,
  type McpServerConfig,
  TOOL_CALL_ID_META,
} from './config.js';
import { type BackoffOptions, McpConnection } from './connection.js';
import { HealthMonitor } from './health-monitor.js';
import { convertCallToolResult } from './result-conversion.js';
import { buildCatalog, type CatalogEntry, type ToolCatalog } from './tool-catalog.js';
import { classifyCallError, isConnectionFailure, toolError, transportErrorText } from './tool-errors.js';
import { createToolFilter, type ToolNameFilter } from './tool-filter.js';
import { defaultToolQueues, QueueAbortedError, type ToolQueues } from './tool-queues.js';

export interface McpToolProviderOptions {
  /** Concurrency queues; default: the process-wide `defaultToolQueues`. */
  queues?: ToolQueues;
  /** How the client introduces itself in `initialize`. */
  clientInfo?: { name: string; version: string };
  backoff?: BackoffOptions;
  onLog?: McpLogSink;
  /** `prefixed` (default): tools are exposed as `<server>__<tool>`; `bare`: as the tool's own (safe) name. */
  naming?: 'prefixed' | 'bare';
  /**
   * OAuth for HTTP servers that ask for it (token store, and how a user approves). Servers with
   * an `oauth` entry get it too; one that sends its own `Authorization` header does not.
   */
  auth?: McpAuthOptions;
}

const DEFAULT_CLIENT_INFO = { name: 'agent-mcp-client', version: '0.1.0' };

/**
 * The `_meta` of a `tools/call`: the model's call id and, when the session gave one, the call's
 * idempotency key, so a server can apply a call made again after a crash once.
 */
function callMeta(call: ToolCallRequest): Record<string, string> {
  return {
    [TOOL_CALL_ID_META]: call.callId,
    ...(call.idempotencyKey === undefined ? {} : { [IDEMPOTENCY_KEY_META]: call.idempotencyKey }),
  };
}

/**
 * A `ToolProvider` over one MCP server, built on the official SDK client. It connects lazily
 * (or on `connect()`), exposes the server's tools under provider-safe names, checks arguments
 * against each tool's input schema, runs calls through a named concurrency queue with a
 * timeout and cancellation, and reconnects (with backoff) after the server crashed.
 */
export class McpToolProvider implements ToolProvider {
  readonly kind = 'mcp';
  private readonly connection: McpConnection;
  private readonly health: HealthMonitor;
  private readonly validator = new ArgumentValidator();
  private readonly filter: ToolNameFilter;
  private readonly queues: ToolQueues;
  private catalog?: ToolCatalog;
  private refreshing?: Promise<ToolCatalog>;
  private stale = false;
  private serverInstructions?: string;

  constructor(
    readonly id: string,
    private readonly config: McpServerConfig,
    private readonly options: McpToolProviderOptions = {},
  ) {
    this.queues = options.queues ?? defaultToolQueues;
    this.filter = createToolFilter(config.allowTools, config.denyTools);
    this.connection = new McpConnection({
      server: id,
      config,
      clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.onLog ? { onLog: options.onLog } : {}),
      onConnected: (client) => this.onConnected(client),
      authProvider: authProviderFor(id, config, options.auth),
    });
    this.health = new HealthMonitor(this.connection, config);
  }

  /** The queue this server's calls wait in. */
  get queue(): string {
    return this.config.queue ?? DEFAULT_QUEUE;
  }

  /** Connects and lists the tools now; throws `McpUnavailableError` when the server cannot start. */
  async connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.listTools(options);
  }

  async listTools(options: { signal?: AbortSignal } = {}): Promise<readonly ToolDefinition[]> {
    try {
      const client = await abortable(this.connection.client(), options.signal);
      return (await abortable(this.currentCatalog(client), options.signal)).definitions;
    } catch (error) {
      // A server that is down keeps offering the tools it had; calls report the outage.
      if (this.catalog && !options.signal?.aborted) return this.catalog.definitions;
      throw error;
    }
  }

  /** The MCP name of an exposed tool name, if this provider exposes it. */
  toolName(exposed: string): string | undefined {
    return this.catalog?.entries.get(exposed)?.tool.name;
  }

  instructions(): string | undefined {
    return this.serverInstructions;
  }

  async execute(call: ToolCallRequest, options: ToolExecuteOptions): Promise<ToolResult> {
    if (options.signal.aborted)
      return toolError('aborted', `The call to "${call.name}" was cancelled before it started.`);
    let entry: CatalogEntry | undefined;
    try {
      if (!this.catalog) await this.listTools({ signal: options.signal });
      entry = this.catalog?.entries.get(call.name);
    } catch (error) {
      return classifyCallError(error, this.context(call.name, 0, options.signal.aborted));
    }
    if (!entry) {
      const known = [...(this.catalog?.entries.keys() ?? [])].join(', ') || 'none';
      return toolError(
        'unknown_tool',
        `MCP server "${this.id}" has no tool "${call.name}". Its tools: ${known}.`,
      );
    }
    const check = this.validator.check(
      entry.tool.name,
      entry.exposed,
      this.schemaOf(entry.tool),
      call.arguments,
    );
    if (!check.ok) return toolError('invalid_arguments', check.message);
    const timeoutMs = options.timeoutMs ?? this.config.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const found = entry;
    try {
      return await this.queues.run(
        this.queue,
        () => this.callTool(found, call, options, timeoutMs),
        options.signal,
      );
    } catch (error) {
      if (error instanceof QueueAbortedError)
        return toolError('aborted', `The call to "${call.name}" was cancelled while queued.`);
      return toolError('execution', `The call to "${call.name}" failed: ${transportErrorText(error)}`);
    }
  }

  /**
   * Runs the server's `healthProbe` now (`listTools` when none is set): `healthy`; `restarted`
   * after a failed probe or a server found gone; `down` when it could not be restarted (the
   * next attempt waits for the backoff).
   */
  checkHealth(): Promise<'healthy' | 'restarted' | 'down'> {
    return this.health.check();
  }

  /** Stops the server (stdio: its whole process tree) and its health probes. Idempotent. */
  async close(): Promise<void> {
    await this.health.stop();
    await this.connection.close();
  }

  private async callTool(
    entry: CatalogEntry,
    call: ToolCallRequest,
    options: ToolExecuteOptions,
    timeoutMs: number,
  ): Promise<ToolResult> {
    const { signal, onProgress } = options;
    let client: Client;
    try {
      client = await abortable(this.connection.client(), signal);
      await abortable(this.currentCatalog(client), signal);
    } catch (error) {
      return classifyCallError(error, this.context(entry.exposed, timeoutMs, signal.aborted));
    }
    const { controller, dispose } = linkedController(signal);
    try {
      const result = await this.callWithStepUp(() =>
        client.callTool(
          { name: entry.tool.name, arguments: call.arguments, _meta: callMeta(call) },
          undefined,
          {
            signal: controller.signal,
            timeout: timeoutMs,
            ...(onProgress
              ? {
                  onprogress: (progress) =>
                    onProgress({
                      progress: progress.progress,
                      ...(progress.total !== undefined ? { total: progress.total } : {}),
                      ...(progress.message !== undefined ? { message: progress.message } : {}),
                    }),
                }
              : {}),
          },
        ),
      );
      return convertCallToolResult(result);
    } catch (error) {
      if (!signal.aborted && isConnectionFailure(error))
        this.connection.discard(client, transportErrorText(error));
      return classifyCallError(error, this.context(entry.exposed, timeoutMs, signal.aborted));
    } finally {
      dispose();
    }
  }

  /**
   * Runs a request; when the server wanted more scopes and the user approved them during it
   * (step-up), trades the code for tokens and runs it once more (the server refused it unseen).
   */
  private async callWithStepUp<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || !(await this.connection.completeAuthorization()))
        throw error;
      return await request();
    }
  }

  private context(tool: string, timeoutMs: number, aborted: boolean) {
    return { server: this.id, tool, timeoutMs, aborted };
  }

  private schemaOf(tool: Tool): Record<string, unknown> {
    return tool.inputSchema as Record<string, unknown>;
  }

  private onConnected(client: Client): void {
    // Probes start with the first session and go on across restarts.
    this.health.start();
    this.serverInstructions = client.getInstructions();
    if (client.getServerCapabilities()?.tools?.listChanged) {
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        this.stale = true;
      });
    }
  }

  /** The catalog for this client's session, listing the tools again when needed. */
  private currentCatalog(client: Client): Promise<ToolCatalog> {
    const catalog = this.catalog;
    if (catalog && !this.stale && catalog.generation === this.connection.generation)
      return Promise.resolve(catalog);
    this.refreshing ??= this.refresh(client).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refresh(client: Client): Promise<ToolCatalog> {
    const generation = this.connection.generation;
    const tools: Tool[] = [];
    if (client.getServerCapabilities()?.tools) {
      let cursor: string | undefined;
      do {
        const page = await this.callWithStepUp(() => client.listTools(cursor ? { cursor } : {}));
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
    }
    const catalog = buildCatalog(this.id, tools, {
      filter: this.filter,
      prefix: (this.options.naming ?? 'prefixed') === 'prefixed',
      queue: this.queue,
      generation,
    });
    this.validator.reset();
    this.catalog = catalog;
    this.stale = false;
    return catalog;
  }
}
