import { checkSchema, measureJson, schemaDefaults, schemaShapeProblems } from '@agent/schema';

/**
 * Why a request's output schema must be refused with a 400 before it is admitted (`label`
 * names the field the client sent), or undefined. Everything `@agent/schema` checks, in its
 * order (nesting walked without recursion first, then the patterns' count and estimated cost,
 * so a schema too costly to compile is refused before anything is compiled), except one thing: a schema over the size
 * limit is left to the run, whose session checks before any model call whether it fits the
 * model's context window with the prompt (the more useful answer) and then the size; such a
 * refusal comes back as `inputRejected` and is a 400 too.
 */
export function requestSchemaProblem(schema: unknown, label: string): string | undefined {
  const shape = schemaShapeProblems(schema, { maxBytes: Number.POSITIVE_INFINITY });
  if (shape.length > 0) return `${label} is not a usable JSON Schema: ${shape.join('; ')}`;
  const size = measureJson(schema, { maxDepth: Number.POSITIVE_INFINITY });
  if (size.ok && size.bytes > schemaDefaults().maxBytes) return undefined;
  const check = checkSchema(schema, { label });
  return check.ok ? undefined : check.message;
}
