import {
  type CompileResult,
  cachedByContent,
  cachedByObject,
  checkOptions,
  compileSchema,
  failure,
  guarded,
  jsonShapeProblem,
  rememberResult,
  type SchemaCheck,
  schemaCheck,
} from '../compile.js';
import { measureJson } from '../json-shape.js';
import { resolvedLimits, type SchemaLimits } from '../limits.js';
import { loadValidator } from './load-validator.js';
import { generateOffThread } from './schema-worker-pool.js';

/**
 * `compileSchema` for a schema from outside, with Ajv's code generation (seconds for a 64 KB
 * schema) in a worker thread, so the event loop only walks the schema once (depth and size) and turns the
 * generated code into the validator. The result goes where `compileSchema` looks first (with
 * the default limits), so a later `compileSchema` of the same schema, by object or by content,
 * does not compile it again. Never rejects for a schema: a schema that takes longer than
 * `compileTimeoutMs`, or finds `compileQueueLength` schemas waiting, is a failure that says so.
 * Rejects only when the built worker script is missing (run `pnpm build`).
 */
export async function compileSchemaOffThread(schema: unknown, limits?: SchemaLimits): Promise<CompileResult> {
  // A boolean (or a non-schema) compiles to nothing: no thread needed.
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return compileSchema(schema, limits);
  const cacheable = limits === undefined;
  const cached = cacheable ? cachedByObject(schema) : undefined;
  if (cached !== undefined) return cached;
  // Only the walk that makes the schema safe to serialise runs here (depth and size, no
  // recursion); the pattern budget, the meta-schema and Ajv run in the worker.
  const shape = jsonShapeProblem(schema, resolvedLimits(limits));
  if (shape.problem !== undefined) return failure([shape.problem]);
  const text = JSON.stringify(schema);
  const hit = cacheable ? cachedByContent(text) : undefined;
  if (hit !== undefined) return hit;
  const generated = await generateOffThread(text, resolvedLimits(limits));
  if (!generated.ok) return failure(generated.problems);
  const result: CompileResult = {
    ok: true,
    validate: guarded(loadValidator(generated.code, generated.codeCache).validate),
    draft: generated.draft,
  };
  if (cacheable) rememberResult(schema, text, result, generated.size);
  return result;
}

/** `checkSchema` with the compile in the worker thread (`compileSchemaOffThread`). */
export async function checkSchemaOffThread(
  schema: unknown,
  options: SchemaLimits & { label?: string } = {},
): Promise<SchemaCheck> {
  const { label, limits } = checkOptions(options);
  return schemaCheck(await compileSchemaOffThread(schema, limits), label);
}

/**
 * A schema from outside (a request's, a model's `output_schema`), compiled in the worker thread
 * and cached for the session that will use it, unless it is over the size limit: then nothing
 * is compiled and the result is undefined, since the session's own check refuses it by its size
 * (and first says whether it fits the model's context window with the prompt, the more useful
 * answer) without compiling. Only one walk of the schema (depth and size) runs on the event loop.
 */
export async function precompileSchema(schema: unknown): Promise<CompileResult | undefined> {
  const { maxDepth, maxBytes } = resolvedLimits({});
  const size = measureJson(schema, { maxDepth });
  if (size.ok && size.bytes > maxBytes) return undefined;
  return compileSchemaOffThread(schema);
}
