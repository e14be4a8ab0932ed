import { type JsonSchema, TOOL_SEARCH_TOOL, type ToolDefinition } from '@agent/protocol';
import { MAX_QUERY_CHARS } from './tool-index.js';

/** The `tool_search` definition of a session whose searches return at most `maxResults` tools. */
export function toolSearchTool(maxResults: number): ToolDefinition {
  const schema: JsonSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: {
      query: { type: 'string', maxLength: MAX_QUERY_CHARS, description: 'Words for what the tool does' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: maxResults,
        description: `Most tools to return (${maxResults})`,
      },
    },
  };
  return {
    name: TOOL_SEARCH_TOOL,
    description:
      'Find tools by what they do. More tools exist than are listed; the ones found can be called from your next step.',
    inputSchema: schema,
  };
}

export interface ToolSearchArgs {
  query: string;
  limit: number;
}

/** Reads `tool_search` arguments; an error message for the model when they do not fit. */
export function readToolSearchArgs(
  args: Record<string, unknown>,
  maxResults: number,
): ToolSearchArgs | string {
  const { query, limit } = args;
  if (typeof query !== 'string' || query.trim().length === 0) {
    return `${TOOL_SEARCH_TOOL}: "query" must be a non-empty string of words describing the tool you need`;
  }
  if (query.length > MAX_QUERY_CHARS) {
    return `${TOOL_SEARCH_TOOL}: "query" is ${query.length} characters; at most ${MAX_QUERY_CHARS} are allowed`;
  }
  if (limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 1)) {
    return `${TOOL_SEARCH_TOOL}: "limit" must be a whole number from 1 to ${maxResults}`;
  }
  return { query, limit: Math.min((limit as number | undefined) ?? maxResults, maxResults) };
}
