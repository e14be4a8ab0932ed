import { REDACTED } from '@agent/protocol';

/** The parts of a `redis://` / `rediss://` URL that are secret (user name and password), for redactors. */
export function redisUrlSecrets(url: string): string[] {
  const parsed = parse(url);
  if (parsed === undefined) return [];
  return [parsed.password, decode(parsed.password)].filter((part) => part.length > 0);
}

/** The URL with its password replaced by `[redacted]` (a URL that does not parse is hidden whole). */
export function redactRedisUrl(url: string): string {
  const parsed = parse(url);
  if (parsed === undefined) return REDACTED;
  if (parsed.password === '') return url;
  // Replaced in the text as written, so the rest reads as the user wrote it.
  const at = url.indexOf(`:${parsed.password}@`);
  if (at === -1) return REDACTED;
  return `${url.slice(0, at)}:${REDACTED}@${url.slice(at + parsed.password.length + 2)}`;
}

/** Every secret of `url` in `text` replaced by `[redacted]` (messages of the client may quote them). */
export function redactRedisText(text: string, url: string): string {
  let out = text.split(url).join(redactRedisUrl(url));
  for (const secret of redisUrlSecrets(url).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** What a Redis URL may be, for error messages. */
// No `user:password@` shape in it: redactors would take it for a secret and cut the text.
export const REDIS_URL_ALLOWED =
  'redis://host[:port][/db] or rediss://host[:port][/db] (TLS), or a Redis Cluster: redis+cluster://host:port[?node=host:port&...] or rediss+cluster://... (a password goes in the URL, before the host)';

/** A seed node of a Redis Cluster URL. */
export interface RedisNode {
  host: string;
  port: number;
}

/** Most seed nodes a cluster URL may name (the client discovers the rest from any one). */
export const MAX_CLUSTER_SEEDS = 32;

/**
 * True for a `redis://` or `rediss://` URL with a host, or a Redis Cluster URL
 * (`redis+cluster://` / `rediss+cluster://`, see `redisClusterNodes`).
 */
export function isRedisUrl(url: string): boolean {
  const parsed = parse(url);
  if (parsed === undefined || parsed.hostname === '') return false;
  if (/^rediss?:$/.test(parsed.protocol)) return true;
  return redisClusterNodes(url) !== undefined;
}

/**
 * The seed nodes of a Redis Cluster URL: `redis+cluster://[user:password@]host:port` (TLS:
 * `rediss+cluster://`), more seeds as `?node=host:port` (at most 32 in all), no database
 * (a cluster has only 0). Undefined for any other URL, or one that names a bad port, a
 * database or another query parameter.
 */
export function redisClusterNodes(url: string): RedisNode[] | undefined {
  const parsed = parse(url);
  if (parsed === undefined || !/^rediss?\+cluster:$/.test(parsed.protocol)) return undefined;
  if (parsed.pathname !== '' && parsed.pathname !== '/' && parsed.pathname !== '/0') return undefined;
  const first = node(parsed.hostname, parsed.port === '' ? '6379' : parsed.port);
  if (first === undefined) return undefined;
  const nodes = [first];
  for (const [name, value] of parsed.searchParams) {
    if (name !== 'node') return undefined;
    const colon = value.lastIndexOf(':');
    const seed = colon === -1 ? undefined : node(value.slice(0, colon), value.slice(colon + 1));
    if (seed === undefined) return undefined;
    nodes.push(seed);
  }
  return nodes.length <= MAX_CLUSTER_SEEDS ? nodes : undefined;
}

/** True when `url` names a Redis Cluster (`redis+cluster://` or `rediss+cluster://`). */
export function isRedisClusterUrl(url: string): boolean {
  return redisClusterNodes(url) !== undefined;
}

function node(host: string, port: string): RedisNode | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare === '' || !/^[A-Za-z0-9.:_-]+$/.test(bare) || !/^\d{1,5}$/.test(port)) return undefined;
  const number = Number(port);
  return number >= 1 && number <= 65535 ? { host: bare, port: number } : undefined;
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
