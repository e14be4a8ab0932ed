import { errorMessage } from '@agent/protocol/util';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { type AnyAjv, createAjv, type SchemaDraft, SUPPORTED_DRAFTS, schemaDraft } from './ajv-factory.js';
import { CompiledCache, type CompiledSize, compiledBytes } from './compiled-cache.js';
import { measureJson } from './json-shape.js';
import { onSchemaDefaultsChange, resolvedLimits, type SchemaLimits } from './limits.js';
import { metaSchemaProblems } from './meta-errors.js';
import { patternBudgetProblem } from './pattern-budget.js';
import { SchemaPatternError } from './re2-engine.js';

/** Errors of one validation; empty when the value matches. */
export type CompiledValidator = (value: unknown) => readonly ErrorObject[];

export type CompileResult =
  | { ok: true; validate: CompiledValidator; draft: SchemaDraft }
  | { ok: false; error: string; problems: readonly string[] };

/** Longest JSON Pointer quoted in a message (a 20,000-level path would drown the reason). */
const MAX_PATH_SHOWN = 80;

/**
 * Compiles per Ajv instance. Ajv keeps a reference to every schema an instance compiled (in
 * its code-generation scope, RE2 programs included), so one instance for the life of a server
 * would keep every schema it was ever sent. A fresh instance costs ~60 ms (the meta-schemas
 * compile), so each draft's instance is replaced after this many compiles, or once what it
 * compiled is estimated at `BYTES_PER_INSTANCE`; an old one goes away with the last validator
 * compiled by it.
 */
const COMPILES_PER_INSTANCE = 64;
const BYTES_PER_INSTANCE = 8 * 1024 * 1024;

const shared = new Map<string, { ajv: AnyAjv; compiles: number; bytes: number }>();
/** The draft's instance in use (`standalone`: one that keeps the code for `compileSchemaOffThread`). */
function sharedAjv(draft: SchemaDraft, size: CompiledSize, standalone: boolean): AnyAjv {
  const key = standalone ? `${draft} script` : draft;
  let entry = shared.get(key);
  if (entry === undefined || entry.compiles >= COMPILES_PER_INSTANCE || entry.bytes >= BYTES_PER_INSTANCE) {
    // No inlining of `$ref`s: inlined, 100 refs to a 100-property definition compile 10,000
    // properties' code (4 s); as calls, the definition compiles once.
    const options = { inlineRefs: false, ...(standalone ? { standalone: 'script' as const } : {}) };
    entry = { ajv: createAjv(draft, options), compiles: 0, bytes: 0 };
    shared.set(key, entry);
  }
  entry.compiles++;
  entry.bytes += compiledBytes(size);
  return entry.ajv;
}

/** Results for schemas checked with the default limits, keyed by the schema object. */
let cache = new WeakMap<object, CompileResult>();

/**
 * The same results keyed by content, bounded in (estimated) bytes: a server is sent the same
 * `response_format` with every request, each time as a new object.
 */
const byContent = new CompiledCache<CompileResult>();
onSchemaDefaultsChange(() => {
  cache = new WeakMap();
  byContent.clear();
});

export function failure(problems: readonly string[]): CompileResult {
  return { ok: false, error: `not a usable JSON Schema: ${problems.join('; ')}`, problems };
}

function shownPath(path: string): string {
  if (path === '') return '/';
  return path.length <= MAX_PATH_SHOWN ? path : `${path.slice(0, MAX_PATH_SHOWN)}…`;
}

/**
 * The cheap checks, in the order that keeps every later step safe: a JSON object (or
 * boolean schema) of plain JSON data without cycles, no deeper than `maxDepth` (walked
 * without recursion, so 20,000 levels cost nothing but a short walk), no larger than
 * `maxBytes`, patterns within their count and cost limits (estimated from their text, so
 * nothing is compiled), and a `$schema` this project supports. Returns the problems, empty when fine.
 */
export function schemaShapeProblems(schema: unknown, limits: SchemaLimits = {}): string[] {
  return measuredShape(schema, limits).problems;
}

/**
 * The first problem of the schema as JSON data (nesting past `maxDepth`, size past `maxBytes`,
 * values JSON cannot hold), found in one walk without recursion: after it, the schema is safe to
 * serialise.
 */
export function jsonShapeProblem(
  schema: object,
  limits: { maxDepth: number; maxBytes?: number },
): { problem: string } | { problem?: undefined; bytes: number } {
  const shape = measureJson(schema, limits);
  if (shape.ok) return { bytes: shape.bytes };
  return {
    problem: shape.path === '' ? `the schema ${shape.problem}` : `${shownPath(shape.path)}: ${shape.problem}`,
  };
}

/** `schemaShapeProblems` with what it measured: JSON bytes and the patterns' estimated cost (RE2 instructions). */
export function measuredShape(schema: unknown, limits: SchemaLimits): CompiledSize & { problems: string[] } {
  const measured = (problems: string[], schemaBytes = 0, patternCost = 0) => ({
    problems,
    schemaBytes,
    patternCost,
  });
  if (typeof schema === 'boolean') return measured([]);
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return measured([
      `must be a JSON Schema object, got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}`,
    ]);
  }
  const resolved = resolvedLimits(limits);
  const shape = jsonShapeProblem(schema, resolved);
  if (shape.problem !== undefined) return measured([shape.problem]);
  const patterns = patternBudgetProblem(schema, resolved);
  if (patterns.problem !== undefined) return measured([patterns.problem]);
  if (schemaDraft(schema) === undefined) {
    return measured([
      `$schema ${JSON.stringify((schema as { $schema?: unknown }).$schema)} is not supported: use ${SUPPORTED_DRAFTS.join(', ')} (by its meta-schema URI), or leave $schema out for draft-07`,
    ]);
  }
  return measured([], shape.bytes, patterns.cost);
}

/**
 * Checks and compiles a schema from outside (a request, an agent file, a model's
 * `output_schema`): the shape checks above, then the draft's meta-schema (every wrong place
 * listed), then Ajv's compile with RE2 patterns (a pattern RE2 cannot run, such as one with a
 * backreference, is a problem that says so). Never throws. With the default limits the
 * result is cached per schema object (a WeakMap), and neither Ajv's cache nor its instances
 * outlive the validators compiled from them, so a long-running server does not keep every
 * schema it was ever sent.
 */
export function compileSchema(schema: unknown, limits?: SchemaLimits): CompileResult {
  const cacheable = limits === undefined && typeof schema === 'object' && schema !== null;
  if (cacheable) {
    const cached = cache.get(schema);
    if (cached !== undefined) return cached;
  }
  const result = cacheable ? compileByContent(schema) : compileUncached(schema, limits);
  if (cacheable) cache.set(schema, result);
  return result;
}

function compileByContent(schema: object): CompileResult {
  // The shape check first: it bounds the size and depth that the serialisation below walks.
  const shape = measuredShape(schema, {});
  if (shape.problems.length > 0) return failure(shape.problems);
  const text = JSON.stringify(schema);
  const hit = byContent.get(text);
  if (hit !== undefined) return hit;
  const result = compileChecked(schema, shape);
  byContent.set(text, result, shape);
  return result;
}

/** The result kept for this schema object, when it was checked with the default limits. */
export function cachedByObject(schema: object): CompileResult | undefined {
  return cache.get(schema);
}

/** The result kept for a schema of this compact JSON, when one was checked with the default limits. */
export function cachedByContent(text: string): CompileResult | undefined {
  return byContent.get(text);
}

/** Keeps a result compiled elsewhere (off the event loop) where `compileSchema` looks first. */
export function rememberResult(
  schema: object,
  text: string,
  result: CompileResult,
  size: CompiledSize,
): void {
  byContent.set(text, result, size);
  cache.set(schema, result);
}

function compileUncached(schema: unknown, limits: SchemaLimits | undefined): CompileResult {
  const shape = measuredShape(schema, limits ?? {});
  if (shape.problems.length > 0) return failure(shape.problems);
  return compileChecked(schema, shape);
}

/** The meta-schema check and Ajv's compile, for a schema that passed the shape checks. */
function compileChecked(schema: unknown, size: CompiledSize): CompileResult {
  return compileWith(schema, size, false, (fn, _ajv, draft) => ({ ok: true, validate: guarded(fn), draft }));
}

/**
 * The meta-schema check and Ajv's compile (on the instance for `standalone` code or not),
 * then `done` while the instance still holds the schema; a problem is a failure. Never throws.
 */
export function compileWith<T>(
  schema: unknown,
  size: CompiledSize,
  standalone: boolean,
  done: (fn: ValidateFunction, ajv: AnyAjv, draft: SchemaDraft) => T,
): T | CompileResult {
  const draft = schemaDraft(schema) ?? 'draft-07';
  const ajv = sharedAjv(draft, size, standalone);
  try {
    if (!(ajv.validateSchema(schema as object) as boolean)) {
      return failure(metaSchemaProblems(ajv.errors ?? [], schema));
    }
    return done(ajv.compile(schema as object), ajv, draft);
  } catch (error) {
    if (error instanceof SchemaPatternError) return failure([error.message]);
    const detail = errorMessage(error);
    return failure([detail]);
  } finally {
    if (typeof schema === 'object' && schema !== null) ajv.removeSchema(schema as object);
  }
}

/**
 * A value nested deeper than the stack allows (possible with a recursive schema) makes Ajv's
 * generated code overflow: that becomes a validation error, not a thrown RangeError.
 */
export function guarded(fn: ValidateFunction): CompiledValidator {
  return (value) => {
    try {
      return fn(value) ? [] : [...(fn.errors ?? [])];
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return [
        {
          instancePath: '',
          schemaPath: '#',
          keyword: 'depth',
          params: {},
          message: 'is nested too deeply to validate',
        },
      ];
    }
  };
}

/** The outcome of `checkSchema`: fine, or every problem found and one sentence saying them. */
export type SchemaCheck =
  | { ok: true; draft: SchemaDraft }
  | { ok: false; problems: readonly string[]; message: string };

/**
 * `compileSchema` as a yes/no with a message that starts with `label` (default `the schema`):
 * `output_schema is not a usable JSON Schema: /type: must be one of ...`.
 */
export function checkSchema(schema: unknown, options: SchemaLimits & { label?: string } = {}): SchemaCheck {
  const { label, limits } = checkOptions(options);
  return schemaCheck(compileSchema(schema, limits), label);
}

/** `checkSchema`'s options split: the label, and the limits (undefined when none is given: the cached defaults). */
export function checkOptions(options: SchemaLimits & { label?: string }): {
  label: string | undefined;
  limits: SchemaLimits | undefined;
} {
  const { label, ...limits } = options;
  const given = Object.values(limits).some((value) => value !== undefined);
  return { label, limits: given ? limits : undefined };
}

/** A compile result as `checkSchema` answers it. */
export function schemaCheck(result: CompileResult, label: string | undefined): SchemaCheck {
  if (result.ok) return { ok: true, draft: result.draft };
  return { ok: false, problems: result.problems, message: `${label ?? 'the schema'} is ${result.error}` };
}
