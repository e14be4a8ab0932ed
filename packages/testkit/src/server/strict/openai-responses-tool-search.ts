import { type Json, objects } from './json.js';
import { openAIRejection, type StrictViolation } from './violation.js';

/**
 * Client-executed tool search: deferred functions (`defer_loading`) only beside a `tool_search`
 * tool, and a `tool_search_output` loads only functions the request's tools define.
 */
export function toolSearchRules(body: Json): StrictViolation | undefined {
  const tools = objects(body.tools);
  const deferred = tools.findIndex((tool) => tool.type === 'function' && tool.defer_loading === true);
  if (deferred >= 0 && !tools.some((tool) => tool.type === 'tool_search')) {
    return openAIRejection(
      `Invalid value for 'tools[${deferred}].defer_loading': deferred tools require a 'tool_search' tool in 'tools'.`,
      `tools[${deferred}].defer_loading`,
      'invalid_value',
    );
  }
  const functions = new Set(
    tools.filter((tool) => tool.type === 'function').map((tool) => String(tool.name)),
  );
  for (const [index, item] of objects(body.input).entries()) {
    if (item.type !== 'tool_search_output') continue;
    for (const [at, tool] of objects(item.tools).entries()) {
      if (tool.type === 'function' && !functions.has(String(tool.name))) {
        return openAIRejection(
          `Invalid value for 'input[${index}].tools[${at}]': function '${String(tool.name)}' is not one of the request's tools.`,
          `input[${index}].tools[${at}]`,
          'invalid_value',
        );
      }
    }
  }
  return undefined;
}
