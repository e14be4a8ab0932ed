import type { CompactionState, ConversationMessage, UserMessage } from '@agent/protocol';

/** What one compaction replaces: `conversation[start, end)`, turns `fromTurn`..`toTurn`. */
export interface CompactionPlan {
  /** The first replaced message (the end of the head). */
  start: number;
  /** The first kept message: the start of the kept turns (an assistant message). */
  end: number;
  fromTurn: number;
  toTurn: number;
  /** The previous summary message, folded into the new summary (a rolling summary). */
  previous: UserMessage | undefined;
  /** The replaced messages, in order (the previous summary first when there is one). */
  replaced: ConversationMessage[];
}

/** The compaction state of a session about to compact for the first time: its head is the opening. */
export function initialCompactionState(conversation: readonly ConversationMessage[]): CompactionState {
  return { head: headOf(conversation), count: 0, exhausted: false, summarized: false, ranges: [] };
}

/**
 * The opening of a conversation (system prompt, earlier exchanges, the user's request):
 * everything before the first model answer.
 */
export function headOf(conversation: readonly ConversationMessage[]): number {
  const first = conversation.findIndex((m) => m.role === 'assistant');
  return first === -1 ? conversation.length : first;
}

/**
 * The messages a compaction would replace, or undefined when there is nothing to compact (no
 * whole turn beyond the last `keep`). A turn is one assistant message and every message after
 * it up to the next assistant message: cutting only at an assistant message keeps every tool
 * call with its result, for every provider.
 */
export function planCompaction(
  conversation: readonly ConversationMessage[],
  state: CompactionState,
  keep: number,
): CompactionPlan | undefined {
  const first = state.head + (state.summarized ? 1 : 0);
  const starts: number[] = [];
  for (let i = first; i < conversation.length; i++) {
    if (conversation[i]!.role === 'assistant') starts.push(i);
  }
  const turns = starts.length - keep;
  if (turns < 1) return undefined;
  const end = starts[turns]!;
  const fromTurn = (state.ranges.at(-1)?.toTurn ?? 0) + 1;
  const previous = state.summarized ? conversation[state.head] : undefined;
  return {
    start: state.head,
    end,
    fromTurn,
    toTurn: fromTurn + turns - 1,
    previous: previous?.role === 'user' ? previous : undefined,
    replaced: conversation.slice(state.head, end),
  };
}
