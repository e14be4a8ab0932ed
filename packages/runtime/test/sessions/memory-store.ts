import type { SessionSnapshot, SessionStore } from '@agent/protocol';

/** A session store in a Map, that remembers whether it was closed (the caller owns it). */
export function createMemoryStore(): SessionStore & { closed: boolean } {
  const snapshots = new Map<string, SessionSnapshot>();
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
    async close() {
      this.closed = true;
    },
  };
}
