import {
  type AgentEvent,
  type AgentEventMeta,
  type AgentResult,
  type ProgressEvent,
  SUB_AGENT_TOOL_PREFIX,
} from '@agent/protocol';
import type { UIMessageChunk } from 'ai';
import { GUARDRAIL_SLUG, ReportDeltas } from '../report-deltas.js';
import { mismatchMarker, reportText, usageTotals } from '../usage.js';

/** What the finish part's `messageMetadata` carries. */
export interface UiFinishMetadata {
  sessionId: string;
  usage: ReturnType<typeof usageTotals>;
}

/** What one event asks of the stream: chunks to send, or the stop of a withdrawn answer. */
export interface UiEventOutcome {
  chunks: UIMessageChunk[];
  /** Report text already sent will not be the report: end with this error. */
  withdrawn?: string;
  /** The withdrawal is a guardrail's: the run ends by itself (`EXIT-GUARDRAIL`). */
  guardrail?: boolean;
}

/** An open part: the report's text, reasoning, or the model's text outside the report. */
type PartKind = 'text' | 'reasoning' | 'notes';

/** What marks a text part as the model's text outside the report (`providerMetadata`). */
const NOTES = { agent: { assistantText: true } };

type ToolProgress = Extract<ProgressEvent, { type: 'tool_started' | 'tool_finished' | 'tool_progress' }>;

/**
 * Turns a run's events into AI SDK UI message stream chunks: the report as text parts (as it
 * streams), the master's reasoning as reasoning parts, every tool call of the tree (sub-agents
 * are tools named `agent__<name>`) as a dynamic tool part, the latest `agent__task_status` as
 * one `data-status` part and tool progress as `data-progress` parts; each master turn is a step.
 */
export class UiChunks {
  private readonly deltas = new ReportDeltas();
  private open: { kind: PartKind; id: string } | undefined;
  private blocks = 0;
  private inStep = false;
  /** Reports of sub-agent sessions by agent path, for their tool part's output. */
  private readonly childReports = new Map<string, string>();

  /** `assistantText`: the master's text outside the report goes out as text parts of its own. */
  constructor(
    private readonly messageId: string,
    private readonly assistantText = false,
  ) {}

  start(): UIMessageChunk[] {
    return [{ type: 'start', messageId: this.messageId }];
  }

  onEvent(event: AgentEvent, meta: AgentEventMeta): UiEventOutcome {
    const chunks: UIMessageChunk[] = [];
    if (event.type === 'turn_started' && meta.isMaster) {
      this.close(chunks);
      if (this.inStep) chunks.push({ type: 'finish-step' });
      chunks.push({ type: 'start-step' });
      this.inStep = true;
      return { chunks };
    }
    if (event.type === 'final_report' && !meta.isMaster) {
      const text = reportText({ finalReport: event.report });
      if (text !== undefined) this.childReports.set(meta.agentPath, text);
      return { chunks };
    }
    if (event.type === 'status' && event.event.type === 'agent_update') {
      const { type: _type, ...data } = event.event;
      chunks.push({ type: 'data-status', id: 'status', data });
      return { chunks };
    }
    if (event.type === 'progress') {
      const progress = event.event;
      if (
        progress.type === 'tool_started' ||
        progress.type === 'tool_finished' ||
        progress.type === 'tool_progress'
      ) {
        this.close(chunks);
        chunks.push(this.toolChunk(progress));
      }
      return { chunks };
    }
    if (event.type === 'assistant_text') {
      if (this.assistantText && meta.isMaster) this.write('notes', event.text, chunks);
      return { chunks };
    }
    const delta = this.deltas.onEvent(event, meta);
    if (delta?.withdrawn !== undefined) {
      const guardrail = event.type === 'output_retracted' && event.slug === GUARDRAIL_SLUG;
      return { chunks, withdrawn: delta.withdrawn, ...(guardrail ? { guardrail } : {}) };
    }
    if (delta?.reasoning !== undefined) this.write('reasoning', delta.reasoning, chunks);
    if (delta?.content !== undefined) this.write('text', delta.content, chunks);
    return { chunks };
  }

  /**
   * The end of a run with an answer: text still owed, a `data-schema-mismatch` part when the
   * report missed its schema (its exit code and errors), then the finish part with the usage.
   */
  finish(result: AgentResult, text: string): UIMessageChunk[] {
    const chunks: UIMessageChunk[] = [];
    const rest = this.deltas.remainder(text);
    if (rest !== undefined && rest !== '') this.write('text', rest, chunks);
    this.endStep(chunks);
    const mismatch = mismatchMarker(result);
    if (mismatch !== undefined)
      chunks.push({ type: 'data-schema-mismatch', id: 'schema-mismatch', data: mismatch });
    chunks.push({ type: 'finish', finishReason: 'stop', messageMetadata: this.metadata(result) });
    return chunks;
  }

  /**
   * The end of a failed run: the error part (a short message, never a stack; a guardrail's trip
   * names the guardrail and its reason), then finish.
   */
  fail(message: string, result?: AgentResult): UIMessageChunk[] {
    const chunks: UIMessageChunk[] = [];
    this.endStep(chunks);
    chunks.push({ type: 'error', errorText: message });
    chunks.push({
      type: 'finish',
      finishReason: 'error',
      ...(result === undefined ? {} : { messageMetadata: this.metadata(result) }),
    });
    return chunks;
  }

  private metadata(result: AgentResult): UiFinishMetadata {
    return { sessionId: result.sessionId, usage: usageTotals(result) };
  }

  private endStep(chunks: UIMessageChunk[]): void {
    this.close(chunks);
    if (this.inStep) chunks.push({ type: 'finish-step' });
    this.inStep = false;
  }

  private write(kind: PartKind, delta: string, chunks: UIMessageChunk[]): void {
    const type = kind === 'notes' ? 'text' : kind;
    if (this.open?.kind !== kind) {
      this.close(chunks);
      this.blocks += 1;
      this.open = { kind, id: `${kind}-${this.blocks}` };
      // The model's notes are text parts of their own, marked: never merged into the report's.
      if (kind === 'notes') chunks.push({ type: 'text-start', id: this.open.id, providerMetadata: NOTES });
      else chunks.push({ type: `${type}-start`, id: this.open.id });
    }
    chunks.push({ type: `${type}-delta`, id: this.open.id, delta });
  }

  private close(chunks: UIMessageChunk[]): void {
    if (this.open === undefined) return;
    const type = this.open.kind === 'notes' ? 'text' : this.open.kind;
    chunks.push({ type: `${type}-end`, id: this.open.id });
    this.open = undefined;
  }

  private toolChunk(progress: ToolProgress): UIMessageChunk {
    // Call ids are unique within a session only: the agent path makes them unique in the tree.
    const toolCallId = `${progress.agentPath}/${progress.callId}`;
    if (progress.type === 'tool_started') {
      return {
        type: 'tool-input-available',
        toolCallId,
        toolName: progress.tool,
        input: progress.arguments ?? {},
        dynamic: true,
        title: progress.agentPath,
      };
    }
    if (progress.type === 'tool_progress') {
      const { type: _type, ...data } = progress;
      return { type: 'data-progress', id: toolCallId, data };
    }
    const message = progress.message ?? '';
    if (message.startsWith('failed')) {
      return { type: 'tool-output-error', toolCallId, errorText: message, dynamic: true };
    }
    if (progress.tool.startsWith(SUB_AGENT_TOOL_PREFIX)) {
      const output: Record<string, unknown> = { message };
      if (progress.structuredOutput !== undefined) output.structuredOutput = progress.structuredOutput;
      const child = `${progress.agentPath}.${progress.tool.slice(SUB_AGENT_TOOL_PREFIX.length)}`;
      const report = this.childReports.get(child);
      if (report !== undefined) output.report = report;
      this.childReports.delete(child);
      return { type: 'tool-output-available', toolCallId, output, dynamic: true };
    }
    // A plain tool's part holds what the tool returned: its structured content, else its text.
    const output = progress.structuredOutput ?? progress.output ?? '';
    return { type: 'tool-output-available', toolCallId, output, dynamic: true };
  }
}
