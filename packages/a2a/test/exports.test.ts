import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time).
test('@agent/a2a exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/a2a')).sort()).toEqual([
    'A2A_TOOL_INPUT_SCHEMA',
    'A2aError',
    'DEFAULT_A2A_CONNECT_TIMEOUT_MS',
    'DEFAULT_A2A_TIMEOUT_MS',
    'createA2aToolProvider',
  ]);
});
