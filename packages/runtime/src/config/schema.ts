import type { CacheStoreConfig, SessionStoreConfig } from '@agent/cache';
import type { McpOAuthConfig } from '@agent/mcp';
import { REASONING_EFFORTS, type ReasoningEffort } from '@agent/protocol';
import {
  type ModelPricing,
  PROVIDER_TYPES,
  type ProviderType,
  REPEAT_PENALTY_FIELDS,
  type RepeatPenaltyField,
  SAMPLING_PARAMS,
  type SamplingParam,
  TOOL_ID_FORMATS,
} from '@agent/providers';
import { type ExportSettings, TRACE_SAMPLERS, type TraceSamplerName } from '@agent/telemetry/export';
import { DEFAULTS_SCHEMA } from '../agent-file/keys.js';
import type { AgentSettings } from '../agent-file/settings.js';
import { A2A_AGENT, type A2aAgentEntry } from './a2a-schema.js';
import { OPENAPI_SPEC, type OpenApiSpecEntry, REST_TOOL, type RestToolEntry } from './http-api-schema.js';
import { MCP_OAUTH, posInt, type Schema, str, stringList, stringMap, TTL } from './schema-parts.js';

export type { A2aAgentEntry };

import { CACHE, PERSISTENCE, SESSIONS, TELEMETRY } from './section-schemas.js';

export type { HttpAuthEntry, OpenApiSpecEntry, RestToolEntry } from './http-api-schema.js';

// The shape of `agent.json`, as types and as the JSON Schema its files are checked against.

export interface ProviderModelEntry {
  /** Context window in tokens (default 131072). */
  contextWindow?: number;
  /** Tokens kept free below the window (default 256). */
  contextBuffer?: number;
  /** Tokenizer family for the context guard (`openai` uses o200k_base). */
  tokenizer?: string;
  /** USD per million tokens; overrides the built-in price list. */
  pricing?: ModelPricing;
  /** Fields merged into every request body for this model. */
  extraBody?: Record<string, unknown>;
  /** Overrides of the providers' model table (see docs/providers.md). */
  reasoningModel?: boolean;
  omitSampling?: SamplingParam[];
  reasoningEfforts?: ReasoningEffort[];
  outputTokenLimit?: number;
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  longContext?: boolean;
  /** Chat Completions: the field this model's earlier reasoning goes back in (beats the provider's). */
  chatReasoningField?: 'reasoning_content' | 'reasoning';
}

export interface ProviderEntry {
  type: ProviderType;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  /** Whole-call timeout in milliseconds (the agent's `llmTimeout` wins per call). */
  timeoutMs?: number;
  /** Context window of every model of this provider that does not set its own. */
  contextWindow?: number;
  models?: Record<string, ProviderModelEntry>;
  extraBody?: Record<string, unknown>;
  promptCaching?: boolean;
  reasoningSummary?: 'auto' | 'concise' | 'detailed' | 'none';
  chatReasoningField?: 'reasoning_content' | 'reasoning';
  streamUsage?: boolean;
  toolCallIdFormat?: (typeof TOOL_ID_FORMATS)[number];
  assistantAfterToolResults?: boolean;
  /** OpenAI-compatible servers: the body field of the repeat penalty (see docs/providers.md). */
  repeatPenaltyField?: RepeatPenaltyField;
  /**
   * Globs over the tools of every agent that uses this provider's models (exposed names or
   * ai-agent's `mcp__<server>__<tool>`), ANDed with the agent's and the MCP server's filters.
   */
  allowTools?: string[];
  denyTools?: string[];
  /** String formats (`uri`, `email`, ...) that may stay in the tool schemas sent to its models (default all). */
  stringSchemaFormatsAllowed?: string[];
  /** String formats taken out of the tool schemas sent to its models. */
  stringSchemaFormatsDenied?: string[];
}

/** An MCP server as JSON can describe it (`type` defaults to stdio with `command`, http with `url`). */
export interface McpServerEntry {
  type?: 'stdio' | 'http' | 'sse' | 'websocket';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  toolTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** `ping` or `listTools` between calls; a failure restarts the server with backoff (docs/mcp.md). */
  healthProbe?: 'ping' | 'listTools';
  healthProbeIntervalMs?: number;
  healthProbeTimeoutMs?: number;
  queue?: string;
  allowTools?: string[];
  denyTools?: string[];
  maxMessageBytes?: number;
  /** OAuth of a remote server (pre-registered client, scopes, client credentials); see docs/mcp.md. */
  oauth?: McpOAuthConfig;
  /** Caches every tool's results for this long (`off`, ms, `30s|5m|1h|1d|1w`); see docs/cache.md. */
  cache?: string | number;
  /** Per tool (its own name on the server): a TTL that beats `cache`. */
  toolsCache?: Record<string, string | number>;
  /** Its tools (globs over their own names on the server) a person decides before each call. */
  approval?: { tools?: string[] };
  /** `false`: a server of its own for each session, started with it and stopped after (default true: one per runner). */
  shared?: boolean;
}

/** Where the response and tool caches live (`sqlite` by default, in the user's cache directory). */
export type CacheSection = CacheStoreConfig;

/** Where session snapshots live (`sqlite` by default, in the user's state directory); docs/sessions.md. */
export type SessionsSection = SessionStoreConfig;

/** What the runtime keeps of finished runs (ai-agent's `persistence`); docs/observability.md. */
export interface PersistenceSection {
  /** Every finished top-level session is written here as `<sessionId>.json.gz` (relative to this file). */
  sessionsDir?: string;
  /** Every accounting entry of every run is appended here as one JSON line (relative to this file). */
  billingFile?: string;
}

/** The OTEL_TRACES_SAMPLER names `telemetry.sampler` takes. */
/**
 * OpenTelemetry export, set up by the CLI and agent-server (docs/observability.md) with
 * `@agent/telemetry/export`, whose settings these are. The standard `OTEL_*` environment
 * variables fill in what it leaves out.
 */
export type TelemetrySection = ExportSettings;
export { TRACE_SAMPLERS, type TraceSamplerName };

export interface ConfigDefaults extends AgentSettings {
  /** Models for agents whose file lists none. */
  models?: string[];
  /** Deepest chain of sub-agents below the top agent (default 5). */
  maxSubAgentDepth?: number;
  /** Sub-agents running at once per nesting level, per runner (default 4). */
  maxConcurrentSubAgents?: number;
}

export interface ConfigFile {
  /**
   * Places outside the top agent file's directory that agent files may refer to (includes,
   * `schemaRef`, sub-agents): directories or files, relative to this config file.
   */
  allowedPaths?: string[];
  providers?: Record<string, ProviderEntry | null>;
  mcpServers?: Record<string, McpServerEntry | null>;
  /** HTTP endpoints as tools (`rest__<name>`), referenced by name like MCP servers (docs/http-tools.md). */
  restTools?: Record<string, RestToolEntry | null>;
  /** OpenAPI documents whose operations become tools (`<name>__<operation>`). */
  openapiSpecs?: Record<string, OpenApiSpecEntry | null>;
  /** Remote Agent2Agent agents whose skills become tools (`<name>__<skill>`), referenced by name (docs/a2a.md). */
  a2aAgents?: Record<string, A2aAgentEntry | null>;
  queues?: Record<string, number | null>;
  defaults?: ConfigDefaults;
  cache?: CacheSection;
  sessions?: SessionsSection;
  persistence?: PersistenceSection;
  telemetry?: TelemetrySection;
}

export const DEFAULT_MAX_SUB_AGENT_DEPTH = 5;
export const DEFAULT_MAX_CONCURRENT_SUB_AGENTS = 4;

const price = (what: string): Schema => ({
  type: 'number',
  minimum: 0,
  'x-expects': `${what} (USD per million tokens, >= 0)`,
});

const MODEL_ENTRY: Schema = {
  type: 'object',
  properties: {
    contextWindow: posInt('a positive integer (tokens)'),
    contextBuffer: { type: 'integer', minimum: 0, 'x-expects': 'an integer >= 0 (tokens)' },
    tokenizer: str(),
    pricing: {
      type: 'object',
      properties: {
        input: price('a number'),
        output: price('a number'),
        cachedInput: price('a number'),
        cacheWrite: price('a number'),
      },
      required: ['input', 'output'],
      additionalProperties: false,
      'x-expects': 'an object { input, output, cachedInput?, cacheWrite? }',
    },
    extraBody: { type: 'object', 'x-expects': 'an object' },
    reasoningModel: { type: 'boolean', 'x-expects': 'true or false' },
    omitSampling: {
      type: 'array',
      items: { enum: [...SAMPLING_PARAMS], 'x-expects': `one of ${SAMPLING_PARAMS.join(', ')}` },
      'x-expects': `a list of ${SAMPLING_PARAMS.join(', ')}`,
    },
    reasoningEfforts: {
      type: 'array',
      minItems: 1,
      items: { enum: [...REASONING_EFFORTS], 'x-expects': `one of ${REASONING_EFFORTS.join(', ')}` },
      'x-expects': `a list of ${REASONING_EFFORTS.join(', ')}`,
    },
    outputTokenLimit: posInt('a positive integer (tokens)'),
    maxTokensField: {
      enum: ['max_tokens', 'max_completion_tokens'],
      'x-expects': 'max_tokens or max_completion_tokens',
    },
    longContext: { type: 'boolean', 'x-expects': 'true or false' },
    chatReasoningField: {
      enum: ['reasoning_content', 'reasoning'],
      'x-expects': 'reasoning_content or reasoning',
    },
  },
  additionalProperties: false,
  'x-expects': 'an object of model settings ({} for none)',
};

const PROVIDER: Schema = {
  type: ['object', 'null'],
  properties: {
    type: { enum: [...PROVIDER_TYPES], 'x-expects': `one of ${PROVIDER_TYPES.join(', ')}` },
    apiKey: str(),
    baseURL: str('an http(s) URL'),
    headers: stringMap('an object of header names to strings'),
    timeoutMs: posInt('a positive number of milliseconds or a duration such as 30s, 5m'),
    contextWindow: posInt('a positive integer (tokens)'),
    models: {
      type: 'object',
      additionalProperties: MODEL_ENTRY,
      'x-expects': 'an object of model names to settings',
    },
    extraBody: { type: 'object', 'x-expects': 'an object' },
    promptCaching: { type: 'boolean', 'x-expects': 'true or false' },
    reasoningSummary: {
      enum: ['auto', 'concise', 'detailed', 'none'],
      'x-expects': 'one of auto, concise, detailed, none',
    },
    chatReasoningField: {
      enum: ['reasoning_content', 'reasoning'],
      'x-expects': 'reasoning_content or reasoning',
    },
    streamUsage: { type: 'boolean', 'x-expects': 'true or false' },
    toolCallIdFormat: { enum: [...TOOL_ID_FORMATS], 'x-expects': `one of ${TOOL_ID_FORMATS.join(', ')}` },
    assistantAfterToolResults: { type: 'boolean', 'x-expects': 'true or false' },
    repeatPenaltyField: {
      enum: [...REPEAT_PENALTY_FIELDS],
      'x-expects': REPEAT_PENALTY_FIELDS.join(' or '),
    },
    allowTools: stringList('a list of tool-name globs'),
    denyTools: stringList('a list of tool-name globs'),
    stringSchemaFormatsAllowed: stringList('a list of JSON Schema string formats'),
    stringSchemaFormatsDenied: stringList('a list of JSON Schema string formats'),
  },
  required: ['type'],
  additionalProperties: false,
  'x-expects': "a provider object (or null to remove a lower layer's entry)",
};

const MCP_SERVER: Schema = {
  type: ['object', 'null'],
  properties: {
    type: {
      enum: ['stdio', 'http', 'sse', 'websocket'],
      'x-expects': 'one of stdio, http, sse, websocket',
    },
    command: str('a command'),
    args: stringList('a list of strings'),
    env: stringMap('an object of variable names to strings'),
    cwd: str('a directory'),
    url: str('an http(s) URL (ws(s) for websocket)'),
    headers: stringMap('an object of header names to strings'),
    toolTimeoutMs: posInt('a positive number of milliseconds or a duration such as 30s, 5m'),
    connectTimeoutMs: posInt('a positive number of milliseconds or a duration such as 30s, 5m'),
    healthProbe: { enum: ['ping', 'listTools'], 'x-expects': 'ping or listTools' },
    shared: { type: 'boolean', 'x-expects': 'true or false' },
    healthProbeIntervalMs: posInt('a positive number of milliseconds or a duration such as 30s, 5m'),
    healthProbeTimeoutMs: posInt('a positive number of milliseconds or a duration such as 3s'),
    queue: str('a queue name'),
    allowTools: stringList('a list of tool-name globs'),
    denyTools: stringList('a list of tool-name globs'),
    maxMessageBytes: posInt('a positive integer (bytes)'),
    oauth: MCP_OAUTH,
    cache: TTL,
    toolsCache: {
      type: 'object',
      additionalProperties: TTL,
      'x-expects': 'an object of tool names to TTLs',
    },
    approval: {
      type: 'object',
      properties: { tools: stringList("a list of globs over the server's tool names") },
      additionalProperties: false,
      'x-expects': "an object { tools: [globs over the server's tool names] }",
    },
  },
  additionalProperties: false,
  'x-expects': "an MCP server object (or null to remove a lower layer's entry)",
};

export const CONFIG_SCHEMA: Schema = {
  type: 'object',
  properties: {
    $schema: str(),
    allowedPaths: stringList('a list of directories or files (relative to this file)'),
    providers: {
      type: 'object',
      additionalProperties: PROVIDER,
      'x-expects': 'an object of provider names to providers',
    },
    mcpServers: {
      type: 'object',
      additionalProperties: MCP_SERVER,
      'x-expects': 'an object of server names to MCP servers',
    },
    restTools: {
      type: 'object',
      additionalProperties: REST_TOOL,
      'x-expects': 'an object of tool names to REST tools',
    },
    openapiSpecs: {
      type: 'object',
      additionalProperties: OPENAPI_SPEC,
      'x-expects': 'an object of API names to OpenAPI specs',
    },
    a2aAgents: {
      type: 'object',
      additionalProperties: A2A_AGENT,
      'x-expects': 'an object of agent names to remote A2A agents',
    },
    queues: {
      type: 'object',
      additionalProperties: {
        type: ['integer', 'null'],
        minimum: 1,
        'x-expects': 'a positive integer (calls at once)',
      },
      'x-expects': 'an object of queue names to limits',
    },
    defaults: DEFAULTS_SCHEMA,
    cache: CACHE,
    sessions: SESSIONS,
    persistence: PERSISTENCE,
    telemetry: TELEMETRY,
  },
  additionalProperties: false,
  'x-expects': 'a JSON object',
};

/** Paths whose values are secrets: never quoted in messages. */
export function isSecretPath(path: readonly (string | number)[]): boolean {
  const [section, , field] = path;
  if (section === 'providers') return field === 'apiKey' || field === 'headers';
  if (section === 'mcpServers') return field === 'headers' || field === 'env' || field === 'oauth';
  if (section === 'a2aAgents') return field === 'headers' || field === 'oauth';
  if (section === 'restTools' || section === 'openapiSpecs') return field === 'headers' || field === 'auth';
  // A Redis URL may carry a password.
  if (section === 'cache') return path[1] === 'url';
  // A Redis URL may carry a password; the snapshot keys are secrets.
  if (section === 'sessions')
    return path[1] === 'url' || path[1] === 'snapshotKey' || path[1] === 'previousSnapshotKeys';
  if (section === 'telemetry') return path[1] === 'otlp' && path[2] === 'headers';
  return false;
}
