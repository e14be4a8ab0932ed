import { ConfigError } from '@agent/protocol';

/** A setting of the server that cannot work; `agent-server` prints the message and exits 2. */
export function configError(field: string, value: unknown, allowed: string, message: string): ConfigError {
  return new ConfigError({ field, value, allowed, message });
}

export function parsePort(value: unknown, what: string): number {
  const port = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw configError(
      what,
      value,
      'a port, an integer 0-65535',
      `${what}: a port is an integer 0-65535, not ${JSON.stringify(value)}`,
    );
  }
  return port;
}
