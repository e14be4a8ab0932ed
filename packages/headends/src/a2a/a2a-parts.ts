import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type Task, type TaskState } from '@a2a-js/sdk';
import type { AgentEvent, AgentEventMeta, AgentResult, FinalReport, OutputFormat } from '@agent/protocol';

/** The media type of a report in each output format: what the card and the artifact's part say. */
export function formatMediaType(format: OutputFormat): string {
  switch (format) {
    case 'json':
      return 'application/json';
    case 'markdown':
    case 'markdown+mermaid':
      return 'text/markdown';
    case 'slack-block-kit':
      return 'application/vnd.slack.blocks+json';
    default:
      return 'text/plain';
  }
}

export function textPart(text: string, mediaType = 'text/plain'): Part {
  return { content: { $case: 'text', value: text }, mediaType, filename: '', metadata: {} };
}

export function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, mediaType: 'application/json', filename: '', metadata: {} };
}

/** A message from the agent on a task (status messages, the approval question). */
export function agentMessage(taskId: string, contextId: string, parts: Part[]): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A task in `state` with an optional agent message (the first event of every execution). */
export function taskIn(
  task: { id: string; contextId: string; history?: Message[] },
  state: TaskState,
  message?: Message,
): Task {
  return {
    id: task.id,
    contextId: task.contextId,
    status: { state, message, timestamp: new Date().toISOString() },
    artifacts: [],
    history: task.history ?? [],
    metadata: {},
  };
}

/**
 * The prompt a user message carries: its text parts joined; a lone data part as its JSON text
 * (agents whose input is JSON). Undefined when it has neither.
 */
export function messagePrompt(message: Message): string | undefined {
  const texts: string[] = [];
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'text') texts.push(content.value);
    else if (content?.$case === 'data') texts.push(JSON.stringify(content.value));
  }
  const prompt = texts.join('\n').trim();
  return prompt === '' ? undefined : prompt;
}

/** The parts of a report: one data part for a json report, else one text part of the format's media type. */
export function reportParts(report: FinalReport): Part[] {
  if (report.format === 'json' && report.content_json !== undefined) return [dataPart(report.content_json)];
  if (report.format === 'slack-block-kit' && report.content_json !== undefined) {
    return [textPart(JSON.stringify(report.content_json), formatMediaType('slack-block-kit'))];
  }
  return [textPart(report.content ?? '', formatMediaType(report.format))];
}

/** The report a result answers with (none for a refused attempt, whose payload is no answer). */
export function answeredReport(result: Pick<AgentResult, 'finalReport'>): FinalReport | undefined {
  const report = result.finalReport;
  return report === undefined || report.origin === 'rejected' ? undefined : report;
}

/** Longest progress line sent in a status message. */
const MAX_PROGRESS_CHARS = 500;

/** The line a status update says for a run event, when it says something new. */
export function progressText(event: AgentEvent, meta: AgentEventMeta): string | undefined {
  const who = meta.isMaster ? '' : ` (${meta.agentPath})`;
  let line: string | undefined;
  if (event.type === 'status' && event.event.type === 'agent_update') {
    line = event.event.now ?? event.event.message;
  } else if (event.type === 'progress' && event.event.type === 'tool_started') {
    line = `running ${event.event.tool}`;
  } else if (event.type === 'progress' && event.event.type === 'tool_finished') {
    line = `finished ${event.event.tool}`;
  }
  if (line === undefined || line.trim() === '') return undefined;
  return `${line.slice(0, MAX_PROGRESS_CHARS)}${who}`;
}
