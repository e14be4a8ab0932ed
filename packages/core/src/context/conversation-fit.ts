import type { ConversationExchange, ConversationMessage, LogEntry } from '@agent/protocol';

/** What the fit needs of the session: the estimator, and the next request's tools, notice and limit. */
export interface ExchangeFitter {
  requestBudget(): { extra: number; limit: number };
  estimate(messages: readonly ConversationMessage[]): number;
}

/**
 * The first request's conversation with a conversation's earlier exchanges (`exchanges`) as
 * user/assistant pairs after the system prompt. They get what the context guard's limit leaves
 * after the answer's reserve, the tool definitions, the turn notice and the rest of the opening;
 * the oldest that do not fit are dropped, and a `WRN agent:conversation` line says how many.
 */
export function withExchanges(
  opening: readonly ConversationMessage[],
  exchanges: readonly ConversationExchange[] | undefined,
  fitter: ExchangeFitter,
  recorder: { log(entry: Omit<LogEntry, 'timestamp'>): unknown },
): readonly ConversationMessage[] {
  if (exchanges === undefined || exchanges.length === 0) return opening;
  const { extra, limit } = fitter.requestBudget();
  let used = extra + fitter.estimate(opening);
  const kept: ConversationMessage[][] = [];
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const pair = exchangeMessages(exchanges[i]!);
    const cost = fitter.estimate(pair);
    if (used + cost > limit) break;
    used += cost;
    kept.push(pair);
  }
  const dropped = exchanges.length - kept.length;
  if (dropped > 0) {
    recorder.log({
      severity: 'WRN',
      direction: 'request',
      type: 'llm',
      remoteIdentifier: 'agent:conversation',
      message: `conversation: dropped the ${dropped} oldest of ${exchanges.length} earlier exchanges to fit the context window (${limit} tokens usable, about ${used} taken by the first request)`,
    });
  }
  const at = opening[0]?.role === 'system' ? 1 : 0;
  return [...opening.slice(0, at), ...kept.reverse().flat(), ...opening.slice(at)];
}

function exchangeMessages(exchange: ConversationExchange): ConversationMessage[] {
  return [
    { role: 'user', content: exchange.prompt },
    { role: 'assistant', content: exchange.report },
  ];
}

/** Why `exchanges` cannot be used; undefined when it can. */
export function exchangesProblem(exchanges: unknown): string | undefined {
  if (exchanges === undefined) return undefined;
  if (!Array.isArray(exchanges)) return 'a list of { prompt, report } exchanges';
  const bad = exchanges.findIndex(
    (e) =>
      typeof e !== 'object' || e === null || typeof e.prompt !== 'string' || typeof e.report !== 'string',
  );
  return bad < 0 ? undefined : `a list of { prompt, report } exchanges (item ${bad} is not one)`;
}
