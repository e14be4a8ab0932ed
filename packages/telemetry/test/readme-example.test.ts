import { expect, it } from 'vitest';
import { checkReadme } from '../../../tooling/vitest/readme-example.js';

// The example needs a model client, so it is type-checked here; what it shows is exercised for
// real by session-trace.test.ts (a core session) and @agent/runtime's span-tree.test.ts.
it('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(new URL('../README.md', import.meta.url))).toEqual([]);
}, 120_000);
