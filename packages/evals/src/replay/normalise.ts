import type {
  ConversationMessage,
  FinalReport,
  SessionTape,
  TapeModelCall,
  ToolDefinition,
} from '@agent/protocol';
import { sessionNonce } from '@agent/testkit';
import { canonicalize } from 'diff';

/** What a session's nonce becomes in compared text: two runs never share one. */
export const NONCE_TOKEN = '<NONCE>';

const FINAL_TAG = /ai-agent-[A-Za-z0-9_-]{1,64}-FINAL/g;

/** Every `ai-agent-<x>-FINAL` tag and every other mention of `nonce`, as `token`. */
export function replaceNonce(text: string, nonce: string | undefined, token: string): string {
  const tagged = text.replace(FINAL_TAG, `ai-agent-${token}-FINAL`);
  return nonce === undefined ? tagged : tagged.replaceAll(nonce, token);
}

/** The nonce as `<NONCE>`, for comparing. */
export function normaliseNonce(text: string, nonce: string | undefined): string {
  return replaceNonce(text, nonce, NONCE_TOKEN);
}

/** The nonce a tape's session told its model (from its system or user messages). */
export function tapeNonce(tape: SessionTape): string | undefined {
  return sessionNonce(tape.messages);
}

/** JSON with sorted keys, two-space indented: the same value always reads the same. */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(
      canonicalize(value, null, null, (_key, item) => item),
      null,
      2,
    ) ?? 'undefined'
  );
}

/**
 * A model request as text for a line diff: the model, the options, the tools offered and every
 * message, with the nonce normalised. Indexes the tape does not have read as `<missing>`.
 */
export function renderRequest(tape: SessionTape, call: TapeModelCall): string {
  const nonce = tapeNonce(tape);
  const lines = [`model: ${call.provider}/${call.model}`, `options: ${canonicalJson(call.options)}`];
  for (const index of call.tools) lines.push(...renderTool(tape.tools[index]));
  call.messages.forEach((index, position) => {
    lines.push(...renderMessage(position, tape.messages[index]));
  });
  return `${normaliseNonce(lines.join('\n'), nonce)}\n`;
}

function renderTool(tool: ToolDefinition | undefined): string[] {
  if (tool === undefined) return ['tool <missing>'];
  return [`tool ${tool.name}: ${tool.description}`, indent(canonicalJson(tool.inputSchema))];
}

function renderMessage(position: number, message: ConversationMessage | undefined): string[] {
  if (message === undefined) return [`[${position}] <missing>`];
  if (message.role === 'tool') {
    const error = message.isError === true ? ' (error)' : '';
    return [`[${position}] tool ${message.toolName} ${message.toolCallId}${error}:`, indent(message.content)];
  }
  const lines = [`[${position}] ${message.role}:`, indent(message.content)];
  if (message.role !== 'assistant') return lines;
  for (const block of message.reasoning ?? []) lines.push(`  reasoning: ${block.text}`);
  // Arguments canonically (a client that hands them over parsed and one that keeps the raw
  // text send the same JSON); raw only when they did not parse.
  for (const call of message.toolCalls ?? [])
    lines.push(
      `  call ${call.name} ${call.id} ${call.parseError === undefined ? canonicalJson(call.arguments) : (call.rawArguments ?? '')}`,
    );
  return lines;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

/** A report as compared: status, format and payload, nonce normalised; `''` without one. */
export function renderReport(report: FinalReport | undefined, nonce: string | undefined): string {
  if (report === undefined) return '';
  const shown = {
    status: report.status,
    format: report.format,
    ...(report.content === undefined ? {} : { content: report.content }),
    ...(report.content_json === undefined ? {} : { content_json: report.content_json }),
  };
  return `${normaliseNonce(canonicalJson(shown), nonce)}\n`;
}
