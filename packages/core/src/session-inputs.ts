import {
  ConfigError,
  type ConversationMessage,
  type ExpectedOutput,
  type ModelTarget,
  REPORT_BACK_TOOL,
  type ToolDefinition,
  type ToolProvider,
} from '@agent/protocol';
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

/** What `reportBack: true` needs, in words that finish "must be ...". */
export const REPORT_BACK_ALLOWED =
  'true only with output { format: "json", schema } whose root is "type": "object"';

/**
 * The native `report_back` tool of a session with `reportBack: true` (seed 004): its input
 * schema is the output schema, so a valid call is the JSON report. Providers take only object
 * tool inputs, hence the root `type: "object"`. Throws a `ConfigError` when it cannot be made.
 */
export function reportBackTool(
  config: Pick<AgentSessionConfig, 'reportBack'>,
  expected: ExpectedOutput,
): ToolDefinition | undefined {
  if (config.reportBack !== true) return undefined;
  const schema = expected.schema;
  if (expected.format !== 'json' || schema === undefined || schema.type !== 'object') {
    throw new ConfigError({
      field: 'reportBack',
      value: true,
      allowed: REPORT_BACK_ALLOWED,
      message: `reportBack must be ${REPORT_BACK_ALLOWED}; the output is ${expected.format}${
        schema === undefined
          ? ' without a schema'
          : ` with a schema whose root type is ${JSON.stringify(schema.type)}`
      }`,
    });
  }
  return {
    name: REPORT_BACK_TOOL,
    description:
      'Send your final answer as structured data: the arguments are the report and must match this schema. Calling it ends the task (the other tools you call in the same answer still run first). If the arguments do not match, you are told why and may call it again.',
    inputSchema: schema,
  };
}

/** The first request's conversation: system prompt (with the providers' instructions), history, user prompt. */
export function initialConversation(
  config: AgentSessionConfig,
  providers: readonly ToolProvider[],
): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  const instructions = providers
    .map((p) => p.instructions?.())
    .filter((text): text is string => typeof text === 'string' && text.length > 0);
  const system = [config.instructions ?? '', ...instructions].filter((part) => part.length > 0).join('\n\n');
  if (system.length > 0) messages.push({ role: 'system', content: system });
  if (config.history !== undefined) messages.push(...config.history);
  messages.push({ role: 'user', content: config.prompt });
  return messages;
}
