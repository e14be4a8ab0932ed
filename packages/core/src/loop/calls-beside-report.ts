import type { GuardrailTrip, OpNode, ToolCall, ToolResultMessage } from '@agent/protocol';
import type { ToolExecutor } from '../tools/tool-executor.js';

export const NOT_ON_FINAL_TURN = '(tool failed: no tools can run on the final turn)';

export interface CallsBesideReport {
  calls: readonly ToolCall[];
  /** The calls that carry the report itself (`agent__final_report`, `report_back`): never run as tools. */
  isReportCall: (call: ToolCall) => boolean;
  /** What a report call is answered with. */
  reportAnswer: string;
  isFinal: boolean;
  /** Calls that may not run, by id, with why (they need approval, which a report cannot wait for). */
  denied?: ReadonlyMap<string, string>;
}

/**
 * The tool messages for an answer that committed a report. The other native calls of that
 * answer run like any turn's calls (seed 003: native tool calls are kept beside the XML report;
 * seed 004 decision 3: the tools of the reporting turn still run), so their results, events and
 * accounting are recorded before the report commits. On the final turn none run: no tools were
 * offered there. Messages come in the order of the calls.
 */
export async function answerCallsBesideReport(
  input: CallsBesideReport,
  executor: ToolExecutor,
  turnNode: OpNode,
): Promise<{ messages: ToolResultMessage[]; guardrail?: GuardrailTrip }> {
  const others = input.calls.filter((call) => !input.isReportCall(call));
  const turn = others.length > 0 && !input.isFinal ? await executor.runTurn(others, turnNode, input.denied) : undefined;
  if (turn?.guardrail !== undefined) return { messages: turn.messages, guardrail: turn.guardrail };
  const ran = turn?.messages ?? [];
  let next = 0;
  const messages = input.calls.map((call): ToolResultMessage => {
    if (!input.isReportCall(call)) {
      const message = ran[next++];
      if (message !== undefined) return message;
    }
    const answer = { role: 'tool' as const, toolCallId: call.id, toolName: call.name };
    return input.isReportCall(call)
      ? { ...answer, content: input.reportAnswer }
      : { ...answer, content: NOT_ON_FINAL_TURN, isError: true };
  });
  return { messages };
}
