import { precompileSchema } from '@agent/schema';

/**
 * Why a request's output schema must be refused with a 400 before it is admitted (`label`
 * names the field the client sent), or undefined. `precompileSchema` does the work in a worker
 * thread (the patterns' count and estimated cost, the meta-schema, Ajv's compile: seconds for a
 * 64 KB schema, which the event loop must not spend) and caches the validator, so the session's
 * own check does not compile again. A schema over the size limit is left to the run, whose
 * session checks before any model call whether it fits the model's context window with the
 * prompt and then the size; such a refusal comes back as `inputRejected`, a 400 too.
 */
export async function requestSchemaProblem(schema: unknown, label: string): Promise<string | undefined> {
  const compiled = await precompileSchema(schema);
  return compiled === undefined || compiled.ok ? undefined : `${label} is ${compiled.error}`;
}
