export type { ErrorObject, ValidateFunction } from 'ajv';
export {
  type AjvFactoryOptions,
  type AnyAjv,
  createAjv,
  type SchemaDraft,
  SUPPORTED_DRAFTS,
  schemaDraft,
} from './ajv-factory.js';
export {
  type CompiledValidator,
  type CompileResult,
  checkSchema,
  compileSchema,
  type SchemaCheck,
  schemaShapeProblems,
} from './compile.js';
export {
  compileJmesPath,
  isJmesPathTruthy,
  type JmesPathExpression,
  MAX_JMESPATH_LENGTH,
} from './jmespath.js';
export { pointerSegments } from './json-pointer.js';
export { type JsonShape, type MeasureOptions, measureJson } from './json-shape.js';
export {
  DEFAULT_COMPILE_QUEUE_LENGTH,
  DEFAULT_COMPILE_TIMEOUT_MS,
  DEFAULT_COMPILED_CACHE_BYTES,
  DEFAULT_MAX_PATTERN_COST,
  DEFAULT_MAX_SCHEMA_BYTES,
  DEFAULT_MAX_SCHEMA_DEPTH,
  DEFAULT_MAX_SCHEMA_PATTERNS,
  DEFAULT_MAX_TOTAL_PATTERN_COST,
  type PatternLimits,
  type SchemaDefaults,
  type SchemaLimits,
  schemaDefaults,
  setSchemaDefaults,
} from './limits.js';
export {
  checkSchemaOffThread,
  compileSchemaOffThread,
  precompileSchema,
} from './off-thread/compile-off-thread.js';
export { patternCost } from './pattern-cost.js';
export { compilePattern, patternProblem, re2RegExp, SchemaPatternError } from './re2-engine.js';
export {
  compileSearchPattern,
  type SearchPattern,
  type SearchPatternOptions,
} from './search-pattern.js';
export { STANDALONE_RUNTIME, standaloneValidators } from './standalone.js';
export {
  createToolFilter,
  type ToolNameFilter,
  type ToolNameMatcher,
  toolNameMatcher,
} from './tool-globs.js';
