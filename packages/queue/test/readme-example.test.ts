import { expect, it } from 'vitest';
import { checkReadme } from '../../../tooling/vitest/readme-example.js';

// The example needs a running Redis and an agent, so it is type-checked here; the behaviour it
// shows is what run-queue.test.ts and apps/server's server-queue.test.ts exercise for real.
it('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(new URL('../README.md', import.meta.url))).toEqual([]);
}, 120_000);
