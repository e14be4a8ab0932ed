import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileSchema, setSchemaDefaults } from '../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function schema(n: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 20; i++) properties[`field_${n}_${i}`] = { type: 'string', maxLength: i };
  return { type: 'object', properties };
}

// Nothing kept by content here: what the instances keep is measured alone (the content cache's
// own bound, in bytes, is test/cache-bytes.test.ts).
beforeAll(() => setSchemaDefaults({ compiledCacheBytes: 0 }));
afterAll(() => setSchemaDefaults());

it('a server that compiles schema after schema does not keep them all', async () => {
  // Ajv keeps every schema an instance compiled: one instance for a server's life would hold
  // every schema clients ever sent. Compiled validators are dropped here, so their schemas must go.
  const refs: WeakRef<object>[] = [];
  for (let n = 0; n < 200; n++) {
    const value = schema(n);
    refs.push(new WeakRef(value));
    expect(compileSchema(value).ok).toBe(true);
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  const alive = refs.filter((ref) => ref.deref() !== undefined).length;
  // At most the schemas of the instances still in use (one per draft, 64 compiles each).
  expect(alive).toBeLessThanOrEqual(64);
});
