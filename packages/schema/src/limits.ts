/**
 * How deep a schema may nest, counted in JSON levels (the root object is level 1; every
 * object or array inside adds one). Ajv compiles and checks schemas recursively, so the
 * depth is checked first, without recursion, before Ajv sees the schema.
 */
export const DEFAULT_MAX_SCHEMA_DEPTH = 64;

/**
 * How large a schema may be, in bytes of compact JSON. Ajv's compile time grows with the
 * schema (and it runs on the caller's thread), so big schemas are refused up front.
 */
export const DEFAULT_MAX_SCHEMA_BYTES = 64 * 1024;

/** How many `pattern` values and `patternProperties` keys one schema may hold. */
export const DEFAULT_MAX_SCHEMA_PATTERNS = 256;

/**
 * The most RE2 instructions one pattern may compile to (estimated by `patternCost` before
 * compiling): `^[a-z]{1,1000}$` (~2,000) fits, `^(a|aa){1,1000}$` (~7,000) does not.
 */
export const DEFAULT_MAX_PATTERN_COST = 4_000;

/**
 * The most RE2 instructions all of one schema's distinct patterns may compile to: about
 * 50 ms of compiling on an idle core, the most a schema from outside may hold the event loop for.
 */
export const DEFAULT_MAX_TOTAL_PATTERN_COST = 10_000;

/**
 * How long the worker thread may compile one schema (`compileSchemaOffThread`) before the
 * schema is refused and the worker restarted. A 64 KB schema takes 0.5 to 2 s.
 */
export const DEFAULT_COMPILE_TIMEOUT_MS = 10_000;

/** How many schemas may wait for the worker thread; more are refused at once. */
export const DEFAULT_COMPILE_QUEUE_LENGTH = 64;

/** How many bytes (estimated) the compiled schemas kept for reuse may take in all. */
export const DEFAULT_COMPILED_CACHE_BYTES = 32 * 1024 * 1024;

export interface PatternLimits {
  /** Default `DEFAULT_MAX_SCHEMA_PATTERNS`. */
  maxPatterns?: number;
  /** Default `DEFAULT_MAX_PATTERN_COST`. */
  maxPatternCost?: number;
  /** Default `DEFAULT_MAX_TOTAL_PATTERN_COST`. */
  maxTotalPatternCost?: number;
}

export interface SchemaLimits extends PatternLimits {
  /** Default `DEFAULT_MAX_SCHEMA_DEPTH`. */
  maxDepth?: number;
  /** Default `DEFAULT_MAX_SCHEMA_BYTES`. */
  maxBytes?: number;
}

/** The process-wide defaults: every limit, the compiled-schema cache's size in bytes, the worker thread's limits. */
export interface SchemaDefaults extends SchemaLimits {
  /** Default `DEFAULT_COMPILED_CACHE_BYTES`; 0 keeps nothing by content. */
  compiledCacheBytes?: number;
  /** Default `DEFAULT_COMPILE_TIMEOUT_MS`. */
  compileTimeoutMs?: number;
  /** Default `DEFAULT_COMPILE_QUEUE_LENGTH`. */
  compileQueueLength?: number;
}

const BUILT_IN: Required<SchemaDefaults> = {
  maxDepth: DEFAULT_MAX_SCHEMA_DEPTH,
  maxBytes: DEFAULT_MAX_SCHEMA_BYTES,
  maxPatterns: DEFAULT_MAX_SCHEMA_PATTERNS,
  maxPatternCost: DEFAULT_MAX_PATTERN_COST,
  maxTotalPatternCost: DEFAULT_MAX_TOTAL_PATTERN_COST,
  compiledCacheBytes: DEFAULT_COMPILED_CACHE_BYTES,
  compileTimeoutMs: DEFAULT_COMPILE_TIMEOUT_MS,
  compileQueueLength: DEFAULT_COMPILE_QUEUE_LENGTH,
};

let defaults: Required<SchemaDefaults> = { ...BUILT_IN };
const listeners = new Set<() => void>();

/**
 * Changes the limits every schema is checked against when the caller gives none (a server's
 * requests, agent files, sub-agents), and the compiled-schema cache's size. Fields left out go
 * back to the built-in defaults. The caches are emptied: what they hold was checked against the
 * old limits. Throws on a value that is not a positive integer (0 allowed for the cache).
 */
export function setSchemaDefaults(changes: SchemaDefaults = {}): void {
  const next = { ...BUILT_IN };
  for (const [key, value] of Object.entries(changes) as [keyof SchemaDefaults, number | undefined][]) {
    if (value === undefined) continue;
    const least = key === 'compiledCacheBytes' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < least) {
      throw new RangeError(
        `schema default ${key} must be an integer of at least ${least}, got ${String(value)}`,
      );
    }
    next[key] = value;
  }
  defaults = next;
  for (const listener of listeners) listener();
}

/** The defaults in force (built in, or as `setSchemaDefaults` left them). */
export function schemaDefaults(): Readonly<Required<SchemaDefaults>> {
  return defaults;
}

/** Called after every `setSchemaDefaults` (the caches empty themselves). */
export function onSchemaDefaultsChange(listener: () => void): void {
  listeners.add(listener);
}

export function resolvedLimits(limits: SchemaLimits = {}): Required<SchemaLimits> {
  return {
    maxDepth: limits.maxDepth ?? defaults.maxDepth,
    maxBytes: limits.maxBytes ?? defaults.maxBytes,
    maxPatterns: limits.maxPatterns ?? defaults.maxPatterns,
    maxPatternCost: limits.maxPatternCost ?? defaults.maxPatternCost,
    maxTotalPatternCost: limits.maxTotalPatternCost ?? defaults.maxTotalPatternCost,
  };
}
