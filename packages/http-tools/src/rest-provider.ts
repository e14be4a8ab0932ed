import type {
  ToolCallRequest,
  ToolDefinition,
  ToolExecuteOptions,
  ToolProvider,
  ToolResult,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { compileSchema } from '@agent/schema';
import { type AuthApplier, authApplier } from './auth.js';
import { boundedFetch, RedirectRefused } from './bounded-fetch.js';
import { buildRequest } from './build-request.js';
import { HttpToolsError, redactor } from './errors.js';
import { applyIdempotencyKey, DEFAULT_IDEMPOTENCY_HEADER } from './idempotency-header.js';
import { checkApiOptions } from './options-check.js';
import { errorResult, successResult } from './response-text.js';
import { ArgumentRefused } from './template.js';
import {
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type HttpApiOptions,
  type RestToolDefinition,
} from './types.js';

const ANY_OBJECT = { type: 'object', additionalProperties: true };

function failure(
  kind: 'invalid_arguments' | 'execution' | 'timeout' | 'aborted' | 'transport',
  message: string,
): ToolResult {
  return { ok: false, error: { kind, message } };
}

/**
 * One HTTP API as a `ToolProvider`: each `RestToolDefinition` a tool. Calls reach only the
 * allowed hosts, read at most `maxResponseBytes`, end at the smaller of the session's and the
 * API's timeout, and turn 4xx/5xx answers into tool errors with the status and the body's start.
 */
export class HttpToolProvider implements ToolProvider {
  readonly id: string;
  readonly kind = 'rest';
  readonly #tools: Map<string, RestToolDefinition>;
  readonly #allowed: Set<string>;
  readonly #auth: AuthApplier;
  readonly #options: HttpApiOptions;
  readonly #validators = new Map<string, (value: unknown) => string | undefined>();

  constructor(options: HttpApiOptions) {
    const checked = checkApiOptions(options);
    this.id = options.id;
    this.#options = options;
    this.#tools = new Map(options.tools.map((tool) => [tool.name, tool]));
    this.#auth = authApplier(options.auth);
    this.#allowed = new Set([...checked.hosts, ...this.#auth.hosts]);
  }

  async listTools(): Promise<readonly ToolDefinition[]> {
    return [...this.#tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parametersSchema ?? ANY_OBJECT,
      ...(this.#options.queue === undefined ? {} : { queue: this.#options.queue }),
    }));
  }

  /** The tools a person decides before each call (default: every method but GET and HEAD). */
  approvalTools(): string[] {
    return [...this.#tools.values()]
      .filter((tool) => tool.approval ?? !['GET', 'HEAD'].includes(tool.method ?? 'GET'))
      .map((tool) => tool.name);
  }

  async execute(call: ToolCallRequest, options: ToolExecuteOptions): Promise<ToolResult> {
    const tool = this.#tools.get(call.name);
    if (tool === undefined)
      return { ok: false, error: { kind: 'unknown_tool', message: `unknown tool "${call.name}"` } };
    const problem = this.#validate(tool, call.arguments);
    if (problem !== undefined) return failure('invalid_arguments', `${call.name}: ${problem}`);
    const run = () => this.#call(tool, call, options);
    const queues = this.#options.queues;
    if (queues === undefined || this.#options.queue === undefined) return run();
    try {
      return await queues.run(this.#options.queue, run, options.signal);
    } catch (error) {
      return failure(
        'aborted',
        `the call to "${call.name}" was cancelled while queued: ${errorMessage(error)}`,
      );
    }
  }

  #validate(tool: RestToolDefinition, args: unknown): string | undefined {
    let validate = this.#validators.get(tool.name);
    if (validate === undefined) {
      const compiled = compileSchema(tool.parametersSchema ?? ANY_OBJECT);
      validate = compiled.ok
        ? (value) => {
            const errors = compiled.validate(value);
            if (errors.length === 0) return undefined;
            return errors
              .slice(0, 8)
              .map((e) => `${e.instancePath === '' ? 'arguments' : e.instancePath} ${e.message ?? e.keyword}`)
              .join('; ');
          }
        : () => `the tool's parameter schema cannot be used: ${compiled.error}`;
      this.#validators.set(tool.name, validate);
    }
    return validate(args);
  }

  async #call(
    tool: RestToolDefinition,
    call: ToolCallRequest,
    options: ToolExecuteOptions,
  ): Promise<ToolResult> {
    const limits = [options.timeoutMs, tool.timeoutMs, this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS];
    const timeoutMs = Math.min(...limits.filter((n): n is number => typeof n === 'number' && n > 0));
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([options.signal, timeout]);
    const redact = redactor([...(this.#options.secrets ?? []), ...this.#auth.secrets]);
    const method = tool.method ?? 'GET';
    try {
      const request = buildRequest(tool, call.arguments);
      applyIdempotencyKey(
        request,
        tool.idempotencyHeader ?? this.#options.idempotencyHeader ?? DEFAULT_IDEMPOTENCY_HEADER,
        call.idempotencyKey,
      );
      await this.#auth.apply(request.url, request.headers, signal);
      const response = await boundedFetch(request, {
        allowed: this.#allowed,
        maxBytes: this.#options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        maxRedirects: this.#options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
        signal,
      });
      if (response.status === 401) this.#auth.refused();
      if (response.status >= 400) return errorResult(response, method, redact);
      return successResult(response, tool.response ?? 'auto');
    } catch (error) {
      if (timeout.aborted && !options.signal.aborted)
        return failure('timeout', `${tool.name}: no answer within ${timeoutMs} ms`);
      if (options.signal.aborted) return failure('aborted', `${tool.name}: the call was cancelled`);
      if (error instanceof ArgumentRefused)
        return failure('invalid_arguments', redact(`${tool.name}: ${error.message}`));
      if (error instanceof RedirectRefused || error instanceof HttpToolsError)
        return failure('execution', redact(`${tool.name}: ${error.message}`));
      return failure('transport', redact(`${tool.name}: ${method} failed: ${errorMessage(error)}`));
    }
  }
}

/** A `ToolProvider` for one HTTP API (see `HttpToolProvider`). Throws `ConfigError` for bad options. */
export function createHttpToolProvider(options: HttpApiOptions): HttpToolProvider {
  return new HttpToolProvider(options);
}
