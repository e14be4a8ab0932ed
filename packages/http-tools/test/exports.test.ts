import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time).
test('@agent/http-tools exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/http-tools')).sort()).toEqual([
    'DEFAULT_IDEMPOTENCY_HEADER',
    'DEFAULT_MAX_RESPONSE_BYTES',
    'DEFAULT_TIMEOUT_MS',
    'HTTP_METHODS',
    'HttpToolProvider',
    'HttpToolsError',
    'RESPONSE_MODES',
    'createHttpToolProvider',
    'isHttpHeaderName',
    'loadOpenApiTools',
  ]);
});
