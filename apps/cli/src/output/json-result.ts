import {
  type AgentResult,
  type ConversationMessage,
  FINAL_REPORT_TOOL,
  type ToolCall,
} from '@agent/protocol';

/** What stands in the conversation, in `--json` output, for the report printed under `finalReport`. */
export const REPORT_REFERENCE = '[the final report: see finalReport]';

/** Tool-call fields that carry the report's payload (`@agent/final-report` reads these). */
const PAYLOAD_FIELDS = ['report_content', 'content', 'content_json', 'messages'] as const;

/**
 * The result as `--json` prints it, with the report's text written once. The session's last
 * assistant message carries the report as the model sent it (inside the FINAL tag, as the
 * adopted plain text, or in an `agent__final_report` call); there it is replaced by
 * `REPORT_REFERENCE`. Everything else is printed as the session returned it.
 */
export function resultForJson(result: AgentResult): AgentResult {
  const report = result.finalReport;
  if (report === undefined || report.synthetic === true) return result;
  const index = result.conversation.findLastIndex((message) => message.role === 'assistant');
  const message = result.conversation[index];
  if (message === undefined || message.role !== 'assistant') return result;
  const text = report.content;
  const at = text === undefined || text.length === 0 ? -1 : message.content.indexOf(text);
  const content =
    at === -1 || text === undefined
      ? message.content
      : `${message.content.slice(0, at)}${REPORT_REFERENCE}${message.content.slice(at + text.length)}`;
  const reportCall = message.toolCalls?.some((call) => call.name === FINAL_REPORT_TOOL) === true;
  if (at === -1 && !reportCall) return result;
  const replaced: ConversationMessage = {
    ...message,
    content,
    ...(reportCall ? { toolCalls: message.toolCalls?.map(withoutPayload) } : {}),
  };
  const conversation = [...result.conversation];
  conversation[index] = replaced;
  return { ...result, conversation };
}

function withoutPayload(call: ToolCall): ToolCall {
  if (call.name !== FINAL_REPORT_TOOL) return call;
  const args: Record<string, unknown> = { ...call.arguments };
  for (const field of PAYLOAD_FIELDS) if (field in args) args[field] = REPORT_REFERENCE;
  const { rawArguments: _raw, ...rest } = call;
  return { ...rest, arguments: args };
}
