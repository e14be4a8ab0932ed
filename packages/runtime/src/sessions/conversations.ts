import type { AgentEventMeta, AgentResult, ConversationExchange } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { reportBody } from '../orchestration/blocks.js';
import type { RunScope } from '../run-scope.js';
import type { RunnerSessions } from './runner-sessions.js';

/** Snapshot labels that let a resumed run add its exchange to the conversation it was started in. */
export const CONVERSATION_LABEL = 'conversationId';
export const PROMPT_LABEL = 'conversationPrompt';

/**
 * A run's conversation (`--conversation NAME`, `conversationId`): its earlier exchanges come
 * from the session store before the run, and its prompt and final report go back after it.
 */
export class RunConversation {
  constructor(
    private readonly sessions: RunnerSessions,
    readonly id: string,
    readonly prompt: string,
  ) {}

  /** The earlier exchanges; rejects with the store's error (naming it) when it cannot be read. */
  async exchanges(): Promise<ConversationExchange[]> {
    return (await this.sessions.store()).loadConversation(this.id);
  }

  /** The labels a snapshot of the run carries, so `resume` can finish the exchange. */
  labels(): Record<string, string> {
    return { [CONVERSATION_LABEL]: this.id, [PROMPT_LABEL]: this.prompt };
  }

  /**
   * Adds the run's exchange when it ended with a report; a store that fails is a `WRN
   * agent:conversation` line (the run's result stands).
   */
  async record(result: AgentResult, scope: RunScope, meta: AgentEventMeta): Promise<void> {
    if (!result.success) return;
    const exchange: ConversationExchange = {
      prompt: this.prompt,
      report: reportBody(result.finalReport),
      sessionId: result.sessionId,
      at: Date.now(),
    };
    try {
      await (await this.sessions.store()).appendExchange(this.id, exchange);
    } catch (error) {
      scope.log(
        {
          severity: 'WRN',
          direction: 'response',
          type: 'llm',
          remoteIdentifier: 'agent:conversation',
          message: `this run was not added to conversation ${this.id}: ${errorMessage(error)}`,
        },
        meta,
      );
    }
  }

  /** The conversation a stored session was started in, from its snapshot's labels. */
  static fromLabels(
    sessions: RunnerSessions,
    labels: Record<string, string> | undefined,
  ): RunConversation | undefined {
    const id = labels?.[CONVERSATION_LABEL];
    const prompt = labels?.[PROMPT_LABEL];
    return id === undefined || prompt === undefined ? undefined : new RunConversation(sessions, id, prompt);
  }
}
