import { createRequire } from 'node:module';
import type { AnyAjv, SchemaDraft } from '../ajv-factory.js';
import { compileWith, measuredShape } from '../compile.js';
import type { CompiledSize } from '../compiled-cache.js';
import type { SchemaLimits } from '../limits.js';

const require = createRequire(import.meta.url);

/** What the worker sends back for one schema: Ajv's standalone code, or the problems. */
export type GeneratedCode =
  | { ok: true; code: string; codeCache?: Uint8Array; draft: SchemaDraft; size: CompiledSize }
  | { ok: false; problems: readonly string[] };

type StandaloneCode = (ajv: AnyAjv, validate: unknown) => string;

/**
 * Checks a schema (given as its JSON) as `compileSchema` does and compiles it with Ajv, keeping
 * the generated code: a script (`module.exports = validate…`) that `loadValidator` turns into
 * the validator. Runs in the worker thread: this is the part that takes seconds for a large schema.
 */
export function generatedCode(text: string, limits: SchemaLimits): GeneratedCode {
  const schema: unknown = JSON.parse(text);
  const shape = measuredShape(schema, limits);
  if (shape.problems.length > 0) return { ok: false, problems: shape.problems };
  const size = { schemaBytes: shape.schemaBytes, patternCost: shape.patternCost };
  const standaloneCode = require('ajv/dist/standalone').default as StandaloneCode;
  const result = compileWith(schema, size, true, (fn, ajv, draft) => ({
    ok: true as const,
    code: standaloneCode(ajv, fn),
    draft,
    size,
  }));
  return result.ok ? (result as GeneratedCode) : { ok: false, problems: result.problems };
}
