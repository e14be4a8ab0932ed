import { readFileSync } from 'node:fs';
import { ConfigError } from '@agent/protocol';

/** The page's script and style, bundled at build time next to the server (`dist/viewer/`). */
export interface ViewerAssets {
  script: string;
  style: string;
}

/** Reads the bundled assets once; a missing bundle says how to make it. */
export function loadViewerAssets(dir = new URL('./viewer/', import.meta.url)): ViewerAssets {
  try {
    return {
      script: readFileSync(new URL('app.js', dir), 'utf8'),
      style: readFileSync(new URL('app.css', dir), 'utf8'),
    };
  } catch {
    throw new ConfigError({
      field: '--viewer',
      value: undefined,
      allowed: 'a build of @agent/server with its viewer bundle',
      message: `--viewer: the page's bundle is missing from ${dir.pathname}: build @agent/server (pnpm build)`,
    });
  }
}

/** The one HTML page: a shell the bundled script fills; nothing inline (see `SECURITY_HEADERS`). */
export const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agent-server sessions</title>
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/app.js" defer></script>
</head>
<body><main id="app">Loading…</main></body>
</html>
`;

/** The page asked without a token: how to give one. */
export const LOGIN_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>agent-server sessions: token needed</title></head>
<body>
<h1>Token needed</h1>
<p>Open this page once as <code>/?token=&lt;one of the server's tokens&gt;</code>: the server keeps it in an HttpOnly cookie for 12 hours and takes it out of the address.</p>
</body>
</html>
`;

/** Every answer: a strict Content-Security-Policy (own script and style only, no inline). */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};
