import { isRecord, parseDurationMs } from '@agent/protocol/util';
import { type Context, checkKeys, fail, type Json, toolGlobs } from './ai-agent-context.js';

// ai-agent's `mcpServers` entries, translated into this runtime's server entries.

const SERVER_KEYS = [
  'type',
  'command',
  'args',
  'url',
  'headers',
  'env',
  'environment',
  'queue',
  'cache',
  'toolsCache',
  'shared',
  'healthProbe',
  'requestTimeoutMs',
  'toolsAllowed',
  'toolsDenied',
  'enabled',
];

const OUR_SERVER_KEYS = [
  'cwd',
  'toolTimeoutMs',
  'connectTimeoutMs',
  'allowTools',
  'denyTools',
  'maxMessageBytes',
  'healthProbeIntervalMs',
  'healthProbeTimeoutMs',
];

export function mcpServer(name: string, value: unknown, ctx: Context): unknown {
  if (!isRecord(value)) return value;
  const path = ['mcpServers', name];
  const out: Json = { ...value };
  checkKeys(out, SERVER_KEYS, OUR_SERVER_KEYS, path, ctx);
  // A disabled server is as if not defined (and hides one a lower layer defines).
  if (out.enabled === false) return null;
  delete out.enabled;
  if (out.type === 'local') out.type = 'stdio';
  if (out.type === 'remote')
    out.type = typeof out.url === 'string' && /\/sse\/?$/.test(out.url) ? 'sse' : 'http';
  if (Array.isArray(out.command)) {
    const [command, ...rest] = out.command as unknown[];
    out.command = command;
    out.args = [...rest, ...(Array.isArray(out.args) ? out.args : [])];
  }
  if ('environment' in out) {
    out.env = {
      ...(isRecord(out.environment) ? out.environment : {}),
      ...(isRecord(out.env) ? out.env : {}),
    };
    delete out.environment;
  }
  if ('requestTimeoutMs' in out) {
    const ms = parseDurationMs(out.requestTimeoutMs);
    if (ms === undefined || ms === 0)
      fail(
        ctx,
        [...path, 'requestTimeoutMs'],
        '`requestTimeoutMs` must be milliseconds or a duration such as 30s, 2m',
      );
    else out.toolTimeoutMs ??= ms;
    delete out.requestTimeoutMs;
  }
  toolGlobs(out);
  return out;
}
