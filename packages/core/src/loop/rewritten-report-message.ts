import {
  type AssistantMessage,
  type FinalReport,
  isFinalReportName,
  REPORT_BACK_TOOL,
  type ToolCall,
} from '@agent/protocol';

/**
 * The assistant message the conversation keeps once a guardrail rewrote the report: the
 * model's own report is what the guardrail took out (PII, a banned phrase), so it is replaced
 * by the committed one, in the report call's arguments or, for a report written as text, as
 * the message's text. Reasoning goes too: it may quote the original.
 */
export function rewrittenReportMessage(assistant: AssistantMessage, report: FinalReport): AssistantMessage {
  const text =
    report.content ?? (report.content_json === undefined ? '' : JSON.stringify(report.content_json));
  const isReportCall = (call: ToolCall) => isFinalReportName(call.name) || call.name === REPORT_BACK_TOOL;
  const calls = assistant.toolCalls;
  if (calls === undefined || !calls.some(isReportCall)) return { role: 'assistant', content: text };
  return {
    role: 'assistant',
    content: assistant.content,
    toolCalls: calls.map((call) =>
      isReportCall(call)
        ? {
            id: call.id,
            name: call.name,
            arguments: {
              report_format: report.format,
              ...(report.content_json === undefined
                ? { report_content: text }
                : { content_json: report.content_json }),
            },
          }
        : call,
    ),
  };
}
