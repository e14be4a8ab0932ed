import { isRecord } from '@agent/protocol/util';
import type { Scorer, ScorerSpec } from '../../types.js';
import { EvalInputError } from '../errors.js';
import { budgetScorer } from './budget.js';
import { containsScorer } from './contains.js';
import type { ScorerEnv } from './env.js';
import { equalsScorer } from './equals.js';
import { jmespathScorer } from './jmespath.js';
import { judgeScorer } from './judge.js';
import { numericScorer } from './numeric.js';
import { regexScorer } from './regex.js';
import { schemaScorer } from './schema.js';
import { type SpecFields, SpecProblem } from './spec-fields.js';

const FACTORIES: Record<ScorerSpec['type'], (spec: SpecFields, env: ScorerEnv) => Scorer> = {
  schema: schemaScorer,
  equals: equalsScorer,
  contains: containsScorer,
  regex: regexScorer,
  jmespath: jmespathScorer,
  numeric: numericScorer,
  judge: judgeScorer,
  budget: budgetScorer,
};

export const SCORER_TYPES = Object.keys(FACTORIES) as ScorerSpec['type'][];

/**
 * A scorer from a spec as a dataset writes it, or the custom scorer as given. `where` names
 * the spec's place (`data.yaml: scorers[2]`) in the error a bad spec gets.
 */
export function createScorer(spec: Scorer | ScorerSpec | unknown, env: ScorerEnv, where: string): Scorer {
  if (isRecord(spec) && typeof spec.score === 'function' && typeof spec.name === 'string')
    return spec as unknown as Scorer;
  if (!isRecord(spec) || typeof spec.type !== 'string' || !(spec.type in FACTORIES))
    throw new EvalInputError(
      `${where}: a scorer is an object with type one of ${SCORER_TYPES.join(', ')} (or, from code, { name, score })`,
    );
  try {
    return FACTORIES[spec.type as ScorerSpec['type']](spec, env);
  } catch (error) {
    if (error instanceof SpecProblem) throw new EvalInputError(`${where}: ${error.message}`);
    throw error;
  }
}
