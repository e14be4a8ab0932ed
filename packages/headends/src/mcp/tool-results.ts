import type { AgentResult } from '@agent/protocol';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { guardrailTrip } from '../guardrail-trip.js';
import { failureMessage, inputRejection, reportText, schemaMismatch, schemaMismatchLine } from '../usage.js';

/** The MCP tool that decides the calls a paused session waits for. */
export const RESUME_TOOL_NAME = 'resume_session';

export function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * A paused run as a tool result: what it waits for and how to decide it (`resume_session`), in
 * the text for a model and in `structuredContent` for a program. Not an error: nothing failed.
 */
function pausedResult(result: AgentResult): CallToolResult {
  const pending = result.success ? [] : (result.pendingApprovals ?? []);
  const calls = pending.map((call) => `- ${call.callId}: ${call.tool} ${JSON.stringify(call.arguments)}`);
  const text = [
    `Session ${result.sessionId} is waiting for approval of ${pending.length === 1 ? 'this call' : 'these calls'}:`,
    ...calls,
    `Decide with the ${RESUME_TOOL_NAME} tool: { "sessionId": "${result.sessionId}", "decisions": { "<callId>": { "approved": true } or { "approved": false, "reason": "..." } } }.`,
  ].join('\n');
  return {
    content: [{ type: 'text', text }],
    structuredContent: {
      status: 'awaiting_approval',
      sessionId: result.sessionId,
      exitCode: result.exitCode,
      pendingApprovals: pending,
    },
  };
}

/** What a finished (or paused) run answers as an MCP tool result. */
export function agentToolResult(result: AgentResult): CallToolResult {
  const rejection = inputRejection(result);
  if (rejection !== undefined) return errorResult(rejection);
  if (result.exitCode === 'EXIT-AWAITING-APPROVAL') return pausedResult(result);
  const trip = guardrailTrip(result);
  if (trip !== undefined) {
    return {
      ...errorResult(trip.message),
      structuredContent: { status: 'guardrail_tripped', guardrail: trip.trip },
    };
  }
  const text = reportText(result);
  if (text === undefined) return errorResult(failureMessage(result));
  const mismatch = schemaMismatch(result);
  if (mismatch !== undefined) {
    // The model's answer, but not what the caller's schema asked for: the report, then why.
    const why = `the report does not match the output schema (${result.exitCode}): ${schemaMismatchLine(mismatch)}`;
    return {
      isError: true,
      content: [
        { type: 'text', text },
        { type: 'text', text: why },
      ],
    };
  }
  return { isError: !result.success, content: [{ type: 'text', text }] };
}
