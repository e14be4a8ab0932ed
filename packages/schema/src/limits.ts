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

export interface SchemaLimits {
  /** Default `DEFAULT_MAX_SCHEMA_DEPTH`. */
  maxDepth?: number;
  /** Default `DEFAULT_MAX_SCHEMA_BYTES`. */
  maxBytes?: number;
}

export function resolvedLimits(limits: SchemaLimits = {}): Required<SchemaLimits> {
  return {
    maxDepth: limits.maxDepth ?? DEFAULT_MAX_SCHEMA_DEPTH,
    maxBytes: limits.maxBytes ?? DEFAULT_MAX_SCHEMA_BYTES,
  };
}
