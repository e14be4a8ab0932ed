import { join } from 'node:path';
import { isStoreId } from '@agent/protocol/util';
import { listSessionRecordFiles, type RecordFileInfo, recordFileName } from '@agent/runtime';
import type { LiveSessionLimits } from './live-session.js';
import type { RecordJob } from './record-worker.js';
import type { SessionSummary, SessionView } from './view-model.js';
import { runInViewerWorker } from './viewer-worker.js';

export interface RecordSourceOptions {
  /** The `persistence.sessionsDir` directories of the agents the server runs. */
  dirs: readonly string[];
  /** Record files listed (the most recently written ones). */
  maxSessions: number;
  limits: LiveSessionLimits;
  /** How often the directories are looked at for new records while a page is open (default 5 s). */
  pollMs?: number;
}

/** Reads one record and makes its view (or summary) off the event loop: undefined when the file is not a readable record, or took too long. */
async function readOffThread<T>(job: RecordJob): Promise<T | undefined> {
  const outcome = await runInViewerWorker<T>(job);
  return outcome.ok ? outcome.value : undefined;
}

interface Known {
  modifiedAt: number;
  size: number;
  /** Undefined for a file that is not a readable record (it is left out of the list). */
  summary: SessionSummary | undefined;
}

/**
 * The finished sessions of `persistence.sessionsDir` (written by this server, an earlier run of
 * it, the CLI or a worker), read with the runtime's reader and its bounds in a worker thread, so
 * the event loop never inflates or parses a record.
 * A record's summary is read once and kept while its file is unchanged; a session in full is read
 * when it is asked for.
 */
export class RecordSessionSource {
  private readonly known = new Map<string, Known>();
  private listing: Promise<SessionSummary[]> | undefined;
  /** The last listing and when it was made: the directories are looked at once per `pollMs` at most. */
  private listed: { at: number; sessions: SessionSummary[] } | undefined;
  private readonly listeners = new Set<(id: string) => void>();
  private poll: NodeJS.Timeout | undefined;
  private lastSeen: string | undefined;

  constructor(private readonly options: RecordSourceOptions) {}

  /**
   * Newest first. The page asks for the list at each change of a live session: the directories
   * are looked at again only when the last listing is older than `pollMs` (or the poll saw a
   * change), and a listing in progress is shared.
   */
  list(): Promise<SessionSummary[]> {
    const listed = this.listed;
    if (listed !== undefined && Date.now() - listed.at < this.pollMs) return Promise.resolve(listed.sessions);
    this.listing ??= this.readList()
      .then((sessions) => {
        this.listed = { at: Date.now(), sessions };
        return sessions;
      })
      .finally(() => {
        this.listing = undefined;
      });
    return this.listing;
  }

  private get pollMs(): number {
    return this.options.pollMs ?? 5000;
  }

  async get(id: string): Promise<SessionView | undefined> {
    if (!isStoreId(id)) return undefined;
    for (const dir of this.options.dirs) {
      const path = join(dir, recordFileName(id));
      // Not in this directory, or not a record this server can read: the next one.
      const view = await readOffThread<SessionView>({ path, limits: this.options.limits, part: 'view' });
      if (view !== undefined) return view;
    }
    return undefined;
  }

  /** While someone listens, the directories are looked at every `pollMs` for new or changed records. */
  subscribe(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    if (this.poll === undefined) {
      this.poll = setInterval(() => void this.checkForChanges(), this.pollMs);
      this.poll.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.poll !== undefined) {
        clearInterval(this.poll);
        this.poll = undefined;
        this.lastSeen = undefined;
      }
    };
  }

  private async files(): Promise<RecordFileInfo[]> {
    const { dirs, maxSessions } = this.options;
    const lists = await Promise.all(
      dirs.map((dir) => listSessionRecordFiles(dir, { max: maxSessions }).catch(() => [])),
    );
    return lists
      .flat()
      .sort((a, b) => b.modifiedAt - a.modifiedAt)
      .slice(0, maxSessions);
  }

  private async readList(): Promise<SessionSummary[]> {
    const files = await this.files();
    const listed = new Set<string>();
    const summaries: SessionSummary[] = [];
    // One record at a time: at most one is in memory in full.
    for (const file of files) {
      listed.add(file.path);
      let known = this.known.get(file.path);
      if (known === undefined || known.modifiedAt !== file.modifiedAt || known.size !== file.size) {
        known = { modifiedAt: file.modifiedAt, size: file.size, summary: await this.readSummary(file.path) };
        this.known.set(file.path, known);
      }
      if (known.summary !== undefined) summaries.push(known.summary);
    }
    for (const path of this.known.keys()) if (!listed.has(path)) this.known.delete(path);
    return summaries.sort((a, b) => b.startedAt - a.startedAt);
  }

  private readSummary(path: string): Promise<SessionSummary | undefined> {
    return readOffThread<SessionSummary>({ path, limits: this.options.limits, part: 'summary' });
  }

  private async checkForChanges(): Promise<void> {
    let files: RecordFileInfo[];
    try {
      files = await this.files();
    } catch {
      return;
    }
    const seen = files.map((file) => `${file.path}:${file.modifiedAt}:${file.size}`).join('\n');
    const first = this.lastSeen === undefined;
    const changed = seen !== this.lastSeen;
    this.lastSeen = seen;
    if (first || !changed) return;
    this.listed = undefined;
    const newest = files[0]?.sessionId ?? '';
    for (const listener of this.listeners) listener(newest);
  }
}
