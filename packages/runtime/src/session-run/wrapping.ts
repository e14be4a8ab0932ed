import type {
  ModelCallOptions,
  ModelClient,
  ModelRequest,
  ModelStreamEvent,
  ToolCallRequest,
  ToolExecuteOptions,
  ToolProvider,
  ToolResult,
} from '@agent/protocol';

/**
 * A client with `stream` replaced and everything else it declares passed through: its names,
 * `parallelToolCalls`, `deferredTools` and its token counters (a wrapper that dropped them would change how the
 * session counts its context). Tracing, recording and the hooks wrap clients with it.
 */
export function withStream(
  client: ModelClient,
  stream: (request: ModelRequest, options?: ModelCallOptions) => AsyncIterable<ModelStreamEvent>,
): ModelClient {
  return {
    provider: client.provider,
    model: client.model,
    ...(client.parallelToolCalls === undefined ? {} : { parallelToolCalls: client.parallelToolCalls }),
    ...(client.deferredTools === undefined ? {} : { deferredTools: client.deferredTools }),
    ...(client.countTokens === undefined ? {} : { countTokens: client.countTokens.bind(client) }),
    ...(client.countTokensBound === undefined
      ? {}
      : { countTokensBound: client.countTokensBound.bind(client) }),
    stream,
  };
}

/**
 * A provider with `execute` replaced, everything else passed through: `listTools`,
 * `instructions` and `close` of the provider it wraps.
 */
export function withExecute(
  provider: ToolProvider,
  execute: (call: ToolCallRequest, options: ToolExecuteOptions) => Promise<ToolResult>,
): ToolProvider {
  return {
    id: provider.id,
    ...(provider.kind === undefined ? {} : { kind: provider.kind }),
    listTools: (options) => provider.listTools(options),
    ...(provider.instructions === undefined ? {} : { instructions: () => provider.instructions?.() }),
    ...(provider.close === undefined ? {} : { close: () => provider.close?.() ?? Promise.resolve() }),
    execute,
  };
}
