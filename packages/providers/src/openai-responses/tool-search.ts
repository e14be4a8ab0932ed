import {
  type ModelRequest,
  TOOL_SEARCH_TOOL,
  type ToolCall,
  type ToolDefinition,
  type ToolResultMessage,
} from '@agent/protocol';
import type OpenAI from 'openai';
import type { ToolIdMapper } from '../tool-call-ids.js';

// The Responses API's client-executed tool search (docs/tool-search.md, "Provider-native
// loading"): with deferred tools in the request, the session's own `tool_search` is sent as the
// API's `tool_search` tool, the model's search comes back as a `tool_search_call` item, and the
// search result goes back as a `tool_search_output` item carrying the found tools' definitions.

type InputItem = OpenAI.Responses.ResponseInputItem;
type Tool = OpenAI.Responses.Tool;

/** A request with deferred tools: tool search goes the API's way. */
export const usesNativeSearch = (request: ModelRequest): boolean =>
  request.tools?.some((tool) => tool.deferLoading === true) === true;

function functionTool(tool: ToolDefinition, deferred: boolean): OpenAI.Responses.FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
    ...(deferred ? { defer_loading: true } : {}),
  };
}

/** The request's tools; with native search, `tool_search` as the client-executed search tool. */
export function responsesTools(tools: readonly ToolDefinition[], native: boolean): Tool[] {
  return tools.map((tool) =>
    native && tool.name === TOOL_SEARCH_TOOL
      ? {
          type: 'tool_search',
          execution: 'client',
          description: tool.description,
          parameters: tool.inputSchema,
        }
      : functionTool(tool, tool.deferLoading === true),
  );
}

/** A `tool_search` call of the history as the API's own item. */
export function searchCallItem(call: ToolCall, ids: ToolIdMapper): InputItem {
  return {
    type: 'tool_search_call',
    call_id: ids.call(call.id),
    arguments: call.arguments,
    execution: 'client',
  };
}

/**
 * A search result as the API's output item: the definitions of the tools it references, loaded
 * (a result without references, a search that found nothing or failed, loads nothing).
 */
export function searchOutputItem(
  message: ToolResultMessage,
  ids: ToolIdMapper,
  tools: readonly ToolDefinition[],
): InputItem {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const found = (message.toolReferences ?? []).flatMap((name) => {
    const tool = byName.get(name);
    return tool === undefined ? [] : [functionTool(tool, false)];
  });
  return {
    type: 'tool_search_output',
    call_id: ids.result(message.toolCallId),
    execution: 'client',
    tools: found,
  };
}
