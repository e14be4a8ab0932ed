import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileSchema, setSchemaDefaults } from '../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MiB = 1024 * 1024;
beforeAll(() => setSchemaDefaults({ compiledCacheBytes: 4 * MiB }));
afterAll(() => setSchemaDefaults());

/** Two patterns of almost 4,000 RE2 instructions each: about 1 MB of programs once compiled. */
function patternHeavy(n: number): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      a: { type: 'string', pattern: `^(?:abc){1,${990 - n}}$` },
      b: { type: 'string', pattern: `^(?:xyz){1,${990 - n}}$` },
    },
  };
}

it('the compiled-schema cache is bounded in bytes: 30 pattern-heavy schemas leave a quarter of what they would if kept by count', () => {
  gc();
  const before = process.memoryUsage().heapUsed;
  let last: ReturnType<typeof compileSchema> | undefined;
  for (let n = 0; n < 30; n++) {
    last = compileSchema(patternHeavy(n));
    expect(last.ok).toBe(true);
  }
  gc();
  const kept = process.memoryUsage().heapUsed - before;
  // Kept by count (the last 64 schemas), all 30 stay: 30 MB measured. Kept by estimated bytes
  // (4 MiB here), what stays is that, the Ajv instance in use and recent RE2 programs: 7.5 MB.
  expect(kept / MiB).toBeLessThan(16);
  // The latest schema is still reused: the same compiled result, not a second compile.
  expect(compileSchema(patternHeavy(29))).toBe(last);
});
