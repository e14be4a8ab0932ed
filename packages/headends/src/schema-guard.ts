import type { JsonSchema, OutputFormat } from '@agent/protocol';
import { precompileSchema } from '@agent/schema';
import type { AgentInfo } from './agent-catalog.js';

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

/** What a request asked of the report: the format and schema it sent, each optional. */
export interface RequestedOutput {
  format?: OutputFormat;
  schema?: JsonSchema;
}

/** How the face names the two fields in its errors (REST `"format"`, OpenAI `response_format ...`). */
export interface OutputFieldNames {
  /** The field that asked for json, as the message names it, e.g. `"format" json`. */
  json: string;
  schema: string;
}

/**
 * Seed 002's rule "when format is json, a schema object is required", applied to a request
 * (docs/headends.md, "Formats and schemas"): json needs a schema, from the request or the agent
 * file; a schema goes only with json; a schema without a format means json. A string is the
 * 400 message.
 */
export function resolveRequestedOutput(
  requested: RequestedOutput,
  info: AgentInfo,
  fields: OutputFieldNames,
): RequestedOutput | string {
  const { schema } = requested;
  const format = requested.format ?? (schema === undefined ? undefined : 'json');
  if (schema !== undefined && format !== 'json') {
    return `${fields.schema} is allowed only with "format" json, not ${format}`;
  }
  if (format === 'json' && schema === undefined && info.outputSchema === undefined) {
    return `${fields.json} needs a JSON Schema (seed 002: when the format is json, a schema object is required): send one in ${fields.schema}, or declare it in the agent file's output`;
  }
  return { ...(format === undefined ? {} : { format }), ...(schema === undefined ? {} : { schema }) };
}
