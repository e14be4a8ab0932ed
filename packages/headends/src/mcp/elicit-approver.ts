import type { ApprovalDecision } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ServedApprovalRequest, ServedApprover } from '../agent-catalog.js';
import { HeadendError } from '../headend-error.js';

export { DEFAULT_MCP_APPROVAL_TIMEOUT_MS } from './session-counts.js';

/** Longest arguments text shown in the question (the client has the call id to look further). */
const SHOWN_ARGUMENTS_CHARS = 2000;

/** The form the client shows: allow or not, and a reason for a denial. */
const APPROVAL_FORM = {
  type: 'object' as const,
  properties: {
    approve: { type: 'boolean' as const, title: 'Allow this call', default: false },
    reason: { type: 'string' as const, title: 'Reason (told to the agent when you deny)', maxLength: 2000 },
  },
  required: ['approve'],
};

/** True when the client declared the elicitation capability (form mode) at initialize. */
export function clientElicits(server: Server): boolean {
  const elicitation = server.getClientCapabilities()?.elicitation;
  if (elicitation === undefined) return false;
  // `{}` means form mode (2025-06-18); 2025-11-25 may name the modes it takes.
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

function question(request: ServedApprovalRequest): string {
  const args = JSON.stringify(request.arguments);
  const shown = args.length > SHOWN_ARGUMENTS_CHARS ? `${args.slice(0, SHOWN_ARGUMENTS_CHARS)}...` : args;
  return `The agent ${request.agentPath} wants to call ${request.tool} ${shown} (call ${request.callId}, session ${request.sessionId}). Allow it?`;
}

/**
 * An approver that asks the MCP client (`elicitation/create`, on the stream of the tool call
 * `relatedRequestId`) for each call. Declined or cancelled: denied. No answer within
 * `timeoutMs`: denied, saying so (as the library's approver timeout). A question timed out or
 * aborted is withdrawn by the SDK itself: it sends `notifications/cancelled` for its request id
 * on the same stream (`test/mcp-approvals.test.ts` checks it on the wire).
 */
export function elicitingApprover(
  server: Server,
  relatedRequestId: RequestId,
  timeoutMs: number,
): ServedApprover {
  return async (request, { signal }): Promise<ApprovalDecision> => {
    let answer: Awaited<ReturnType<Server['elicitInput']>>;
    try {
      answer = await server.elicitInput(
        { mode: 'form', message: question(request), requestedSchema: APPROVAL_FORM },
        { relatedRequestId, signal, timeout: timeoutMs },
      );
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        return { approved: false, reason: `no decision within ${timeoutMs} ms` };
      }
      throw new HeadendError('approval_failed', `asking the client failed: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    if (answer.action === 'decline') return { approved: false, reason: 'the user declined this call' };
    if (answer.action === 'cancel') return { approved: false, reason: 'the user dismissed the question' };
    const content = answer.content ?? {};
    if (content.approve === true) return { approved: true };
    const reason =
      typeof content.reason === 'string' && content.reason.trim() !== '' ? content.reason : undefined;
    return reason === undefined ? { approved: false } : { approved: false, reason };
  };
}
