import {
  isFinalReportName,
  type ProgressEvent,
  TASK_STATUS_TOOL,
  TOOL_FINISHED_OUTPUT_MAX_CHARS,
  type ToolCall,
} from '@agent/protocol';
import type { SessionRecorder } from '../observe/recorder.js';
import type { RawToolOutcome } from './call-runner.js';

/** Longest error text a `tool_finished` message carries. */
const MAX_MESSAGE_ERROR = 200;
const FAILED_PREFIX = '(tool failed: ';

/**
 * `tool_started` / `tool_finished` / `tool_progress` progress events. Every tool call the
 * model makes gets one started and one finished event, calls inside `agent__batch` and the
 * batch itself included (a call refused by the turn's limit or with unreadable arguments too,
 * finishing at once with why). Not `agent__task_status` (its own `agent_update` event says
 * it all) and not `agent__final_report` (that is the report, not a tool run).
 */
export class ToolEvents {
  constructor(
    private readonly recorder: SessionRecorder,
    private readonly agentPath: string,
  ) {}

  started(call: ToolCall): void {
    if (!announced(call)) return;
    this.send({
      type: 'tool_started',
      agentPath: this.agentPath,
      tool: call.name,
      callId: call.id,
      arguments: call.arguments,
    });
  }

  finished(call: ToolCall, outcome: RawToolOutcome, durationMs: number): void {
    if (!announced(call)) return;
    // Optional fields set after the literal: a conditional spread cost an object and a copy per call.
    const event: ProgressEvent & { type: 'tool_finished' } = {
      type: 'tool_finished',
      agentPath: this.agentPath,
      tool: call.name,
      callId: call.id,
      message: finishMessage(outcome, durationMs),
    };
    if (outcome.structured !== undefined) event.structuredOutput = outcome.structured;
    if (outcome.ok) event.output = boundedOutput(outcome.text);
    this.send(event);
  }

  progress(call: ToolCall, p: { progress: number; total?: number; message?: string }): void {
    const event: ProgressEvent & { type: 'tool_progress' } = {
      type: 'tool_progress',
      agentPath: this.agentPath,
      tool: call.name,
      callId: call.id,
      progress: p.progress,
    };
    if (p.total !== undefined) event.total = p.total;
    if (p.message !== undefined) event.message = p.message;
    this.send(event);
  }

  private send(event: ProgressEvent): void {
    this.recorder.emit({ type: 'progress', event });
  }
}

function announced(call: ToolCall): boolean {
  return call.name !== TASK_STATUS_TOOL && !isFinalReportName(call.name);
}

function boundedOutput(text: string): string {
  return text.length <= TOOL_FINISHED_OUTPUT_MAX_CHARS
    ? text
    : `${text.slice(0, TOOL_FINISHED_OUTPUT_MAX_CHARS - 1)}…`;
}

/** `ok in 12 ms`, or `failed in 12 ms: <why, short>`. */
export function finishMessage(outcome: RawToolOutcome, durationMs: number): string {
  const ms = Math.max(0, Math.round(durationMs));
  // One string for the usual case, not a part and then the whole.
  if (outcome.ok) return `ok in ${ms} ms`;
  const took = `in ${ms} ms`;
  let why = outcome.summary ?? outcome.text;
  if (why.startsWith(FAILED_PREFIX) && why.endsWith(')')) why = why.slice(FAILED_PREFIX.length, -1);
  why = why.replace(/\s+/g, ' ').trim();
  if (why.length > MAX_MESSAGE_ERROR) why = `${why.slice(0, MAX_MESSAGE_ERROR - 1)}…`;
  return why.length === 0 ? `failed ${took}` : `failed ${took}: ${why}`;
}
