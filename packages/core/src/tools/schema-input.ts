import { ConfigError, type JsonSchema } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

// Schemas from users: a JSON Schema object, or a schema of any library that implements
// Standard Schema (validation) and Standard JSON Schema (conversion). The library converts its
// own schema; the core imports none of them.

type Standard = { '~standard': Record<string, unknown> };

function isStandard(value: unknown): value is Standard {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return typeof props === 'object' && props !== null;
}

/** True for a Standard Schema (zod 4, valibot, arktype, ...): it can validate. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return isStandard(value) && typeof value['~standard'].validate === 'function';
}

/** The vendor a Standard Schema names (`zod`, `valibot`, ...), for messages. */
function vendorOf(value: Standard): string {
  const vendor = value['~standard'].vendor;
  return typeof vendor === 'string' ? vendor : 'an unknown library';
}

/** Drafts asked for, in order: what the project validates best first. */
const TARGETS = ['draft-2020-12', 'draft-07'] as const;

const ALLOWED =
  'a JSON Schema object, or a Standard Schema that implements Standard JSON Schema (zod >= 4.2, arktype >= 2.1.28, valibot with toStandardJsonSchema of @valibot/to-json-schema)';

/**
 * The JSON Schema to send to the model for `schema`: a plain JSON Schema object as is, or the
 * one a Standard JSON Schema produces (`~standard.jsonSchema.input`). Throws a `ConfigError`
 * for `field` saying what was given and what is allowed.
 */
export function jsonSchemaOf(schema: unknown, field: string, source?: string): JsonSchema {
  const at = source === undefined ? {} : { source };
  if (!isStandard(schema)) {
    if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) return schema as JsonSchema;
    throw new ConfigError({ field, value: schema, allowed: ALLOWED, ...at });
  }
  const converter = (schema as unknown as Partial<StandardJSONSchemaV1>)['~standard']?.jsonSchema;
  if (typeof converter?.input !== 'function') {
    throw new ConfigError({
      field,
      allowed: ALLOWED,
      message: `${field} is a ${vendorOf(schema)} schema that cannot give a JSON Schema for the model (no ~standard.jsonSchema): use ${ALLOWED.slice(ALLOWED.indexOf('a Standard'))}, or pass a JSON Schema object`,
      ...at,
    });
  }
  let lastError: unknown;
  for (const target of TARGETS) {
    try {
      return converter.input({ target });
    } catch (error) {
      lastError = error;
    }
  }
  throw new ConfigError({
    field,
    allowed: ALLOWED,
    message: `${field}: the ${vendorOf(schema)} schema could not be converted to JSON Schema (${errorMessage(lastError)})`,
    cause: lastError,
    ...at,
  });
}

/** Standard Schema issues as lines the model can act on: `path: message`. */
export function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string[] {
  return issues.slice(0, 10).map((issue) => {
    const path = (issue.path ?? [])
      .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
      .join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
}
