import type { TurnJournalEntry } from '@agent/protocol';
import type { ChainableCommander } from 'ioredis';
import { SessionStoreError } from '../errors.js';
import type { RedisClient } from '../redis-cluster.js';
import {
  checkJournalEntry,
  decodeJournalEntry,
  encodeJournalEntry,
  journalBoundError,
  journalKeepFor,
  MAX_JOURNAL_BYTES,
  MAX_JOURNAL_ENTRIES,
} from './journal-records.js';
import type { SessionKeyLayout } from './redis-session-keys.js';
import type { SnapshotKeys } from './snapshot-seal.js';

/**
 * Appends one sealed entry when the journal holds exactly `seq` entries (the number sealed in
 * it) and stays within its bounds; the list and its byte count expire together. Returns
 * `{status, entries, bytes}`: 1 added, 0 `seq` was not the length, -1 a bound.
 */
const APPEND_JOURNAL = `
local n = redis.call('LLEN', KEYS[1])
local bytes = tonumber(redis.call('GET', KEYS[2]) or '0')
if n ~= tonumber(ARGV[2]) then return {0, n, bytes} end
local size = string.len(ARGV[1])
if n + 1 > tonumber(ARGV[3]) or bytes + size > tonumber(ARGV[4]) then return {-1, n, bytes} end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('INCRBY', KEYS[2], size)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return {1, n + 1, bytes + size}
`;

/** Sessions whose next entry number is remembered (a guess: a wrong one costs one more round trip). */
const MAX_REMEMBERED = 10_000;
/** Tries of one append while another writer moves the journal on. */
const MAX_TRIES = 3;

type Run = <T>(what: string, command: () => Promise<T>) => Promise<T>;

/**
 * The turn journals of a Redis session store: per session a list of sealed entries beside its
 * snapshot key (`<prefix><id>#journal`, `#` is in no session id) and its byte count. Appends of
 * one session are queued in this process (parallel tool calls finish at once).
 */
export class RedisJournal {
  private readonly next = new Map<string, number>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly client: RedisClient,
    private readonly settings: {
      layout: SessionKeyLayout;
      /** Returns once the write to the key is safe from a crash of its server (`waitForReplica`). */
      replicate: (key: string) => Promise<void>;
      where: string;
      keys: SnapshotKeys;
      ttlMs: number;
      run: Run;
    },
  ) {}

  /** The session's list key and byte-count key. */
  keysOf(id: string): [string, string] {
    return this.settings.layout.journal(id);
  }

  /** Adds the commands that drop the session's journal to a MULTI (a snapshot written, a session deleted). */
  dropIn(multi: ChainableCommander, id: string): ChainableCommander {
    this.next.set(id, 0);
    return multi.del(...this.keysOf(id));
  }

  async append(entry: TurnJournalEntry): Promise<void> {
    const id = checkJournalEntry(entry, this.settings.where);
    const previous = this.queues.get(id) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(() => this.appendNow(id, entry));
    this.queues.set(id, mine);
    const release = () => {
      if (this.queues.get(id) === mine) this.queues.delete(id);
    };
    mine.then(release, release);
    return mine;
  }

  async load(id: string): Promise<TurnJournalEntry[]> {
    const { run, where, keys } = this.settings;
    const [list] = this.keysOf(id);
    const stored = await run(`reading the turn journal of session ${id}`, () =>
      this.client.lrange(list, 0, -1),
    );
    this.remember(id, stored.length);
    return stored.map((text, seq) => decodeJournalEntry(text, id, seq, where, keys));
  }

  private async appendNow(id: string, entry: TurnJournalEntry): Promise<void> {
    const { run, where, keys, ttlMs } = this.settings;
    let seq = this.next.get(id) ?? 0;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const text = encodeJournalEntry(entry, seq, keys);
      const [status, entries, bytes] = (await run(`adding to the turn journal of session ${id}`, () =>
        this.client.eval(
          APPEND_JOURNAL,
          2,
          ...this.keysOf(id),
          text,
          seq,
          MAX_JOURNAL_ENTRIES,
          MAX_JOURNAL_BYTES,
          journalKeepFor(ttlMs),
        ),
      )) as [number, number, number];
      if (status === 1) {
        await run(`adding to the turn journal of session ${id}`, () =>
          this.settings.replicate(this.keysOf(id)[0]),
        );
        this.remember(id, entries);
        return;
      }
      if (status === -1) {
        throw (
          journalBoundError(where, id, { entries, bytes }, Buffer.byteLength(text)) ??
          new SessionStoreError(
            `${where}: the turn journal of session ${id} is full; the entry was not stored`,
          )
        );
      }
      seq = entries;
    }
    throw new SessionStoreError(
      `${where}: the turn journal of session ${id} kept changing while an entry was added (another process writes it); the entry was not stored`,
    );
  }

  private remember(id: string, entries: number): void {
    if (this.next.size >= MAX_REMEMBERED && !this.next.has(id)) this.next.clear();
    this.next.set(id, entries);
  }
}
