import { LOOPBACK_HOSTNAMES } from '@agent/headends/http';
import { configError } from './config-values.js';

/** A hostname as `Host` carries it without its port: a DNS name, an IPv4 address or `[IPv6]`. */
const HOSTNAME =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])$/;

/** `--allowed-host` / `allowedHosts`: the hostnames, lower-cased, or a `ConfigError` naming the bad one. */
export function parseAllowedHosts(values: readonly unknown[], where: string): string[] {
  return values.map((value) => {
    if (typeof value !== 'string' || value.length > 253 || !HOSTNAME.test(value)) {
      throw configError(
        'allowedHosts',
        value,
        'a hostname without scheme or port (agents.example.com, 10.0.0.5, [fd00::1])',
        `${where}: ${JSON.stringify(value)} is not a hostname: give it without scheme, port or path, like agents.example.com`,
      );
    }
    return value.toLowerCase();
  });
}

/**
 * The hostnames every face (and the viewer) answers in `Host` and `Origin`: the loopback names,
 * the host it binds, and the allowed hosts. Anything else is refused (DNS rebinding protection).
 */
export function faceHostnames(config: { host: string; allowedHosts?: readonly string[] }): string[] {
  const bound = config.host.includes(':') ? `[${config.host}]` : config.host;
  return [...new Set([...LOOPBACK_HOSTNAMES, bound, ...(config.allowedHosts ?? [])])];
}
