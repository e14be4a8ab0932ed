import type { ModelClient, ModelRequest, ToolDefinition } from '@agent/protocol';

// ai-agent's provider `stringSchemaFormatsAllowed` / `stringSchemaFormatsDenied`: some servers
// refuse tool schemas with string formats they do not know (`uri`, `email`, ...). The formats
// not allowed are taken out of the tool schemas sent to that provider's models; the tools
// themselves still check arguments against their full schemas.

export interface StringFormatFilter {
  /** Formats that may stay (empty or absent: all not denied). */
  allowed?: readonly string[];
  /** Formats taken out. */
  denied?: readonly string[];
}

/** Keys whose values are data, not schemas: a `format` inside them is left alone. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

function isStringSchema(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  return type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string'));
}

/** A copy of `schema` without the string formats `keep` refuses (the input is not changed). */
export function stripStringFormats(schema: unknown, keep: (format: string) => boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => stripStringFormats(item, keep));
  if (schema === null || typeof schema !== 'object') return schema;
  const record = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'format' && typeof value === 'string' && isStringSchema(record) && !keep(value)) continue;
    out[key] = DATA_KEYWORDS.has(key) ? value : stripStringFormats(value, keep);
  }
  return out;
}

/** The test of a filter; undefined when it lets every format through. */
export function formatKeeper(filter: StringFormatFilter): ((format: string) => boolean) | undefined {
  const allowed = filter.allowed?.length ? new Set(filter.allowed) : undefined;
  const denied = new Set(filter.denied ?? []);
  if (allowed === undefined && denied.size === 0) return undefined;
  return (format) => !denied.has(format) && (allowed === undefined || allowed.has(format));
}

/** `client` with the refused string formats taken out of the tool schemas of every request. */
export function withStringFormatFilter(client: ModelClient, keep: (format: string) => boolean): ModelClient {
  // A session sends the same definitions every turn: each is rewritten once.
  const rewritten = new WeakMap<ToolDefinition, ToolDefinition>();
  const rewrite = (tool: ToolDefinition): ToolDefinition => {
    let done = rewritten.get(tool);
    if (done === undefined) {
      done = {
        ...tool,
        inputSchema: stripStringFormats(tool.inputSchema, keep) as ToolDefinition['inputSchema'],
      };
      rewritten.set(tool, done);
    }
    return done;
  };
  const filtered: ModelClient = {
    provider: client.provider,
    model: client.model,
    stream: (request: ModelRequest, options) =>
      client.stream(
        request.tools === undefined ? request : { ...request, tools: request.tools.map(rewrite) },
        options,
      ),
  };
  if (client.countTokens !== undefined) filtered.countTokens = (text) => client.countTokens!(text);
  const flags = {
    ...(client.parallelToolCalls === undefined ? {} : { parallelToolCalls: client.parallelToolCalls }),
    ...(client.deferredTools === undefined ? {} : { deferredTools: client.deferredTools }),
  };
  return { ...filtered, ...flags };
}
