import { ConfigError } from '@agent/protocol';
import { isPositiveInteger } from '@agent/protocol/util';
import { HttpToolsError } from './errors.js';
import { idempotencyHeaderFault } from './idempotency-header.js';
import { templateOrigin } from './template.js';
import { HTTP_METHODS, type HttpApiOptions, RESPONSE_MODES } from './types.js';

const SAFE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** Checks an API's options; returns the hosts its calls may reach. Throws one `ConfigError` for all problems. */
export function checkApiOptions(options: HttpApiOptions): { hosts: Set<string> } {
  const source = `HTTP API "${options.id}"`;
  const problems: ConfigError[] = [];
  const add = (field: string, value: unknown, allowed: string, secret = false) =>
    problems.push(new ConfigError({ source, field, value, allowed, secret }));
  const hosts = new Set<string>((options.allowedHosts ?? []).map((h) => h.toLowerCase()));
  const names = new Set<string>();
  const auth = options.auth;
  const authHeader = auth?.type === 'apiKey' && auth.in === 'header' ? auth.name : undefined;
  options.tools.forEach((tool, index) => {
    const at = `tools[${index}]`;
    if (!SAFE_NAME.test(tool.name))
      add(
        `${at}.name`,
        tool.name,
        'a tool name of letters, digits, _ and - (at most 64, not starting with a digit or -)',
      );
    else if (names.has(tool.name)) add(`${at}.name`, tool.name, 'a name no other tool of the API has');
    names.add(tool.name);
    if (tool.method !== undefined && !HTTP_METHODS.includes(tool.method))
      add(`${at}.method`, tool.method, `one of ${HTTP_METHODS.join(', ')}`);
    if (tool.response !== undefined && !RESPONSE_MODES.includes(tool.response))
      add(`${at}.response`, tool.response, `one of ${RESPONSE_MODES.join(', ')}`);
    if (tool.timeoutMs !== undefined && !isPositiveInteger(tool.timeoutMs))
      add(`${at}.timeoutMs`, tool.timeoutMs, 'a positive integer (milliseconds)');
    const toolKeyFault =
      tool.idempotencyHeader === undefined
        ? undefined
        : idempotencyHeaderFault(tool.idempotencyHeader, authHeader);
    if (toolKeyFault !== undefined) add(`${at}.idempotencyHeader`, tool.idempotencyHeader, toolKeyFault);
    try {
      if (options.allowedHosts === undefined) hosts.add(templateOrigin(tool.url).host.toLowerCase());
      else templateOrigin(tool.url);
    } catch (error) {
      add(
        `${at}.url`,
        tool.url,
        error instanceof HttpToolsError ? 'an http(s) URL with a literal host' : 'a URL',
      );
    }
  });
  for (const field of ['timeoutMs', 'maxResponseBytes'] as const) {
    const value = options[field];
    if (value !== undefined && !isPositiveInteger(value)) add(field, value, 'a positive integer');
  }
  if (
    options.maxRedirects !== undefined &&
    !(Number.isInteger(options.maxRedirects) && options.maxRedirects >= 0)
  )
    add('maxRedirects', options.maxRedirects, 'an integer >= 0');
  const keyFault =
    options.idempotencyHeader === undefined
      ? undefined
      : idempotencyHeaderFault(options.idempotencyHeader, authHeader);
  if (keyFault !== undefined) add('idempotencyHeader', options.idempotencyHeader, keyFault);
  if (problems.length > 0) throw ConfigError.of(problems);
  return { hosts };
}
