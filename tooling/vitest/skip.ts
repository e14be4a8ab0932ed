// The one way a test skips: with its reason on record. The reason goes into the test's `meta`,
// which vitest's JSON reporter writes to test-results/vitest.json (a suite's meta reaches each
// of its tests), and `pnpm test`'s summary lists every skipped test with it
// (tooling/test-setup/src/summary.mjs). A skip without a reason is listed as one.
//
//   describe('on a terminal', requires('tmux'), () => { ... });
//   test('reads /proc', skipUnless(process.platform === 'linux', 'Linux only: /proc'), () => { ... });
import type { TestOptions } from 'vitest';
import { missingReason } from '../test-setup/src/requirements.mjs';

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test skipped; set by skipUnless and requires. */
    skipReason?: string;
  }
}

/** Options for `describe` or `test`: skip, saying why, unless `condition` holds. */
export function skipUnless(condition: boolean, reason: string): TestOptions {
  return condition ? {} : { skip: true, meta: { skipReason: reason } };
}

/**
 * Options for `describe` or `test`: skip unless this machine has what the tests need from
 * outside the repository (the ids of tooling/test-setup/src/requirements.mjs: `tmux`,
 * `chromium`, `conformance`, ...); the reason names what is missing and how to install it.
 */
export function requires(...ids: string[]): TestOptions {
  const reasons = ids.flatMap((id) => missingReason(id) ?? []);
  return reasons.length === 0 ? {} : { skip: true, meta: { skipReason: reasons.join('; ') } };
}
