import type {
  ToolCallRequest,
  ToolDefinition,
  ToolExecuteOptions,
  ToolProvider,
  ToolResult,
} from '@agent/protocol';
import type { AgentDefinition } from '../agent-file/definition.js';
import { suggestion } from '../agent-file/suggest.js';

/** The tool a router agent gets (the name is part of the contract with the model). */
export const ROUTER_HANDOFF_TOOL = 'router__handoff-to';

/** A longer message is refused: it becomes the destination's prompt. */
export const MAX_HANDOFF_MESSAGE_CHARS = 65_536;

/** What the router chose. */
export interface RouterChoice {
  destination: AgentDefinition;
  message?: string;
}

function invalid(message: string): ToolResult {
  return { ok: false, error: { kind: 'invalid_arguments', message } };
}

/**
 * `router__handoff-to { agent, message? }` for one run of a router: a valid call records the
 * choice and ends the router's session (the tool result carries `endSession`), so the runtime
 * can run the destination on the user's request. The first valid call of a run wins.
 */
export class RouterToolProvider implements ToolProvider {
  readonly id = 'router';
  readonly kind = 'agent';
  private readonly byName: Map<string, AgentDefinition>;
  private readonly definition: ToolDefinition;
  private chosen: RouterChoice | undefined;

  constructor(destinations: readonly AgentDefinition[]) {
    this.byName = new Map(destinations.map((d) => [d.toolName, d]));
    const names = [...this.byName.keys()];
    this.definition = {
      name: ROUTER_HANDOFF_TOOL,
      description:
        "Hands the user's original request to another agent, who answers the user directly; your session ends with this call. " +
        `Agents: ${names.join(', ')}.`,
      inputSchema: {
        type: 'object',
        properties: {
          agent: { type: 'string', enum: names, description: 'The agent that takes over the request.' },
          message: {
            type: 'string',
            description: 'Optional note for that agent (what you found out, what to focus on).',
          },
        },
        required: ['agent'],
        additionalProperties: false,
      },
    };
  }

  /** The destination chosen in this run, once a valid call was made. */
  get choice(): RouterChoice | undefined {
    return this.chosen;
  }

  async listTools(): Promise<readonly ToolDefinition[]> {
    return [this.definition];
  }

  instructions(): string {
    const lines = [...this.byName.values()].map(
      (d) => `- ${d.toolName}${d.description === undefined ? '' : `: ${d.description}`}`,
    );
    return [
      '## Routing',
      `With \`${ROUTER_HANDOFF_TOOL}\` you hand the user's original request (plus an optional message) to one of these agents; that agent answers the user directly and your session ends. Answer yourself only when none of them fits.`,
      ...lines,
    ].join('\n');
  }

  async execute(call: ToolCallRequest, _options: ToolExecuteOptions): Promise<ToolResult> {
    if (call.name !== ROUTER_HANDOFF_TOOL) {
      return {
        ok: false,
        error: { kind: 'unknown_tool', message: `this provider only runs ${ROUTER_HANDOFF_TOOL}` },
      };
    }
    const { agent, message } = call.arguments;
    const names = [...this.byName.keys()];
    if (typeof agent !== 'string') return invalid(`agent must be one of ${names.join(', ')}`);
    const destination = this.byName.get(agent);
    if (destination === undefined) {
      return invalid(`unknown agent \`${agent}\`${suggestion(agent, names, 'agents')}`);
    }
    if (message !== undefined && typeof message !== 'string') return invalid('message must be a string');
    if (message !== undefined && message.length > MAX_HANDOFF_MESSAGE_CHARS) {
      return invalid(
        `message is ${message.length} characters; at most ${MAX_HANDOFF_MESSAGE_CHARS} are allowed`,
      );
    }
    if (this.chosen !== undefined) {
      return invalid(`the request was already handed to ${this.chosen.destination.toolName}`);
    }
    const note = message === undefined || message.trim() === '' ? undefined : message;
    this.chosen = { destination, ...(note === undefined ? {} : { message: note }) };
    return {
      ok: true,
      text: `Handed off to ${agent}.`,
      endSession: {
        ...(note === undefined ? {} : { content: note }),
        metadata: { handoff: { agent, ...(note === undefined ? {} : { message: note }) } },
      },
    };
  }
}
