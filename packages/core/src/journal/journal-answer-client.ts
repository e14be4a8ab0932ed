import type {
  JournaledAnswer,
  LlmAccountingEntry,
  ModelClient,
  ModelStreamEvent,
  StopReason,
} from '@agent/protocol';

const STOP_REASONS: readonly string[] = [
  'stop',
  'length',
  'tool_calls',
  'content_filter',
  'refusal',
  'other',
];

/**
 * A model that answers once with a journaled answer: a resumed session's attempt streams it
 * through the same reader, slot and adoption as a live answer (so a report's text goes out
 * again, its events marked `journal`), and nothing is called.
 */
export class JournalAnswerClient implements ModelClient {
  readonly provider: string;
  readonly model: string;

  constructor(
    readonly answer: JournaledAnswer,
    /** The target's client, named when the journal has no accounting entry. */
    live: ModelClient,
  ) {
    this.provider = answer.accounting?.type === 'llm' ? answer.accounting.provider : live.provider;
    this.model = answer.accounting?.type === 'llm' ? answer.accounting.model : live.model;
  }

  async *stream(): AsyncIterable<ModelStreamEvent> {
    const { message } = this.answer;
    // The conversation keeps the journaled reasoning parts as they are (`reasoning` below): the
    // deltas only show them.
    for (const part of message.reasoning ?? []) yield { type: 'reasoning-delta', text: part.text };
    if (message.content.length > 0) yield { type: 'text-delta', text: message.content };
    for (const call of message.toolCalls ?? []) yield { type: 'tool-call', call };
    const entry = this.journaledEntry;
    if (entry !== undefined) yield { type: 'usage', usage: { ...entry.tokens } };
    const raw = entry?.stopReason;
    yield {
      type: 'finish',
      stopReason: (raw !== undefined && STOP_REASONS.includes(raw) ? raw : 'other') as StopReason,
      ...(raw === undefined ? {} : { rawStopReason: raw }),
    };
  }

  /** The reasoning parts as journaled (the deltas would join parts that carry no signature). */
  get reasoning() {
    return this.answer.message.reasoning ?? [];
  }

  /** The journaled model call's accounting, marked replayed, in this turn and attempt. */
  accounting(fresh: LlmAccountingEntry): LlmAccountingEntry {
    const entry = this.journaledEntry;
    if (entry === undefined) return { ...fresh, replayed: true };
    return { ...entry, turn: fresh.turn, attempt: fresh.attempt, agentPath: fresh.agentPath, replayed: true };
  }

  private get journaledEntry(): LlmAccountingEntry | undefined {
    const entry = this.answer.accounting;
    return entry?.type === 'llm' ? entry : undefined;
  }
}
