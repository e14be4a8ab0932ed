import type { Context, MiddlewareHandler } from 'hono';

/** Hostnames a loopback server answers to. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

function hostnameOf(value: string, withScheme: boolean): string | undefined {
  try {
    return new URL(withScheme ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * DNS rebinding protection: why a request's `Host` (and `Origin`, when sent) does not name an
 * allowed hostname, or undefined when it does. A page on a name the attacker points at
 * 127.0.0.1 sends that name in both, so a face answering only its own names is out of its reach.
 */
export function hostProblem(
  host: string | undefined,
  origin: string | undefined,
  allowedHostnames: readonly string[],
): string | undefined {
  const hostname = host === undefined ? undefined : hostnameOf(host, false);
  if (hostname === undefined || !allowedHostnames.includes(hostname)) {
    return `invalid Host header: ${host ?? '(missing)'}`;
  }
  if (origin === undefined) return undefined;
  const originHost = hostnameOf(origin, true);
  if (originHost === undefined || !allowedHostnames.includes(originHost)) {
    return `invalid Origin header: ${origin}`;
  }
  return undefined;
}

/** `hostProblem` on every request; `refuse` answers 403 in the face's own error shape. */
export function hostCheck(
  allowedHostnames: readonly string[],
  refuse: (c: Context, message: string) => Response,
): MiddlewareHandler {
  return async (c, next) => {
    const problem = hostProblem(c.req.header('host'), c.req.header('origin'), allowedHostnames);
    return problem === undefined ? next() : refuse(c, problem);
  };
}
