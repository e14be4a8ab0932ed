import { resolve } from 'node:path';
import {
  FINAL_REPORT_TOOL,
  INTERNAL_TOOL_SERVER,
  REPORT_BACK_TOOL,
  SUB_AGENT_TOOL_PREFIX,
  TASK_STATUS_TOOL,
  TOOL_OUTPUT_TOOL,
} from '@agent/protocol';
import { describeConfig } from '@agent/runtime';

/** The value every label takes that is not a configured name. */
export const OTHER_LABEL = 'other';

/**
 * How many guardrail names keep their own label value. Guardrails are named in agent files and
 * code, never by a model or client, but the server learns the names from the runs: past this
 * many (a misconfiguration making names per run), further names count under `other`.
 */
export const MAX_GUARDRAIL_LABELS = 64;

/** What may be a label value: the names the operator configured, never what a model or client made up. */
export interface KnownLabels {
  /** Agents (their tool names), the served ones and their sub-agents. */
  agents: readonly string[];
  /** `provider/model` of every model an agent names or a provider lists. */
  models: readonly string[];
  /** MCP servers and HTTP APIs the agents use. */
  servers: readonly string[];
}

/** The names configured for the agent files `files` (nothing is started, no variable is needed). */
export async function knownMetricLabels(files: readonly string[], configPath?: string): Promise<KnownLabels> {
  const agents = new Set<string>();
  const models = new Set<string>();
  const servers = new Set<string>();
  for (const file of files) {
    const described = await describeConfig({
      agentFiles: [resolve(file)],
      ...(configPath === undefined ? {} : { configPath }),
    });
    for (const provider of described.config.providers)
      for (const model of provider.models) models.add(`${provider.name}/${model}`);
    for (const agent of described.agents) {
      agents.add(agent.toolName);
      for (const spec of agent.models) models.add(spec);
      for (const server of agent.tools) servers.add(server);
    }
  }
  return { agents: [...agents], models: [...models], servers: [...servers] };
}

/**
 * Maps what an event says to label values: a configured name as it is, anything else `other`.
 * A tool keeps its name when its server is a configured one (the call resolved to a tool that
 * server listed); the runtime's own server (`agent`) keeps only the runtime's own tools and the
 * sub-agents' tools, since a model may call any `agent__...` name.
 */
export class MetricLabels {
  readonly #agents: ReadonlySet<string>;
  readonly #models: ReadonlySet<string>;
  readonly #providers: ReadonlySet<string>;
  readonly #servers: ReadonlySet<string>;
  readonly #ownTools: ReadonlySet<string>;
  readonly #guardrails = new Set<string>();

  constructor(known: KnownLabels) {
    this.#agents = new Set(known.agents);
    this.#models = new Set(known.models);
    this.#providers = new Set(known.models.map((spec) => spec.slice(0, spec.indexOf('/'))));
    // A sub-agent's calls are accounted under its own name as the server.
    this.#servers = new Set([...known.servers, ...known.agents]);
    this.#ownTools = new Set([
      // A committed report is no tool call (`isToolCallEntry`); these names label a call that failed.
      ...[FINAL_REPORT_TOOL, TASK_STATUS_TOOL, TOOL_OUTPUT_TOOL, REPORT_BACK_TOOL],
      `${SUB_AGENT_TOOL_PREFIX}batch`,
      ...known.agents.map((agent) => `${SUB_AGENT_TOOL_PREFIX}${agent}`),
    ]);
  }

  agent(name: string): string {
    return this.#agents.has(name) ? name : OTHER_LABEL;
  }

  llm(provider: string, model: string): { provider: string; model: string } {
    return {
      provider: this.#providers.has(provider) ? provider : OTHER_LABEL,
      model: this.#models.has(`${provider}/${model}`) ? model : OTHER_LABEL,
    };
  }

  /** A guardrail's name: its own while at most `MAX_GUARDRAIL_LABELS` names were seen, then `other`. */
  guardrail(name: string): string {
    if (this.#guardrails.has(name)) return name;
    if (this.#guardrails.size >= MAX_GUARDRAIL_LABELS || name.length > 128) return OTHER_LABEL;
    this.#guardrails.add(name);
    return name;
  }

  tool(server: string, tool: string): { server: string; tool: string } {
    if (server === INTERNAL_TOOL_SERVER)
      return { server, tool: this.#ownTools.has(tool) ? tool : OTHER_LABEL };
    if (!this.#servers.has(server)) return { server: OTHER_LABEL, tool: OTHER_LABEL };
    return { server, tool };
  }
}
