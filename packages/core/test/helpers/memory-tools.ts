import type { ToolDefinition, ToolExecuteOptions, ToolProvider, ToolResult } from '@agent/protocol';

export type MemoryToolHandler = (
  args: Record<string, unknown>,
  options: ToolExecuteOptions,
) => ToolResult | string | Promise<ToolResult | string>;

export interface MemoryToolSpec {
  description?: string;
  inputSchema?: Record<string, unknown>;
  handler: MemoryToolHandler;
}

export interface MemoryToolProvider extends ToolProvider {
  /** Every call, in order, with its arguments. */
  readonly calls: { name: string; arguments: Record<string, unknown> }[];
}

/** In-memory tools for scenarios: real `ToolProvider`s whose handlers are plain functions. */
export function memoryTools(
  id: string,
  tools: Record<string, MemoryToolSpec | MemoryToolHandler>,
): MemoryToolProvider {
  const calls: { name: string; arguments: Record<string, unknown> }[] = [];
  const specs = new Map(
    Object.entries(tools).map(([name, spec]) => [
      name,
      typeof spec === 'function' ? { handler: spec } : spec,
    ]),
  );
  const definitions: ToolDefinition[] = [...specs.entries()].map(([name, spec]) => ({
    name,
    description: spec.description ?? `${name} tool`,
    inputSchema: spec.inputSchema ?? { type: 'object' },
  }));
  return {
    id,
    kind: 'memory',
    calls,
    async listTools() {
      return definitions;
    },
    async execute(call, options) {
      calls.push({ name: call.name, arguments: call.arguments });
      const spec = specs.get(call.name);
      if (spec === undefined)
        return { ok: false, error: { kind: 'unknown_tool', message: `no tool ${call.name}` } };
      const result = await spec.handler(call.arguments, options);
      return typeof result === 'string' ? { ok: true, text: result } : result;
    },
  };
}

/** A tool that waits until aborted (or `ms` passes), for timeout and cancellation scenarios. */
export function waitingTool(ms: number): MemoryToolHandler {
  return (_args, options) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve('finished waiting'), ms);
      options.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve({ ok: false, error: { kind: 'aborted', message: 'aborted' } });
      });
    });
}
