import type { ConversationExchange, SessionSnapshot, SessionStore } from '@agent/protocol';

/** A session store in Maps, that remembers whether it was closed (the caller owns it). */
export function createMemoryStore(): SessionStore & { closed: boolean } {
  const snapshots = new Map<string, SessionSnapshot>();
  const conversations = new Map<string, ConversationExchange[]>();
  return {
    name: 'memory',
    location: 'memory',
    closed: false,
    async save(snapshot) {
      snapshots.set(snapshot.sessionId, structuredClone(snapshot));
    },
    async load(sessionId) {
      return snapshots.get(sessionId);
    },
    async delete(sessionId) {
      return snapshots.delete(sessionId);
    },
    async loadConversation(conversationId) {
      return structuredClone(conversations.get(conversationId) ?? []);
    },
    async appendExchange(conversationId, exchange) {
      conversations.set(conversationId, [
        ...(conversations.get(conversationId) ?? []),
        structuredClone(exchange),
      ]);
    },
    async deleteConversation(conversationId) {
      return conversations.delete(conversationId);
    },
    async close() {
      this.closed = true;
    },
  };
}
