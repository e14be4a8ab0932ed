import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/schema exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/schema')).sort()).toEqual([
    'DEFAULT_MAX_SCHEMA_BYTES',
    'DEFAULT_MAX_SCHEMA_DEPTH',
    'SUPPORTED_DRAFTS',
    'SchemaPatternError',
    'checkSchema',
    'compilePattern',
    'compileSchema',
    'createAjv',
    'createToolFilter',
    'measureJson',
    'patternProblem',
    'pointerSegments',
    're2RegExp',
    'schemaDraft',
    'schemaShapeProblems',
    'toolNameMatcher',
  ]);
});
