import { resolveConfig } from '../../src/config/layers.js';
import { isolated, tempTree } from './temp-tree.js';

/** A model reference as the resolved config lists it. */
export const ref = (spec: string) => {
  const [provider, ...model] = spec.split('/');
  return { spec, provider: provider!, model: model.join('/') };
};

/** The config resolved from one `.ai-agent.json` (and an environment) in a temp tree. */
export function configOf(json: object, env: Record<string, string> = {}) {
  const root = tempTree({ '.ai-agent.json': json });
  return resolveConfig({ ...isolated(root), env });
}
