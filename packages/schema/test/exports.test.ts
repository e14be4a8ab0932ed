import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/schema exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/schema')).sort()).toEqual([
    'DEFAULT_COMPILED_CACHE_BYTES',
    'DEFAULT_COMPILE_QUEUE_LENGTH',
    'DEFAULT_COMPILE_TIMEOUT_MS',
    'DEFAULT_MAX_PATTERN_COST',
    'DEFAULT_MAX_SCHEMA_BYTES',
    'DEFAULT_MAX_SCHEMA_DEPTH',
    'DEFAULT_MAX_SCHEMA_PATTERNS',
    'DEFAULT_MAX_TOTAL_PATTERN_COST',
    'MAX_JMESPATH_LENGTH',
    'STANDALONE_RUNTIME',
    'SUPPORTED_DRAFTS',
    'SchemaPatternError',
    'checkSchema',
    'checkSchemaOffThread',
    'compileJmesPath',
    'compilePattern',
    'compileSchema',
    'compileSchemaOffThread',
    'compileSearchPattern',
    'createAjv',
    'createToolFilter',
    'isJmesPathTruthy',
    'measureJson',
    'patternCost',
    'patternProblem',
    'pointerSegments',
    'precompileSchema',
    're2RegExp',
    'schemaDefaults',
    'schemaDraft',
    'schemaShapeProblems',
    'setSchemaDefaults',
    'standaloneValidators',
    'toolNameMatcher',
  ]);
});

test('@agent/schema/standalone exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/schema/standalone')).sort()).toEqual([
    'equal',
    're2RegExp',
    'ucs2length',
  ]);
});
