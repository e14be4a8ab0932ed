import { checkSchemaOffThread, measureJson, schemaDefaults, schemaShapeProblems } from '@agent/schema';

/**
 * Why a request's output schema must be refused with a 400 before it is admitted (`label`
 * names the field the client sent), or undefined. Everything `@agent/schema` checks, in its
 * order (nesting walked without recursion first, then the patterns' count and estimated cost,
 * so a schema too costly to compile is refused before anything is compiled), except one thing: a schema over the size
 * limit is left to the run, whose session checks before any model call whether it fits the
 * model's context window with the prompt (the more useful answer) and then the size; such a
 * refusal comes back as `inputRejected` and is a 400 too. Ajv's compile runs in a worker thread
 * (`checkSchemaOffThread`): a 64 KB schema takes seconds to compile, which the event loop must
 * not spend; the compiled validator is cached, so the session's own check does not compile again.
 */
export async function requestSchemaProblem(schema: unknown, label: string): Promise<string | undefined> {
  const shape = schemaShapeProblems(schema, { maxBytes: Number.POSITIVE_INFINITY });
  if (shape.length > 0) return `${label} is not a usable JSON Schema: ${shape.join('; ')}`;
  const size = measureJson(schema, { maxDepth: Number.POSITIVE_INFINITY });
  if (size.ok && size.bytes > schemaDefaults().maxBytes) return undefined;
  const check = await checkSchemaOffThread(schema, { label });
  return check.ok ? undefined : check.message;
}
