import { createHash } from 'node:crypto';
import { type Message, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import type { AgentResult, FinalReport, JsonSchema, OutputFormat } from '@agent/protocol';
import { conversationIdProblem, errorMessage } from '@agent/protocol/util';
import type { SessionTicket } from '../admission.js';
import type { AgentCatalog, ServedAgent, ServedRunOptions } from '../agent-catalog.js';
import { guardrailTrip } from '../guardrail-trip.js';
import { requestSchemaProblem, resolveRequestedOutput } from '../schema-guard.js';
import { failureMessage, inputRejection, schemaMismatch, schemaMismatchLine } from '../usage.js';
import { callState, takeTicket } from './a2a-caller.js';
import { answeredReport, messagePrompt, progressText, taskIn } from './a2a-parts.js';
import { resumeTask } from './a2a-resume.js';
import { approvalQuestion, reportArtifact } from './snapshot-task.js';
import { TaskEvents, type TaskRuns } from './task-events.js';

/** The conversation a context id names: itself when it is a valid conversation id, else `a2a-` and a hash of it. */
export function conversationIdOf(contextId: string): string {
  if (conversationIdProblem(contextId) === undefined) return contextId;
  return `a2a-${createHash('sha256').update(contextId).digest('hex').slice(0, 32)}`;
}

/** A run this process is doing for a task: its ticket (cancel aborts it). */
interface LiveRun {
  ticket: SessionTicket;
  canceled: boolean;
}

/** The format and schema a send asks for (request or message metadata `format`, `schema`), or why not. */
async function requestedOutput(
  context: RequestContext,
  agent: ServedAgent,
): Promise<{ format?: OutputFormat; schema?: JsonSchema } | string> {
  const metadata = { ...context.userMessage.metadata, ...context.request.metadata } as Record<
    string,
    unknown
  >;
  const { format, schema } = metadata;
  if (format !== undefined && typeof format !== 'string') return 'metadata "format" must be a string';
  if (schema !== undefined) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      return 'metadata "schema" must be a JSON Schema object';
    }
    const problem = await requestSchemaProblem(schema, 'metadata "schema"');
    if (problem !== undefined) return problem;
  }
  const requested = {
    ...(format === undefined ? {} : { format: format as OutputFormat }),
    ...(schema === undefined ? {} : { schema: schema as JsonSchema }),
  };
  return resolveRequestedOutput(requested, agent.info, {
    json: 'metadata "format" json',
    schema: 'metadata "schema"',
  });
}

/**
 * Runs one agent's tasks: a new task is a run whose session id is the task id; a message on a
 * task waiting for approval decides its calls and resumes the session. Every path publishes the
 * task first and never throws (the SDK logs what an executor throws).
 */
export class A2aExecutor implements AgentExecutor, TaskRuns {
  private readonly live = new Map<string, LiveRun>();

  constructor(
    private readonly catalog: AgentCatalog,
    private readonly agent: ServedAgent,
    private readonly headendId: string,
  ) {}

  /** True while this process runs the task (a second message on it is refused before the SDK). */
  isRunning(taskId: string): boolean {
    return this.live.has(taskId);
  }

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const events = new TaskEvents(bus, context.taskId, context.contextId);
    const ticket = takeTicket(context.context);
    try {
      if (context.task !== undefined) {
        events.task(context.task);
        if (context.task.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) {
          events.status(
            context.task.status?.state ?? TaskState.TASK_STATE_WORKING,
            'the task waits for no input',
          );
          return;
        }
        await resumeTask({
          catalog: this.catalog,
          headendId: this.headendId,
          context,
          events,
          ticket,
          runs: this,
        });
        return;
      }
      events.task(
        taskIn({ id: context.taskId, contextId: context.contextId }, TaskState.TASK_STATE_SUBMITTED),
      );
      await this.startRun(context, events, ticket);
    } catch (error) {
      events.status(TaskState.TASK_STATE_FAILED, `the agent run failed: ${errorMessage(error)}`);
    } finally {
      ticket?.release();
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const run = this.live.get(taskId);
    if (run !== undefined) {
      run.canceled = true;
      run.ticket.abort('the task was canceled');
    }
    new TaskEvents(bus, taskId, '').status(TaskState.TASK_STATE_CANCELED, 'the task was canceled');
  };

  private async startRun(context: RequestContext, events: TaskEvents, ticket: SessionTicket | undefined) {
    const prompt = messagePrompt(context.userMessage);
    if (prompt === undefined) {
      events.status(TaskState.TASK_STATE_REJECTED, 'the message has no text or data part to ask the agent');
      return;
    }
    const output = await requestedOutput(context, this.agent);
    if (typeof output === 'string') {
      events.status(TaskState.TASK_STATE_REJECTED, output);
      return;
    }
    const state = callState(context.context);
    await this.track(events, ticket, (options) =>
      this.agent.run(prompt, {
        ...output,
        ...options,
        sessionId: context.taskId,
        conversationId: conversationIdOf(context.contextId),
        owner: state.principal.id,
        ...(state.traceparent === undefined ? {} : { traceparent: state.traceparent }),
      }),
    );
  }

  /**
   * Runs `start` as the task's live run (WORKING, progress as status messages) and publishes
   * how it ended; nothing after a cancel (the cancel published CANCELED).
   */
  async track(
    events: TaskEvents,
    ticket: SessionTicket | undefined,
    start: (options: Pick<ServedRunOptions, 'signal' | 'onEvent' | 'headendId'>) => Promise<AgentResult>,
  ): Promise<void> {
    if (ticket === undefined) {
      events.status(TaskState.TASK_STATE_FAILED, 'the request was not admitted');
      return;
    }
    const run: LiveRun = { ticket, canceled: false };
    this.live.set(events.taskId, run);
    events.status(TaskState.TASK_STATE_WORKING);
    let result: AgentResult;
    try {
      result = await start({
        signal: ticket.signal,
        headendId: this.headendId,
        onEvent: (event, meta) => {
          const text = run.canceled ? undefined : progressText(event, meta);
          if (text !== undefined) events.status(TaskState.TASK_STATE_WORKING, text);
        },
      });
    } catch (error) {
      if (!run.canceled)
        events.status(TaskState.TASK_STATE_FAILED, `the agent run failed: ${errorMessage(error)}`);
      return;
    } finally {
      this.live.delete(events.taskId);
    }
    if (!run.canceled) publishResult(events, result);
  }
}

/** The last status of a task whose run ended with `result` (and whether its report goes out as the artifact). */
function endOf(result: AgentResult, taskId: string, contextId: string) {
  const rejection = inputRejection(result) ?? guardrailTrip(result)?.message;
  if (rejection !== undefined) return { state: TaskState.TASK_STATE_REJECTED, text: rejection };
  if (!result.success && result.pendingApprovals !== undefined && result.pendingApprovals.length > 0) {
    const question = approvalQuestion(taskId, contextId, result.pendingApprovals);
    return { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: question };
  }
  const report = answeredReport(result);
  const mismatch = schemaMismatch(result);
  // A report that missed its schema is the model's answer all the same: sent, and the task failed.
  const artifact = report !== undefined && (result.success || mismatch !== undefined) ? report : undefined;
  if (result.success && report !== undefined) return { state: TaskState.TASK_STATE_COMPLETED, artifact };
  const text =
    mismatch === undefined
      ? failureMessage(result)
      : `the report does not match the output schema: ${schemaMismatchLine(mismatch)}`;
  return { state: TaskState.TASK_STATE_FAILED, text, artifact };
}

/** How a run ended, as the task's last events: the report's artifact, then the last status. */
export function publishResult(events: TaskEvents, result: AgentResult): void {
  const end: { state: TaskState; text?: string; message?: Message; artifact?: FinalReport } = endOf(
    result,
    events.taskId,
    events.contextId,
  );
  if (end.artifact !== undefined) events.artifact(reportArtifact(end.artifact));
  events.status(end.state, end.text, end.message);
}
