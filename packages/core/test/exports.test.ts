import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/core exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/core')).sort()).toEqual([
    'createAgentSession',
    'defineAgent',
    'run',
    'runAgent',
    'tool',
  ]);
});
