import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Message, type Part, Role, type SendMessageRequest } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { ToolCallRequest, ToolDefinition, ToolExecuteOptions, ToolResult } from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
import { type CompiledValidator, compileSchemaOffThread } from '@agent/schema';
import { emptyAnswer, isFinished, type RemoteAnswer, takeEvent, takeResult } from './answer.js';
import { connectAgent } from './card.js';
import { fetchWith } from './fetch.js';
import { answerResult, INPUT_REQUIRED } from './result.js';
import { type SkillTool, skillTools } from './tools.js';
import type { A2aAgentOptions, A2aCardSummary, A2aToolProvider } from './types.js';

export const DEFAULT_A2A_TIMEOUT_MS = 600_000;
export const DEFAULT_A2A_CONNECT_TIMEOUT_MS = 30_000;
/** How long a cancel of an aborted task may take. */
const CANCEL_TIMEOUT_MS = 5_000;
/** Polling a task sent without streaming: the first wait, doubled up to the last. */
const POLL_FIRST_MS = 100;
const POLL_MAX_MS = 2_000;

/**
 * Reads the remote agent's card and returns its skills as tools (`<name>__<skillId>`). Rejects
 * with an `A2aError` naming the card's URL when the card cannot be read or used.
 */
export async function createA2aToolProvider(options: A2aAgentOptions): Promise<A2aToolProvider> {
  const base = options.fetch ?? fetch;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_A2A_CONNECT_TIMEOUT_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_A2A_TIMEOUT_MS;
  const { client, card } = await connectAgent(
    options.cardUrl,
    fetchWith(base, options.headers, connectTimeoutMs),
    fetchWith(base, options.headers, timeoutMs),
  );
  const tools = skillTools(options.name, card, options.skills);
  return new A2aAgentTools(options, client, card, tools, timeoutMs);
}

class A2aAgentTools implements A2aToolProvider {
  readonly kind = 'a2a';
  readonly id: string;
  private readonly byName: Map<string, SkillTool>;

  constructor(
    private readonly options: A2aAgentOptions,
    private readonly client: Client,
    readonly card: A2aCardSummary,
    tools: readonly SkillTool[],
    private readonly timeoutMs: number,
  ) {
    this.id = options.name;
    this.byName = new Map(tools.map((t) => [t.definition.name, t]));
  }

  async listTools(): Promise<readonly ToolDefinition[]> {
    const { queue } = this.options;
    return [...this.byName.values()].map((t) =>
      queue === undefined ? t.definition : { ...t.definition, queue },
    );
  }

  cacheable(result: ToolResult): boolean {
    return !(result.ok && isRecord(result.structured) && result.structured.state === INPUT_REQUIRED);
  }

  /** Waits in the entry's queue (when it has one), then calls the remote agent. */
  async execute(call: ToolCallRequest, options: ToolExecuteOptions): Promise<ToolResult> {
    const { queue, queues } = this.options;
    if (queue === undefined || queues === undefined) return this.call(call, options);
    try {
      return await queues.run(queue, () => this.call(call, options), options.signal);
    } catch (error) {
      return {
        ok: false,
        error: {
          kind: 'aborted',
          message: `the call to ${call.name} was canceled while queued: ${errorMessage(error)}`,
        },
      };
    }
  }

  private async call(call: ToolCallRequest, options: ToolExecuteOptions): Promise<ToolResult> {
    const tool = this.byName.get(call.name);
    if (tool === undefined)
      return {
        ok: false,
        error: { kind: 'unknown_tool', message: `A2A agent ${this.id} has no tool ${call.name}` },
      };
    const input = await readInput(call.arguments);
    if ('error' in input) return { ok: false, error: { kind: 'invalid_arguments', message: input.error } };
    if (input.reason !== undefined) options.onProgress?.({ progress: 0, message: input.reason });
    const limit = AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs);
    const signal = AbortSignal.any([options.signal, limit]);
    const answer = emptyAnswer(input.taskId, input.contextId);
    try {
      await this.run(requestFor(tool, input), answer, signal, options.onProgress);
    } catch (error) {
      if (!signal.aborted)
        return {
          ok: false,
          error: { kind: 'transport', message: `A2A agent ${this.id}: ${errorMessage(error)}` },
        };
    }
    if (signal.aborted) return this.stopped(answer, limit.aborted && !options.signal.aborted);
    return answerResult(this.id, answer, input.validate);
  }

  /** Streams when the card and the options allow, else one blocking call. */
  private async run(
    request: SendMessageRequest,
    answer: RemoteAnswer,
    signal: AbortSignal,
    onProgress: ToolExecuteOptions['onProgress'],
  ): Promise<void> {
    if (!this.card.streaming || this.options.streaming === false) {
      await this.send(request, answer, signal);
      return;
    }
    let step = 1;
    for await (const event of this.client.sendMessageStream(request, { signal })) {
      const progress = takeEvent(answer, event);
      if (progress !== undefined) onProgress?.({ progress: step++, message: progress });
      // A follow-up's first event is the task as it was (input-required): only a status update ends it.
      if (event.payload?.$case === 'statusUpdate' && isFinished(answer.state)) break;
    }
  }

  /**
   * Without streaming. A new task is sent non-blocking (`returnImmediately`) so its id is known at
   * once and an abort can cancel it, then polled with backoff until it stops. A follow-up (its
   * task id known already) blocks: its first answer would be the task as it was (input-required).
   */
  private async send(request: SendMessageRequest, answer: RemoteAnswer, signal: AbortSignal): Promise<void> {
    const followUp = request.message?.taskId !== '';
    if (request.configuration !== undefined) request.configuration.returnImmediately = !followUp;
    takeResult(answer, await this.client.sendMessage(request, { signal }));
    for (let delay = POLL_FIRST_MS; answer.taskId !== '' && !isFinished(answer.state); ) {
      await sleep(delay, undefined, { signal });
      takeResult(answer, await this.client.getTask({ tenant: '', id: answer.taskId }, { signal }));
      delay = Math.min(delay * 2, POLL_MAX_MS);
    }
  }

  /** An aborted or timed-out call: the remote task (when known) is canceled, then the error. */
  private async stopped(answer: RemoteAnswer, timedOut: boolean): Promise<ToolResult> {
    if (answer.taskId !== '' && !isFinished(answer.state)) {
      await this.client
        .cancelTask(
          { tenant: '', id: answer.taskId, metadata: undefined },
          { signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) },
        )
        .catch(() => undefined); // The task may have ended meanwhile: the call's error stands.
    }
    const kind = timedOut ? 'timeout' : 'aborted';
    const what = timedOut ? 'took longer than its time limit' : 'was aborted';
    const task = answer.taskId === '' ? '' : ` (remote task ${answer.taskId} canceled)`;
    return { ok: false, error: { kind, message: `the call to A2A agent ${this.id} ${what}${task}` } };
  }
}

interface CallInput {
  prompt: string;
  reason?: string;
  outputSchema?: Record<string, unknown>;
  validate?: CompiledValidator;
  taskId?: string;
  contextId?: string;
}

/** The tool's arguments checked; a model-written output schema compiled off the event loop. */
async function readInput(args: Record<string, unknown>): Promise<CallInput | { error: string }> {
  const { prompt, reason, output_schema: outputSchema, taskId, contextId } = args;
  if (typeof prompt !== 'string' || prompt.trim() === '')
    return { error: 'prompt must be a non-empty string: the task for the remote agent' };
  for (const [key, value] of [
    ['reason', reason],
    ['taskId', taskId],
    ['contextId', contextId],
  ] as const) {
    if (value !== undefined && typeof value !== 'string') return { error: `${key} must be a string` };
  }
  if (taskId !== undefined && contextId === undefined)
    return { error: 'taskId needs the contextId the earlier result gave with it' };
  const input: CallInput = {
    prompt,
    ...(typeof reason === 'string' && reason.trim() !== '' ? { reason: reason.trim() } : {}),
    ...(typeof taskId === 'string' ? { taskId } : {}),
    ...(typeof contextId === 'string' ? { contextId } : {}),
  };
  if (outputSchema === undefined) return input;
  if (!isRecord(outputSchema)) return { error: 'output_schema must be a JSON Schema object' };
  const compiled = await compileSchemaOffThread(outputSchema);
  if (!compiled.ok) return { error: `the output schema is ${compiled.error}` };
  return { ...input, outputSchema, validate: compiled.validate };
}

function requestFor(tool: SkillTool, input: CallInput): SendMessageRequest {
  const parts: Part[] = [textPart(input.prompt)];
  const metadata: Record<string, unknown> = {};
  if (tool.skillId !== undefined) metadata.skillId = tool.skillId;
  if (input.outputSchema !== undefined) {
    metadata.outputSchema = input.outputSchema;
    parts.push(textPart('Answer with JSON that matches the JSON Schema in the data part that follows.'));
    parts.push({
      content: { $case: 'data', value: { outputSchema: input.outputSchema } },
      mediaType: 'application/json',
      filename: '',
      metadata: undefined,
    });
  }
  const message: Message = {
    messageId: randomUUID(),
    contextId: input.contextId ?? '',
    taskId: input.taskId ?? '',
    role: Role.ROLE_USER,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
  return {
    tenant: '',
    message,
    configuration: {
      acceptedOutputModes: ['text/plain', 'text/markdown', 'application/json'],
      taskPushNotificationConfig: undefined,
      returnImmediately: false,
    },
    metadata: undefined,
  };
}

function textPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    mediaType: 'text/plain',
    filename: '',
    metadata: undefined,
  };
}
