import {
  type CallQueues,
  createHttpToolProvider,
  type HttpAuth,
  type HttpToolProvider,
  loadOpenApiTools,
  type RestToolDefinition,
} from '@agent/http-tools';
import { ConfigError } from '@agent/protocol';
import { describeValue, errorMessage } from '@agent/protocol/util';
import { type ResolvedConfig, unusableValueError } from '../config/layers.js';
import type { ConfigEntry } from '../config/merge.js';
import type { HttpAuthEntry, OpenApiSpecEntry, RestToolEntry } from '../config/schema.js';
import { RuntimeError } from '../errors.js';

/** The prefix of every `restTools` tool: `rest__<name>`. */
export const REST_TOOL_PREFIX = 'rest__';
const SAFE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function failure(
  entry: ConfigEntry<unknown>,
  section: string,
  message: string,
  config: ResolvedConfig,
): RuntimeError {
  const { file, line } = entry.origin;
  return new RuntimeError({
    kind: 'configuration',
    file,
    ...(line === undefined ? {} : { line }),
    message: config.redact(
      `${file}${line === undefined ? '' : `:${line}`}: ${section}.${entry.name}: ${message}`,
    ),
  });
}

/** An error's text for a config entry: a `ConfigError`'s problems by the entry's own field names. */
function entryMessage(error: unknown): string {
  if (!(error instanceof ConfigError)) return errorMessage(error);
  return error.problems
    .map(
      (p) =>
        `\`${p.field.replace(/^tools\[\d+\]\./, '')}\` must be ${p.allowed}, got ${describeValue(p.value)}`,
    )
    .join('; ');
}

function checkName(
  entry: ConfigEntry<unknown>,
  section: string,
  prefix: string,
  config: ResolvedConfig,
): void {
  if (!SAFE.test(entry.name) || prefix.length + entry.name.length > 64)
    throw failure(
      entry,
      section,
      `the name must be letters, digits, _ and - (not starting with a digit or -), short enough for a tool name of at most 64 characters with \`${prefix}\``,
      config,
    );
}

/** `auth` as `@agent/http-tools` takes it (an OpenAPI document may complete an apiKey or oauth2). */
function authOf(auth: HttpAuthEntry | undefined): Parameters<typeof loadOpenApiTools>[0]['auth'] {
  if (auth === undefined) return undefined;
  const { type } = auth;
  if (type === 'bearer') return { type, token: auth.token ?? '' };
  if (type === 'basic') return { type, username: auth.username ?? '', password: auth.password ?? '' };
  if (type === 'apiKey')
    return {
      type,
      value: auth.value ?? '',
      ...(auth.name ? { name: auth.name } : {}),
      ...(auth.in ? { in: auth.in } : {}),
    };
  return {
    type,
    clientId: auth.clientId ?? '',
    clientSecret: auth.clientSecret ?? '',
    ...(auth.tokenUrl ? { tokenUrl: auth.tokenUrl } : {}),
    ...(auth.scopes ? { scopes: auth.scopes } : {}),
  };
}

/**
 * The process's tool queues (`@agent/mcp`'s, shared with MCP servers), imported only when an HTTP
 * API is configured: a run without tools does not load the MCP client.
 */
async function toolQueues(): Promise<CallQueues> {
  return (await import('@agent/mcp')).defaultToolQueues;
}

function common(entry: RestToolEntry | OpenApiSpecEntry, config: ResolvedConfig, queues: CallQueues) {
  return {
    ...(entry.allowedHosts === undefined ? {} : { allowedHosts: entry.allowedHosts }),
    ...(entry.timeoutMs === undefined ? {} : { timeoutMs: entry.timeoutMs }),
    ...(entry.maxResponseBytes === undefined ? {} : { maxResponseBytes: entry.maxResponseBytes }),
    ...(entry.idempotencyHeader === undefined ? {} : { idempotencyHeader: entry.idempotencyHeader }),
    queue: entry.queue ?? 'default',
    queues,
    secrets: config.secrets,
  };
}

function restProvider(
  entry: ConfigEntry<RestToolEntry>,
  config: ResolvedConfig,
  queues: CallQueues,
): HttpToolProvider {
  checkName(entry, 'restTools', REST_TOOL_PREFIX, config);
  const { value } = entry;
  const auth = authOf(value.auth);
  if (auth?.type === 'apiKey' && (auth.name === undefined || auth.in === undefined))
    throw failure(entry, 'restTools', 'auth apiKey needs `name` and `in` (header or query)', config);
  if (auth?.type === 'oauth2' && auth.tokenUrl === undefined)
    throw failure(entry, 'restTools', 'auth oauth2 needs `tokenUrl`', config);
  const tool: RestToolDefinition = {
    name: `${REST_TOOL_PREFIX}${entry.name}`,
    description: value.description,
    url: value.url,
    ...(value.method === undefined ? {} : { method: value.method }),
    ...(value.headers === undefined ? {} : { headers: value.headers }),
    ...(value.parametersSchema === undefined ? {} : { parametersSchema: value.parametersSchema }),
    ...(value.bodyTemplate === undefined ? {} : { bodyTemplate: value.bodyTemplate }),
    ...(value.response === undefined ? {} : { response: value.response }),
    ...(value.approval === undefined ? {} : { approval: value.approval }),
  };
  return createHttpToolProvider({
    id: entry.name,
    tools: [tool],
    ...(auth === undefined ? {} : { auth: auth as HttpAuth }),
    ...common(value, config, queues),
  });
}

async function openApiProvider(
  entry: ConfigEntry<OpenApiSpecEntry>,
  config: ResolvedConfig,
  queues: CallQueues,
  signal?: AbortSignal,
): Promise<HttpToolProvider> {
  checkName(entry, 'openapiSpecs', '__', config);
  const { value } = entry;
  const filter = {
    ...(value.tags === undefined ? {} : { tags: value.tags }),
    ...(value.paths === undefined ? {} : { paths: value.paths }),
    ...(value.operations === undefined ? {} : { operations: value.operations }),
    ...(value.includeMethods === undefined ? {} : { methods: value.includeMethods }),
  };
  const auth = authOf(value.auth);
  const loaded = await loadOpenApiTools({
    name: entry.name,
    spec: value.spec,
    cwd: config.cwd,
    filter,
    ...(value.baseUrl === undefined ? {} : { baseUrl: value.baseUrl }),
    ...(value.approval === undefined ? {} : { approval: value.approval }),
    ...(auth === undefined ? {} : { auth }),
    ...(signal === undefined ? {} : { signal }),
  });
  const headers = value.headers;
  const tools =
    headers === undefined
      ? loaded.tools
      : loaded.tools.map((tool) => ({ ...tool, headers: { ...headers, ...tool.headers } }));
  return createHttpToolProvider({
    id: entry.name,
    tools,
    ...(loaded.auth === undefined ? {} : { auth: loaded.auth }),
    ...common(value, config, queues),
  });
}

/**
 * Checks an HTTP API entry without contacting anything (`agent validate`): variables set, a
 * `restTools` definition that can work. An OpenAPI document is read only by a run.
 */
export async function checkHttpApi(name: string, config: ResolvedConfig): Promise<void> {
  const rest = config.restTools.get(name);
  const entry = rest ?? config.openapiSpecs.get(name);
  if (entry === undefined) return;
  const unusable = unusableValueError(entry.value);
  if (unusable !== undefined) throw unusable;
  if (rest === undefined) return;
  const queues = await toolQueues();
  try {
    restProvider(rest, config, queues);
  } catch (error) {
    if (error instanceof RuntimeError) throw error;
    throw failure(rest, 'restTools', entryMessage(error), config);
  }
}

/**
 * The HTTP APIs among `names` (`restTools`, `openapiSpecs`), one provider each, built once per
 * runner. An entry that cannot work (a variable not set, a document that cannot be read or is not
 * OpenAPI 3) is a configuration error naming its file and line.
 */
export async function startHttpApis(
  names: readonly string[],
  config: ResolvedConfig,
  options: { signal?: AbortSignal } = {},
): Promise<Map<string, HttpToolProvider>> {
  const providers = new Map<string, HttpToolProvider>();
  let queues: CallQueues | undefined;
  for (const name of names) {
    const rest = config.restTools.get(name);
    const spec = config.openapiSpecs.get(name);
    const entry = rest ?? spec;
    if (entry === undefined) continue;
    const section = rest === undefined ? 'openapiSpecs' : 'restTools';
    const unusable = unusableValueError(entry.value);
    if (unusable !== undefined) throw unusable;
    queues ??= await toolQueues();
    try {
      providers.set(
        name,
        rest !== undefined
          ? restProvider(rest, config, queues)
          : await openApiProvider(spec!, config, queues, options.signal),
      );
    } catch (error) {
      if (error instanceof RuntimeError) throw error;
      throw failure(entry, section, entryMessage(error), config);
    }
  }
  return providers;
}
