import { BATCH_TOOL, type JsonSchema, TASK_STATUS_TOOL, type ToolDefinition } from '@agent/protocol';

// The schemas and descriptions go with every request the tools are offered in: each fact is
// said once, in as few tokens as keep it clear (issue 20).
const taskStatusSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'now'],
  properties: {
    status: { type: 'string', enum: ['in-progress', 'completed', 'blocked'] },
    done: { type: 'string', description: 'Finished so far' },
    pending: { type: 'string', description: 'Left to do' },
    now: { type: 'string', description: 'What you are doing now, one short sentence' },
  },
};

const batchSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['calls'],
  properties: {
    calls: {
      type: 'array',
      minItems: 1,
      description: 'Tool calls to run in parallel',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['tool', 'parameters'],
        properties: {
          id: { type: 'string', description: 'Your label, echoed in the results' },
          tool: { type: 'string', description: 'Exact tool name' },
          parameters: { type: 'object', description: "The tool's arguments" },
        },
      },
    },
  },
};

export const taskStatusTool: ToolDefinition = {
  name: TASK_STATUS_TOOL,
  description:
    'Tell the user your progress. Do not call it alone twice in a row; status "completed" only right before the final report.',
  inputSchema: taskStatusSchema,
};

export const batchTool: ToolDefinition = {
  name: BATCH_TOOL,
  description:
    'Run several tool calls in parallel; each result comes back under its id. Not for the final report, task status or batch itself.',
  inputSchema: batchSchema,
};

export interface TaskStatusArgs {
  status: 'in-progress' | 'completed' | 'blocked';
  done?: string;
  pending?: string;
  now: string;
}

export interface BatchCall {
  id: string;
  tool: string;
  parameters: Record<string, unknown>;
}

/** Reads `agent__batch` arguments; returns an error message for the model when they don't fit. */
export function readBatchCalls(args: Record<string, unknown>): BatchCall[] | string {
  const calls = args.calls;
  if (!Array.isArray(calls) || calls.length === 0) {
    return `${BATCH_TOOL}: "calls" must be a non-empty array of { id, tool, parameters }`;
  }
  const result: BatchCall[] = [];
  for (const [index, raw] of calls.entries()) {
    if (typeof raw !== 'object' || raw === null) return `${BATCH_TOOL}: calls[${index}] must be an object`;
    const { id, tool, parameters } = raw as Record<string, unknown>;
    if (typeof tool !== 'string' || tool.length === 0) {
      return `${BATCH_TOOL}: calls[${index}].tool must be a tool name`;
    }
    const params = parameters ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      return `${BATCH_TOOL}: calls[${index}].parameters must be an object`;
    }
    result.push({
      id: typeof id === 'string' && id.length > 0 ? id : String(index + 1),
      tool,
      parameters: params as Record<string, unknown>,
    });
  }
  return result;
}

export function readTaskStatus(args: Record<string, unknown>): TaskStatusArgs {
  const status = args.status === 'completed' || args.status === 'blocked' ? args.status : 'in-progress';
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const done = text(args.done);
  const pending = text(args.pending);
  return {
    status,
    now: text(args.now) ?? '',
    ...(done === undefined ? {} : { done }),
    ...(pending === undefined ? {} : { pending }),
  };
}

/** The characters an `agent__task_status` call reports (`done`, `pending`, `now`): its `charactersOut`. */
export function taskStatusCharacters(args: Record<string, unknown>): number {
  const status = readTaskStatus(args);
  return (status.done?.length ?? 0) + (status.pending?.length ?? 0) + status.now.length;
}
