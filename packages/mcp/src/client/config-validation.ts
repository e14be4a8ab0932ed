import { ConfigError } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import { HEALTH_PROBES, type McpServerConfig, TOKEN_ENDPOINT_AUTH_METHODS } from './config.js';

const TYPES = ['stdio', 'http', 'sse', 'websocket', 'custom'] as const;

/** Throws a `ConfigError` about `field` of one server entry; headers, env and URLs are never echoed. */
function fail(
  server: string,
  field: string,
  value: unknown,
  allowed: string,
  options: { secret?: boolean; message?: string } = {},
): never {
  throw new ConfigError({ source: `MCP server "${server}"`, field, value, allowed, ...options });
}

function checkStringList(server: string, key: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    fail(server, key, value, 'an array of strings');
  }
}

function checkStringMap(server: string, key: string, value: unknown): void {
  if (value === undefined) return;
  if (!isRecord(value) || Object.values(value).some((item) => typeof item !== 'string')) {
    fail(server, key, value, 'an object of string values', { secret: true });
  }
}

function checkPositive(server: string, key: string, value: unknown, unit: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    fail(server, key, value, `a positive number of ${unit}`);
  }
}

function checkUrl(server: string, value: unknown, schemes: readonly string[] = ['http', 'https']): void {
  const what = schemes.length === 2 && schemes[0] === 'ws' ? 'a ws(s) URL' : 'an http(s) URL';
  if (typeof value !== 'string') fail(server, 'url', value, `${what} string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The URL may carry a token: it is not echoed.
    fail(server, 'url', value, what, { secret: true, message: 'url is not a valid URL' });
  }
  if (!schemes.includes(url.protocol.slice(0, -1))) {
    fail(server, 'url', value, what, {
      secret: true,
      message: `url must use ${schemes.map((s) => `${s}:`).join(' or ')}, got ${url.protocol}`,
    });
  }
}

function checkOptionalString(server: string, field: string, value: unknown, secret = false): void {
  if (value !== undefined && (typeof value !== 'string' || value === '')) {
    fail(server, field, value, 'a non-empty string', { secret });
  }
}

function checkOAuth(server: string, oauth: unknown): void {
  if (oauth === undefined) return;
  if (!isRecord(oauth)) fail(server, 'oauth', oauth, 'an object', { secret: true });
  const known = [
    'grant',
    'clientId',
    'clientSecret',
    'tokenEndpointAuthMethod',
    'scope',
    'clientMetadataUrl',
    'issuer',
    'redirectPort',
  ];
  const unknown = Object.keys(oauth).find((key) => !known.includes(key));
  if (unknown !== undefined) fail(server, `oauth.${unknown}`, unknown, `one of ${known.join(', ')}`);
  if (
    oauth.grant !== undefined &&
    oauth.grant !== 'authorization_code' &&
    oauth.grant !== 'client_credentials'
  ) {
    fail(server, 'oauth.grant', oauth.grant, 'authorization_code or client_credentials');
  }
  checkOptionalString(server, 'oauth.clientId', oauth.clientId);
  checkOptionalString(server, 'oauth.clientSecret', oauth.clientSecret, true);
  checkOptionalString(server, 'oauth.scope', oauth.scope);
  const method = oauth.tokenEndpointAuthMethod;
  if (method !== undefined && !(TOKEN_ENDPOINT_AUTH_METHODS as readonly unknown[]).includes(method)) {
    fail(server, 'oauth.tokenEndpointAuthMethod', method, TOKEN_ENDPOINT_AUTH_METHODS.join(', '));
  }
  if (oauth.clientMetadataUrl !== undefined) {
    const url = typeof oauth.clientMetadataUrl === 'string' ? URL.parse(oauth.clientMetadataUrl) : null;
    if (url === null || url.protocol !== 'https:' || url.pathname === '/') {
      fail(server, 'oauth.clientMetadataUrl', oauth.clientMetadataUrl, 'an https URL with a path');
    }
  }
  const port = oauth.redirectPort;
  if (port !== undefined && !(Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536)) {
    fail(server, 'oauth.redirectPort', port, 'a port number from 1 to 65535');
  }
  if (oauth.issuer !== undefined) {
    const url = typeof oauth.issuer === 'string' ? URL.parse(oauth.issuer) : null;
    if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      fail(server, 'oauth.issuer', oauth.issuer, 'an http(s) URL');
    }
  }
  if (
    oauth.grant === 'client_credentials' &&
    (oauth.clientId === undefined || oauth.clientSecret === undefined || oauth.issuer === undefined)
  ) {
    fail(server, 'oauth', '[redacted]', 'clientId, clientSecret and issuer, all set for client_credentials', {
      message: 'oauth: the client_credentials grant needs clientId, clientSecret and issuer',
    });
  }
}

function checkTransport(server: string, type: string, config: Record<string, unknown>): void {
  if (type === 'stdio') {
    if (typeof config.command !== 'string' || config.command === '') {
      fail(server, 'command', config.command, 'a non-empty string');
    }
    checkStringList(server, 'args', config.args);
    checkStringMap(server, 'env', config.env);
    if (config.cwd !== undefined && typeof config.cwd !== 'string')
      fail(server, 'cwd', config.cwd, 'a string');
    checkPositive(server, 'maxMessageBytes', config.maxMessageBytes, 'bytes');
  } else if (type === 'http' || type === 'sse') {
    checkUrl(server, config.url);
    checkStringMap(server, 'headers', config.headers);
    checkOAuth(server, config.oauth);
  } else if (type === 'websocket') {
    checkUrl(server, config.url, ['ws', 'wss']);
    // The SDK's WebSocket transport sends no custom headers: dropping them would lose the auth.
    for (const key of ['headers', 'oauth'])
      if (config[key] !== undefined)
        fail(server, key, '[redacted]', 'nothing: the websocket transport sends no headers', {
          message: `\`${key}\` cannot be used with the websocket transport (it sends no custom headers); use http or sse`,
        });
  } else if (typeof config.createTransport !== 'function') {
    fail(server, 'createTransport', config.createTransport, 'a function returning an MCP SDK transport');
  }
}

/**
 * Checks one server entry (as parsed from JSON or built in code) and returns it typed. Throws a
 * `ConfigError` (code `configuration`) naming the server, the field, the value and what is allowed.
 */
export function validateServerConfig(server: string, config: unknown): McpServerConfig {
  if (!isRecord(config)) fail(server, 'entry', config, 'an object');
  const type = config.type;
  if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) {
    fail(server, 'type', type, `one of ${TYPES.join(', ')}`);
  }
  checkPositive(server, 'toolTimeoutMs', config.toolTimeoutMs, 'milliseconds');
  checkPositive(server, 'connectTimeoutMs', config.connectTimeoutMs, 'milliseconds');
  if (config.queue !== undefined && (typeof config.queue !== 'string' || config.queue === '')) {
    fail(server, 'queue', config.queue, 'a non-empty string');
  }
  if (
    config.healthProbe !== undefined &&
    !(HEALTH_PROBES as readonly unknown[]).includes(config.healthProbe)
  ) {
    fail(server, 'healthProbe', config.healthProbe, HEALTH_PROBES.join(' or '));
  }
  checkPositive(server, 'healthProbeIntervalMs', config.healthProbeIntervalMs, 'milliseconds');
  checkPositive(server, 'healthProbeTimeoutMs', config.healthProbeTimeoutMs, 'milliseconds');
  checkStringList(server, 'allowTools', config.allowTools);
  checkStringList(server, 'denyTools', config.denyTools);
  checkTransport(server, type, config);
  return config as unknown as McpServerConfig;
}
