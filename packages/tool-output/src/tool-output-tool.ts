import {
  INTERNAL_TOOL_SERVER,
  type JsonSchema,
  TOOL_OUTPUT_TOOL,
  type ToolDefinition,
} from '@agent/protocol';
import type { ExtractionMode } from './types.js';

export const EXTRACTION_MODES: readonly ExtractionMode[] = ['auto', 'full-chunked', 'read-grep', 'truncate'];

/** The input schema of `tool_output`, exactly as seed 001 gives it. */
export const TOOL_OUTPUT_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['handle', 'extract'],
  properties: {
    handle: {
      type: 'string',
      minLength: 1,
      description:
        'UUID handle of the stored tool output (provided in the tool-result message: tool_output(handle = "<uuid>", ...)).',
    },
    extract: {
      type: 'string',
      minLength: 1,
      description:
        'Provide precise, detailed instructions about what you need from the tool output (be specific, include keys/fields/sections if known).',
    },
    mode: {
      type: 'string',
      enum: ['auto', 'full-chunked', 'read-grep', 'truncate'],
      description:
        'Optional override. auto=module decides; full-chunked=LLM chunk+reduce; read-grep=dynamic sub-agent with Read/Grep; truncate=keeps top and bottom, truncates in the middle.',
    },
  },
};

export const TOOL_OUTPUT_DEFINITION: ToolDefinition = {
  name: TOOL_OUTPUT_TOOL,
  description:
    'Extract what you need from a tool output that was too large to show, or from a compacted part of this conversation. Pass the handle from the "Tool output is too large" message, or a handle named in a "[Context compacted]" summary (the full transcript of the turns it replaced), and precise instructions in `extract`; the answer is plain text.',
  inputSchema: TOOL_OUTPUT_SCHEMA,
};

/** Provider id and kind of the tool (accounting `mcpServer`, log identifiers). */
export const TOOL_OUTPUT_PROVIDER_ID = INTERNAL_TOOL_SERVER;

export interface ToolOutputArguments {
  handle: string;
  extract: string;
  mode: ExtractionMode;
}

/** Checks the arguments against the schema; a string is the problem, worded for the model. */
export function readToolOutputArguments(args: Record<string, unknown>): ToolOutputArguments | string {
  const unknown = Object.keys(args).filter((key) => key !== 'handle' && key !== 'extract' && key !== 'mode');
  if (unknown.length > 0) {
    return `unknown argument${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => JSON.stringify(k)).join(', ')}; allowed: handle, extract, mode`;
  }
  const { handle, extract, mode } = args;
  if (typeof handle !== 'string' || handle.length === 0)
    return '"handle" must be the UUID string from the tool-result message';
  if (typeof extract !== 'string' || extract.trim().length === 0) {
    return '"extract" must be a non-empty string saying precisely what you need from the output';
  }
  if (
    mode !== undefined &&
    !(typeof mode === 'string' && (EXTRACTION_MODES as readonly string[]).includes(mode))
  ) {
    return `"mode" must be one of ${EXTRACTION_MODES.join(', ')}, got ${JSON.stringify(mode)}`;
  }
  return { handle, extract, mode: (mode as ExtractionMode | undefined) ?? 'auto' };
}
