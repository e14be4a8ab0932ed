import type { MiddlewareHandler } from 'hono';

/** Hostnames a loopback server answers to. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

function hostnameOf(value: string, withScheme: boolean): string | undefined {
  try {
    return new URL(withScheme ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/** DNS rebinding protection: the Host (and Origin, when sent) must name an allowed hostname. */
export function hostCheck(allowedHostnames: readonly string[]): MiddlewareHandler {
  const refuse = (message: string) =>
    new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
      status: 403,
      headers: { 'content-type': 'application/json' },
    });
  return async (c, next) => {
    const host = c.req.header('host');
    const hostname = host === undefined ? undefined : hostnameOf(host, false);
    if (hostname === undefined || !allowedHostnames.includes(hostname)) {
      return refuse(`invalid Host header: ${host ?? '(missing)'}`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      const originHost = hostnameOf(origin, true);
      if (originHost === undefined || !allowedHostnames.includes(originHost)) {
        return refuse(`invalid Origin header: ${origin}`);
      }
    }
    return next();
  };
}
