type Node = Record<string, unknown>;

/** OpenAPI keywords with no meaning to JSON Schema validation, left out of tool schemas. */
const DROPPED = new Set([
  'nullable',
  'discriminator',
  'xml',
  'externalDocs',
  'example',
  'examples',
  'readOnly',
  'writeOnly',
  '$id',
  '$schema',
]);
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];
const SCHEMA_ONES = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
];

/** Bounds of one tool schema: a deep or wide (or recursive) document schema is cut, not walked forever. */
const MAX_DEPTH = 24;
const MAX_NODES = 4000;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An OpenAPI 3.0/3.1 schema (already dereferenced) as a plain JSON Schema: `nullable` becomes a
 * `null` type, 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, a reference
 * left by recursion becomes an open schema that says so. Bounded: at most 24 levels and 4000
 * nodes per call (past that, an open schema).
 */
export function toJsonSchema(schema: unknown, budget = { nodes: MAX_NODES }): Node {
  const onPath = new Set<unknown>();
  const walk = (node: unknown, depth: number): Node => {
    if (!isNode(node)) return {};
    if (typeof node.$ref === 'string') return { description: `recursive: see ${node.$ref}` };
    if (onPath.has(node) || depth > MAX_DEPTH || budget.nodes <= 0)
      return { description: 'a nested value (its schema is too deep to show)' };
    budget.nodes--;
    onPath.add(node);
    const out: Node = {};
    for (const [key, value] of Object.entries(node)) {
      if (DROPPED.has(key)) continue;
      if (SCHEMA_LISTS.includes(key) && Array.isArray(value))
        out[key] = value.map((item) => walk(item, depth + 1));
      else if (SCHEMA_MAPS.includes(key) && isNode(value))
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, depth + 1)]));
      else if (SCHEMA_ONES.includes(key) && isNode(value)) out[key] = walk(value, depth + 1);
      else out[key] = value;
    }
    onPath.delete(node);
    if (node.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
    for (const [flag, bound] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (typeof out[flag] !== 'boolean') continue;
      if (out[flag] === true && typeof out[bound] === 'number') {
        out[flag] = out[bound];
        delete out[bound];
      } else delete out[flag];
    }
    return out;
  };
  return walk(schema, 0);
}
