import type { ExpectedOutput, ModelTarget, ToolProvider } from '@agent/protocol';
import type { AgentSessionConfig, ModelInput } from './config.js';
import { jsonSchemaOf } from './tools/schema-input.js';
import { functionToolProvider, isTool } from './tools/tool.js';

// The user's shapes turned into the session's own, once, when it starts: models into targets,
// tools into providers, a schema of any library into JSON Schema.

/** True for a `ModelClient` given where a target is expected. */
function isClient(value: ModelInput): value is Extract<ModelInput, { stream: unknown }> {
  return typeof (value as { stream?: unknown }).stream === 'function';
}

/** The ordered targets of `model` / `models`; a client stands for `{ client }`. */
export function modelTargets(config: Pick<AgentSessionConfig, 'model' | 'models'>): ModelTarget[] {
  const given = config.models ?? (config.model === undefined ? [] : [config.model]);
  return given.map((entry) => (isClient(entry) ? { client: entry } : entry));
}

/** The session's tool providers: every `tool()` in one provider (in place of the first), then the rest. */
export function toolProviders(tools: AgentSessionConfig['tools']): ToolProvider[] {
  const list = tools ?? [];
  const functions = list.filter(isTool);
  if (functions.length === 0) return list as ToolProvider[];
  const providers: ToolProvider[] = [];
  let placed = false;
  for (const entry of list) {
    if (!isTool(entry)) providers.push(entry);
    else if (!placed) {
      providers.push(functionToolProvider(functions));
      placed = true;
    }
  }
  return providers;
}

/** The output contract; a Standard JSON Schema becomes JSON Schema (throws `ConfigError` when it cannot). */
export function expectedOutput(config: Pick<AgentSessionConfig, 'output'>): ExpectedOutput {
  const output = config.output ?? { format: 'markdown' };
  const optional = output.statusOptional === true ? { statusOptional: true } : {};
  if (output.schema === undefined) return { format: output.format, ...optional };
  return { format: output.format, schema: jsonSchemaOf(output.schema, 'output.schema'), ...optional };
}
