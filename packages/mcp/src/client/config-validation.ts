import type { McpServerConfig } from './config.js';

/** A server entry that cannot be used as written. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

const TYPES = ['stdio', 'http', 'sse', 'custom'] as const;

function fail(server: string, message: string): never {
  throw new McpConfigError(`MCP server "${server}": ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkStringList(server: string, key: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    fail(server, `"${key}" must be an array of strings, got ${JSON.stringify(value)}`);
  }
}

function checkStringMap(server: string, key: string, value: unknown): void {
  if (value === undefined) return;
  if (!isRecord(value) || Object.values(value).some((item) => typeof item !== 'string')) {
    fail(server, `"${key}" must be an object of string values`);
  }
}

function checkPositive(server: string, key: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    fail(server, `"${key}" must be a positive number of milliseconds/bytes, got ${JSON.stringify(value)}`);
  }
}

function checkUrl(server: string, value: unknown): void {
  if (typeof value !== 'string') fail(server, `"url" must be a string, got ${JSON.stringify(value)}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(server, `"url" is not a valid URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(server, `"url" must use http: or https:, got ${url.protocol}`);
  }
}

/**
 * Checks one server entry (as parsed from JSON or built in code) and returns it typed.
 * Throws `McpConfigError` naming the server, the key, the value and what is allowed.
 */
export function validateServerConfig(server: string, config: unknown): McpServerConfig {
  if (!isRecord(config)) fail(server, 'the entry must be an object');
  const type = config.type;
  if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) {
    fail(server, `"type" must be one of ${TYPES.join(', ')}, got ${JSON.stringify(type)}`);
  }
  checkPositive(server, 'toolTimeoutMs', config.toolTimeoutMs);
  checkPositive(server, 'connectTimeoutMs', config.connectTimeoutMs);
  if (config.queue !== undefined && (typeof config.queue !== 'string' || config.queue === '')) {
    fail(server, `"queue" must be a non-empty string, got ${JSON.stringify(config.queue)}`);
  }
  checkStringList(server, 'allowTools', config.allowTools);
  checkStringList(server, 'denyTools', config.denyTools);
  if (type === 'stdio') {
    if (typeof config.command !== 'string' || config.command === '') {
      fail(server, `"command" must be a non-empty string, got ${JSON.stringify(config.command)}`);
    }
    checkStringList(server, 'args', config.args);
    checkStringMap(server, 'env', config.env);
    if (config.cwd !== undefined && typeof config.cwd !== 'string') fail(server, '"cwd" must be a string');
    checkPositive(server, 'maxMessageBytes', config.maxMessageBytes);
  } else if (type === 'http' || type === 'sse') {
    checkUrl(server, config.url);
    checkStringMap(server, 'headers', config.headers);
  } else if (typeof config.createTransport !== 'function') {
    fail(server, '"createTransport" must be a function returning an MCP SDK transport');
  }
  return config as unknown as McpServerConfig;
}
