import {
  type AgentResult,
  type ExpectedOutput,
  type FinalReportRejection,
  type JsonSchema,
  type PausedChild,
  SUB_AGENT_TOOL_PREFIX,
  type ToolCallRequest,
  type ToolDefinition,
  type ToolExecuteOptions,
  type ToolProvider,
  type ToolResult,
} from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
import { compileSchema, precompileSchema } from '@agent/schema';
import type { AgentDefinition } from '../agent-file/definition.js';
import { reportBody } from '../orchestration/blocks.js';
import { type LevelLimiter, SlotAbortedError } from '../runner/limiter.js';

/** What the parent asked a sub-agent to do, for the runner to run. */
export interface ChildRunRequest {
  child: AgentDefinition;
  prompt: string;
  expectedOutput: ExpectedOutput;
  /**
   * The parent passed an `output_schema` whose root is `type: "object"`: the child also gets the
   * native `report_back` tool with that schema (seed 004; the core's `reportBack`).
   */
  reportBack: boolean;
  /** Nesting level of the child (the top agent is 0). */
  depth: number;
  /** The parent's agent path (`orchestrator`). */
  parentAgentPath: string;
  signal: AbortSignal;
  /** The child's session paused in this call before; it continues with these decisions. */
  resume?: PausedChild;
}

export type RunChild = (request: ChildRunRequest) => Promise<AgentResult>;

export interface SubAgentToolOptions {
  depth: number;
  maxDepth: number;
  parentAgentPath: string;
  limiter: LevelLimiter;
  run: RunChild;
}

const OUTPUT_SCHEMA_PROPERTY = {
  type: 'object',
  description:
    'Optional JSON Schema for the answer. When given, the sub-agent must answer with JSON that matches it, and you receive that JSON.',
};

/** The tool's input schema: `{ prompt, reason }` or the child's `input.schema`, plus `output_schema`. */
export function subAgentInputSchema(child: AgentDefinition): JsonSchema {
  if (child.input.format === 'json' && child.input.schema !== undefined) {
    const schema = child.input.schema as Record<string, unknown>;
    const properties = (schema.properties as Record<string, unknown> | undefined) ?? {};
    return {
      ...schema,
      type: 'object',
      properties: { ...properties, output_schema: OUTPUT_SCHEMA_PROPERTY },
    };
  }
  return {
    type: 'object',
    properties: {
      prompt: {
        type: 'string',
        description:
          'The task, with everything the sub-agent needs to know: it sees nothing of your conversation.',
      },
      reason: {
        type: 'string',
        description: 'Why you are calling it, in one short line (shown as progress).',
      },
      output_schema: OUTPUT_SCHEMA_PROPERTY,
    },
    required: ['prompt'],
    additionalProperties: false,
  };
}

export function subAgentToolName(child: AgentDefinition): string {
  return `${SUB_AGENT_TOOL_PREFIX}${child.toolName}`;
}

function invalid(message: string): ToolResult {
  return { ok: false, error: { kind: 'invalid_arguments', message } };
}

/**
 * A sub-agent as a tool (`agent__<toolName>`). Each call runs the child agent as its own
 * session; with `output_schema` the child answers in `json` against that schema (a report that
 * does not match is sent back to the child, which retries) and the parent receives the JSON,
 * as the tool's text and as its structured content (on the parent's `tool_finished` event and
 * op-tree node). An object schema also gives the child the native `report_back` tool (seed 004).
 * Without it the parent receives the child's report text. The child's op tree comes back as
 * `childSession`, so the parent's session hangs it under the tool call.
 */
export class SubAgentToolProvider implements ToolProvider {
  readonly kind = 'subagent';
  readonly id: string;
  private readonly definition: ToolDefinition;

  constructor(
    private readonly child: AgentDefinition,
    private readonly options: SubAgentToolOptions,
  ) {
    this.id = child.toolName;
    const description = [
      child.description ?? `Runs the ${child.toolName} agent.`,
      child.usage && `Usage: ${child.usage}`,
    ]
      .filter((part): part is string => typeof part === 'string' && part.length > 0)
      .join('\n');
    this.definition = { name: subAgentToolName(child), description, inputSchema: subAgentInputSchema(child) };
  }

  async listTools(): Promise<readonly ToolDefinition[]> {
    return [this.definition];
  }

  async execute(call: ToolCallRequest, options: ToolExecuteOptions): Promise<ToolResult> {
    if (call.name !== this.definition.name) {
      return {
        ok: false,
        error: { kind: 'unknown_tool', message: `this provider only runs ${this.definition.name}` },
      };
    }
    const { output_schema: outputSchema, ...rest } = call.arguments;
    if (outputSchema !== undefined) {
      if (typeof outputSchema !== 'object' || outputSchema === null || Array.isArray(outputSchema)) {
        return invalid('output_schema must be a JSON Schema object');
      }
      // The model wrote this schema: it is compiled in the worker thread, never on the event
      // loop, and the child session's own check (whether it fits its context window with the
      // prompt) finds the compiled validator cached. A schema that does not compile is the
      // model's tool error at once.
      const compiled = await precompileSchema(outputSchema);
      if (compiled?.ok === false)
        return invalid(refusal(this.child, `the output schema is ${compiled.error}`));
    }
    const prompt = this.prompt(rest);
    if (typeof prompt !== 'string') return prompt;
    const depth = this.options.depth;
    if (depth > this.options.maxDepth) {
      return {
        ok: false,
        error: {
          kind: 'execution',
          message: `sub-agents may nest at most ${this.options.maxDepth} levels deep`,
        },
      };
    }
    const expectedOutput = this.expectedOutput(outputSchema as JsonSchema | undefined);
    // Providers take only object tool inputs: another root keeps the FINAL tag as the only way.
    const reportBack = isRecord(outputSchema) && outputSchema.type === 'object';
    if (typeof rest.reason === 'string' && rest.reason.trim() !== '') {
      options.onProgress?.({ progress: 0, message: rest.reason.trim() });
    }
    let result: AgentResult;
    try {
      result = await this.options.limiter.run(depth, options.signal, () =>
        this.options.run({
          child: this.child,
          prompt,
          expectedOutput,
          reportBack,
          depth,
          parentAgentPath: this.options.parentAgentPath,
          signal: options.signal,
          ...(call.resume === undefined ? {} : { resume: call.resume }),
        }),
      );
    } catch (error) {
      if (error instanceof SlotAbortedError)
        return { ok: false, error: { kind: 'aborted', message: error.message } };
      return { ok: false, error: { kind: 'execution', message: errorMessage(error) } };
    }
    return toolResult(this.child, result);
  }

  private prompt(args: Record<string, unknown>): string | ToolResult {
    if (this.child.input.format === 'json' && this.child.input.schema !== undefined) {
      const compiled = compileSchema(this.child.input.schema);
      if (!compiled.ok) return invalid(`${this.definition.name}'s input schema is ${compiled.error}`);
      const errors = compiled.validate(args);
      if (errors.length > 0) {
        const problems = errors.map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`.trim());
        return invalid(
          `the arguments do not match ${this.definition.name}'s input schema: ${problems.join('; ')}`,
        );
      }
      return JSON.stringify(args, null, 2);
    }
    const prompt = args.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      return invalid('prompt must be a non-empty string: the task for the sub-agent');
    }
    return prompt;
  }

  /** The parent's schema wins; else the child's own json contract; else `sub-agent` text. */
  private expectedOutput(schema: JsonSchema | undefined): ExpectedOutput {
    if (schema !== undefined) return { format: 'json', schema };
    const own = this.child.output;
    if (own.format === 'json')
      return own.schema === undefined ? { format: 'json' } : { format: 'json', schema: own.schema };
    return { format: 'sub-agent' };
  }
}

/** A child's plain answer that misses its output schema, adopted as it is: the text and what was wrong. */
function offFormatAnswer(rejection: FinalReportRejection, body: string): string {
  const why = [rejection.reason, ...rejection.diagnostics].join('; ');
  return `[the sub-agent answered in text that does not meet the output schema: ${why}]\n${body}`;
}

/** What the model reads when the child refused the call before its first model call. */
function refusal(child: AgentDefinition, why: string): string {
  return `sub-agent ${child.toolName} refused the call before any model call: ${why}`;
}

function toolResult(child: AgentDefinition, result: AgentResult): ToolResult {
  const childSession = result.opTree === undefined ? {} : { childSession: result.opTree };
  const report = result.finalReport;
  if (result.inputRejected === true) {
    return {
      ok: false,
      error: {
        kind: 'invalid_arguments',
        message: refusal(child, result.error ?? 'invalid input'),
      },
      ...childSession,
    };
  }
  if (result.exitCode === 'EXIT-AWAITING-APPROVAL' && !result.success && result.snapshot !== undefined) {
    // Not a failure the model sees: the calling session pauses with it (docs/sessions.md).
    return {
      ok: false,
      error: { kind: 'execution', message: `sub-agent ${child.toolName} is waiting for approval` },
      ...childSession,
      paused: { pending: result.pendingApprovals ?? [], snapshot: result.snapshot },
    };
  }
  if (!result.success || report === undefined) {
    return {
      ok: false,
      error: {
        kind: 'execution',
        message: `sub-agent ${child.toolName} failed (${result.exitCode}): ${result.error ?? 'no final report'}`,
      },
      ...childSession,
    };
  }
  const body = reportBody(report);
  const text =
    report.rejection !== undefined
      ? offFormatAnswer(report.rejection, body)
      : report.status === 'success'
        ? body
        : `[the sub-agent reported status ${report.status}]\n${body}`;
  return {
    ok: true,
    text,
    ...(report.content_json === undefined ? {} : { structured: report.content_json }),
    ...childSession,
  };
}
