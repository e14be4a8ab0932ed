import { createHash } from 'node:crypto';
import {
  type AgentEventMeta,
  type AgentResult,
  type ConversationExchange,
  SESSION_OWNER_LABEL,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { reportBody } from '../orchestration/blocks.js';
import type { RunScope } from '../runner/run-scope.js';
import type { RunnerSessions } from './runner-sessions.js';

/** Snapshot labels that let a resumed run add its exchange to the conversation it was started in. */
export const CONVERSATION_LABEL = 'conversationId';
export const PROMPT_LABEL = 'conversationPrompt';

/** Longest store id (`STORE_ID_ALLOWED`). */
const MAX_STORE_ID = 128;

/**
 * Where an owner's conversation is kept: `<owner>:<id>`, so two owners naming the same id never
 * share one (an id too long for that is replaced by its hash). No owner: the id itself.
 */
export function conversationStoreId(id: string, owner: string | undefined): string {
  if (owner === undefined) return id;
  const scoped = `${owner}:${id}`;
  if (scoped.length <= MAX_STORE_ID) return scoped;
  return `${owner}:sha256-${createHash('sha256').update(id).digest('hex').slice(0, 48)}`;
}

/**
 * A run's conversation (`--conversation NAME`, `conversationId`): its earlier exchanges come
 * from the session store before the run, and its prompt and final report go back after it. A
 * run with an owner reads and writes that owner's conversation of the id only.
 */
export class RunConversation {
  private readonly storeId: string;

  constructor(
    private readonly sessions: RunnerSessions,
    readonly id: string,
    readonly prompt: string,
    owner?: string,
  ) {
    this.storeId = conversationStoreId(id, owner);
  }

  /** The earlier exchanges; rejects with the store's error (naming it) when it cannot be read. */
  async exchanges(): Promise<ConversationExchange[]> {
    return (await this.sessions.store()).loadConversation(this.storeId);
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
      await (await this.sessions.store()).appendExchange(this.storeId, exchange);
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
    if (id === undefined || prompt === undefined) return undefined;
    return new RunConversation(sessions, id, prompt, labels?.[SESSION_OWNER_LABEL]);
  }
}
