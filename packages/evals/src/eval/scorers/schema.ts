import { isRecord } from '@agent/protocol/util';
import { compileSchemaOffThread } from '@agent/schema';
import type { Scorer } from '../../types.js';
import type { ScorerEnv } from './env.js';
import { onlyKeys, type SpecFields, SpecProblem, verdict } from './spec-fields.js';

/** Most validation errors quoted in a reason. */
const MAX_ERRORS_SHOWN = 3;

/**
 * `schema`: the report validates against `schema`, else the case's schema, else the agent's
 * output schema. Compiled off the main thread, like every schema from outside.
 */
export function schemaScorer(spec: SpecFields, env: ScorerEnv): Scorer {
  onlyKeys(spec, ['schema']);
  if (spec.schema !== undefined && !isRecord(spec.schema) && typeof spec.schema !== 'boolean')
    throw new SpecProblem('schema must be a JSON Schema (an object)');
  return {
    name: 'schema',
    async score({ case: evalCase, report }) {
      const schema = spec.schema ?? evalCase.settings?.schema ?? env.agentSchema;
      if (schema === undefined)
        return verdict(false, 'no schema: give one to the scorer, the case (settings.schema) or the agent');
      if (report === undefined) return verdict(false, 'the run has no report');
      const compiled = await compileSchemaOffThread(schema);
      if (!compiled.ok) return verdict(false, `the schema cannot be used: ${compiled.error}`);
      const errors = compiled.validate(report);
      if (errors.length === 0) return verdict(true);
      const shown = errors
        .slice(0, MAX_ERRORS_SHOWN)
        .map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
      return verdict(false, `${errors.length} schema error(s): ${shown.join('; ')}`);
    },
  };
}
