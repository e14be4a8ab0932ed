import { ConfigError, type ConversationExchange } from '@agent/protocol';
import { conversationIdProblem, isRecord, STORE_ID_ALLOWED } from '@agent/protocol/util';
import { SessionStoreError } from '../errors.js';
import { UNFINISHED_SESSION_TTL_MS } from './session-records.js';

/** A conversation keeps at most this many exchanges; the oldest go first. */
export const MAX_CONVERSATION_EXCHANGES = 100;
/** A conversation keeps at most this many bytes of stored exchanges (JSON); the oldest go first. */
export const MAX_CONVERSATION_BYTES = 4 * 1024 * 1024;

/** What a conversation id may be. */
export const CONVERSATION_ID_ALLOWED = STORE_ID_ALLOWED;

/** Throws a `ConfigError` for an id no conversation can have (it is part of a key or a query). */
export function checkConversationId(id: unknown): string {
  const problem = conversationIdProblem(id);
  if (problem === undefined) return id as string;
  throw new ConfigError({ field: 'conversationId', value: id, allowed: STORE_ID_ALLOWED, message: problem });
}

/** A conversation is kept this long after its last exchange: as long as an unfinished session, or the store's TTL if longer. */
export function conversationKeepFor(ttlMs: number): number {
  return Math.max(ttlMs, UNFINISHED_SESSION_TTL_MS);
}

/** One exchange as stored JSON; one over the byte bound alone is refused before anything is written. */
export function encodeExchange(id: string, exchange: ConversationExchange, where: string): string {
  checkConversationId(id);
  const text = JSON.stringify({
    prompt: exchange.prompt,
    report: exchange.report,
    sessionId: exchange.sessionId,
    at: exchange.at,
  });
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_CONVERSATION_BYTES) {
    throw new SessionStoreError(
      `${where}: the exchange of session ${exchange.sessionId} is ${bytes} bytes, over the ${MAX_CONVERSATION_BYTES}-byte bound of conversation ${id}; it was not stored (the earlier exchanges are kept)`,
    );
  }
  return text;
}

/** A stored exchange read back; one that does not parse is reported, never guessed at. */
export function decodeExchange(text: string, id: string, where: string): ConversationExchange {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SessionStoreError(`${where}: a stored exchange of conversation ${id} is not valid JSON`, {
      cause: error,
    });
  }
  if (
    !isRecord(value) ||
    typeof value.prompt !== 'string' ||
    typeof value.report !== 'string' ||
    typeof value.sessionId !== 'string' ||
    typeof value.at !== 'number'
  ) {
    throw new SessionStoreError(`${where}: a stored exchange of conversation ${id} is not an exchange`);
  }
  return { prompt: value.prompt, report: value.report, sessionId: value.sessionId, at: value.at };
}

/** The newest exchanges (encoded) within the count and byte bounds, oldest first. */
export function boundExchanges(encoded: readonly string[]): string[] {
  const kept: string[] = [];
  let bytes = 0;
  for (let i = encoded.length - 1; i >= 0 && kept.length < MAX_CONVERSATION_EXCHANGES; i--) {
    const size = Buffer.byteLength(encoded[i]!);
    if (bytes + size > MAX_CONVERSATION_BYTES) break;
    bytes += size;
    kept.push(encoded[i]!);
  }
  return kept.reverse();
}
