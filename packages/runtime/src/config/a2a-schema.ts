import type { McpOAuthConfig } from '@agent/mcp';
import { MCP_OAUTH, posInt, type Schema, str, stringList, stringMap, TTL } from './schema-parts.js';

/** A remote Agent2Agent agent whose skills become tools `<name>__<skill>` (docs/a2a.md). */
export interface A2aAgentEntry {
  /** The agent card's URL. */
  url: string;
  /** Sent with every request (`${VAR}` substituted; secrets). */
  headers?: Record<string, string>;
  /** OAuth `client_credentials` as for a remote MCP server (`clientId`, `clientSecret`, `issuer`, `scope`); docs/a2a.md. */
  oauth?: McpOAuthConfig;
  /** Globs over the card's skill ids that become tools (default all). */
  skills?: string[];
  /** A call's limit, send to the task's end (default 600,000 ms). */
  timeoutMs?: number;
  /** Reading the card (default 30,000 ms). */
  connectTimeoutMs?: number;
  /** Stream the remote task's updates as progress when its card allows (default true). */
  streaming?: boolean;
  /** Its tools (globs over skill ids) a person decides before each call. */
  approval?: { tools?: string[] };
  /** The concurrency queue (`queues`) its calls wait in, shared with MCP servers and HTTP APIs (default `default`). */
  queue?: string;
  /** Caches the remote agent's answers for this long (`off`, ms, `30s|5m|1h|1d|1w`); docs/cache.md. */
  cache?: string | number;
}

export const A2A_AGENT: Schema = {
  type: ['object', 'null'],
  properties: {
    url: str('an http(s) URL of the agent card (…/.well-known/agent-card.json)'),
    headers: stringMap('an object of header names to strings'),
    oauth: MCP_OAUTH,
    skills: stringList('a list of globs over the skill ids'),
    timeoutMs: posInt('a positive number of milliseconds or a duration such as 30s, 5m'),
    connectTimeoutMs: posInt('a positive number of milliseconds or a duration such as 30s, 5m'),
    streaming: { type: 'boolean', 'x-expects': 'true or false' },
    queue: str('a queue name'),
    cache: TTL,
    approval: {
      type: 'object',
      properties: { tools: stringList("a list of globs over the agent's skill ids") },
      additionalProperties: false,
      'x-expects': "an object { tools: [globs over the agent's skill ids] }",
    },
  },
  required: ['url'],
  additionalProperties: false,
  'x-expects': "an A2A agent object (or null to remove a lower layer's entry)",
};
