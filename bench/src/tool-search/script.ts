// What the tool-search suite's agent is asked to do and how its scripted model answers. Each
// toolset has one planted task: an operation of the catalog the prompt describes in words. The
// model reads every request: while the operation's tool is not offered it searches for it
// (once); once it is offered it calls it; once its result is in, it reports. So the session
// finds and calls the tool only if the search really put it in the next request.
import type { ConversationMessage } from '@agent/protocol';
import { TOOL_SEARCH_TOOL } from '@agent/protocol';
import { finalReport, type RecordedRequest, type ScriptedAnswer, toolCall } from '@agent/testkit';

export const INSTRUCTIONS =
  'You are the operations assistant of a company. Use the company tools to do what you are asked, then report what happened.';

/** The two toolsets: an OpenAPI document (`openapiSpecs`) and an MCP server (`mcpServers`). */
export type Toolset = 'openapi' | 'mcp';
/** Their names in agent.json: the tools are `<name>__<operation>`. */
export const TOOLSET_ENTRY: Record<Toolset, string> = { openapi: 'company', mcp: 'catalog' };

export interface PlantedTask {
  toolset: Toolset;
  prompt: string;
  /** What the model searches for. */
  query: string;
  /** The catalog operation that does it (operationId for OpenAPI, tool name for MCP). */
  operation: string;
  arguments: Record<string, unknown>;
}

export const TASKS: Record<Toolset, PlantedTask> = {
  openapi: {
    toolset: 'openapi',
    prompt: 'Approve expense claim ec-4411 (the March offsite travel) and tell me when it is done.',
    query: 'approve expense claim',
    operation: 'approveExpenseClaim',
    arguments: { expenseClaimId: 'ec-4411', note: 'Approved: March offsite travel' },
  },
  mcp: {
    toolset: 'mcp',
    prompt: 'Export the shipment tracking events since 2026-03-01 as CSV for the carrier audit.',
    query: 'export shipment tracking events csv',
    operation: 'export_tracking_events',
    arguments: { format: 'csv', since: '2026-03-01' },
  },
};

/** The tool name the model sees for a task's operation. */
export function taskTool(task: PlantedTask): string {
  return `${TOOLSET_ENTRY[task.toolset]}__${task.operation}`;
}

export function reportFor(task: PlantedTask, result: string): string {
  return `DONE with ${taskTool(task)}: ${result.split('\n')[0]!.slice(0, 200)}`;
}

export function notFoundReport(task: PlantedTask): string {
  return `NOT FOUND: no tool for "${task.query}" was offered.`;
}

function taskOf(messages: readonly ConversationMessage[]): PlantedTask {
  const user = messages.filter((m) => m.role === 'user').map((m) => m.content);
  const task = Object.values(TASKS).find((t) => user.some((content) => content.includes(t.prompt)));
  if (task === undefined)
    throw new Error('tool-search bench: a request without a planted task in its prompt');
  return task;
}

/** The result of the first call of `tool`, if one was made and answered. */
function resultOf(messages: readonly ConversationMessage[], tool: string): string | undefined {
  const ids = new Set(
    messages.flatMap((m) =>
      (m.role === 'assistant' ? (m.toolCalls ?? []) : []).filter((c) => c.name === tool).map((c) => c.id),
    ),
  );
  const result = messages.find((m) => m.role === 'tool' && ids.has(m.toolCallId));
  return result?.content;
}

const searched = (messages: readonly ConversationMessage[]): boolean =>
  messages.some(
    (m) => m.role === 'assistant' && (m.toolCalls ?? []).some((c) => c.name === TOOL_SEARCH_TOOL),
  );

export function answerFor(request: RecordedRequest): ScriptedAnswer {
  const task = taskOf(request.messages);
  const tool = taskTool(task);
  const result = resultOf(request.messages, tool);
  if (result !== undefined) return finalReport(reportFor(task, result));
  const offered = new Set(request.tools.map((t) => t.name));
  if (offered.has(tool)) return toolCall(tool, task.arguments);
  if (offered.has(TOOL_SEARCH_TOOL) && !searched(request.messages))
    return toolCall(TOOL_SEARCH_TOOL, { query: task.query });
  return finalReport(notFoundReport(task));
}
