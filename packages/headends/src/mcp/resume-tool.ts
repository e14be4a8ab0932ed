import type { AgentResult } from '@agent/protocol';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentCatalog, ServedRunOptions } from '../agent-catalog.js';
import { type Principal, sessionOwner } from '../principal.js';
import { checkDecisions } from '../sessions/decisions.js';
import { claimSession, findSession } from '../sessions/find-session.js';
import { errorResult, RESUME_TOOL_NAME } from './tool-results.js';

/** The tool a client without elicitation decides a paused session's calls with. */
export const RESUME_TOOL = {
  name: RESUME_TOOL_NAME,
  description:
    'Decides the tool calls a paused agent session waits for (an agent tool answered "waiting for approval" with a session id), then continues the session and answers its report.',
  inputSchema: {
    type: 'object' as const,
    properties: {
      sessionId: { type: 'string', description: 'The paused session, as the agent tool answered it.' },
      decisions: {
        type: 'object',
        description:
          'By call id: { "approved": true }, or { "approved": false, "reason": "..." } (the agent is told the reason).',
        additionalProperties: {
          type: 'object',
          properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
          required: ['approved'],
        },
      },
    },
    required: ['sessionId', 'decisions'],
  },
};

/** Waits for a slot, then runs `start` with the run options every call of the session shares. */
export type RunAdmitted<Extra> = (
  extra: Extra,
  start: (runOptions: ServedRunOptions) => Promise<AgentResult>,
) => Promise<CallToolResult>;

/**
 * `resume_session`: checks the decisions against the stored session (each must name a pending
 * call), then continues it in this request. Listed only when an agent keeps sessions. Only the
 * MCP session's principal's sessions are found (or every one, for an operator).
 */
export function resumeSessionTool<Extra>(
  catalog: AgentCatalog,
  principal: Principal,
  runAdmitted: RunAdmitted<Extra>,
) {
  return {
    listed: () => catalog.list().some((info) => catalog.get(info.name)?.sessions !== undefined),
    async call(request: CallToolRequest, extra: Extra): Promise<CallToolResult> {
      const { sessionId, decisions } = request.params.arguments ?? {};
      if (typeof sessionId !== 'string' || sessionId === '') {
        return errorResult('"sessionId" must be the id of a paused session');
      }
      const claim = claimSession(catalog, sessionId);
      if (claim === undefined) {
        // Only its owner (or an operator) learns that a session is being resumed.
        const seen = await findSession(catalog, sessionId, principal);
        if (seen.kind !== 'found') return errorResult(seen.message);
        return errorResult(`session ${JSON.stringify(sessionId)} is being resumed by another request`);
      }
      try {
        const found = await findSession(catalog, sessionId, principal);
        if (found.kind !== 'found') return errorResult(found.message);
        const checked = checkDecisions(found.snapshot, decisions);
        if (!checked.ok) return errorResult(checked.message);
        const sessions = found.agent.sessions!;
        const owner = sessionOwner(found.snapshot);
        return await runAdmitted(extra, (runOptions) =>
          sessions.resume(sessionId, { ...runOptions, approvals: checked.decisions, owner }),
        );
      } finally {
        claim.release();
      }
    },
  };
}
