import { normaliseSettingForms } from './agent-file/ai-agent-forms.js';
import { SETTINGS_PROPERTIES } from './agent-file/keys.js';
import { type AgentSettings, pickSettings } from './agent-file/settings.js';
import { schemaProblems } from './agent-file/validate.js';
import { problemsError } from './errors.js';

const SETTINGS_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: SETTINGS_PROPERTIES,
  additionalProperties: false,
};

/**
 * Settings given on the command line (`--override key=value`, `--temperature 0.2`), in the
 * frontmatter's terms and forms (`llmTimeout: 5m`, `temperature: none`, `maxToolTurns`).
 * Throws a configuration `RuntimeError` naming `label` and the key for a value or key that
 * is not allowed (the closest valid key is suggested).
 */
export function readSettingValues(values: Record<string, unknown>, label: string): AgentSettings {
  const data = { ...values };
  if ('maxToolTurns' in data) {
    data.maxTurns ??= data.maxToolTurns;
    delete data.maxToolTurns;
  }
  normaliseSettingForms(data);
  if (typeof data.reasoning === 'string') data.reasoning = { effort: data.reasoning };
  const problems = schemaProblems(SETTINGS_SCHEMA, data, { file: label, locator: undefined });
  if (problems.length > 0) throw problemsError(problems);
  return pickSettings(data);
}

/** The settings of a run beside the agent files'. */
export interface RunSettings {
  /** `--override`: beat every agent file of the tree. */
  all?: AgentSettings;
  /** The per-setting flags: beat the top agent's file; sub-agents take them where their file is silent. */
  top?: AgentSettings;
}
