import type { SessionSnapshot, SessionStore, TurnJournalEntry } from '@agent/protocol';
import { createMemoryStore } from './memory-store.js';

/**
 * A memory session store that keeps turn journals as the real stores do (`save` and `delete`
 * drop the session's), and records what it was asked: every snapshot saved, every entry
 * appended, every journal loaded.
 */
export function createJournalStore(): SessionStore & {
  saved: SessionSnapshot[];
  appended: TurnJournalEntry[];
  loads: string[];
  journals: Map<string, TurnJournalEntry[]>;
} {
  const inner = createMemoryStore();
  const journals = new Map<string, TurnJournalEntry[]>();
  const saved: SessionSnapshot[] = [];
  const appended: TurnJournalEntry[] = [];
  const loads: string[] = [];
  return {
    ...inner,
    saved,
    appended,
    loads,
    journals,
    async save(snapshot) {
      saved.push(structuredClone(snapshot));
      journals.delete(snapshot.sessionId);
      await inner.save(snapshot);
    },
    async delete(sessionId) {
      journals.delete(sessionId);
      return inner.delete(sessionId);
    },
    async appendJournal(entry) {
      appended.push(structuredClone(entry));
      journals.set(entry.sessionId, [...(journals.get(entry.sessionId) ?? []), structuredClone(entry)]);
    },
    async loadJournal(sessionId) {
      loads.push(sessionId);
      return structuredClone(journals.get(sessionId) ?? []);
    },
  };
}
