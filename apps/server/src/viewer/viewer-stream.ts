import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, type Replied } from './http-reply.js';
import type { SessionSource } from './session-source.js';
import { ListDiff, SessionDiff, type StreamUpdate } from './view-diff.js';

export interface StreamLimits {
  /** SSE streams open at once (default 32); more are refused with 429. */
  maxStreams?: number;
  /**
   * A stream whose reader has not taken what was last sent for this long is closed (default
   * 30 s). Until then nothing more is written to it: at most one update waits per reader.
   */
  stalledStreamMs?: number;
}

export const DEFAULT_MAX_STREAMS = 32;
export const DEFAULT_STALLED_STREAM_MS = 30_000;

/** Changes close together are sent as one update, at most this often. */
const COALESCE_MS = 150;

/**
 * `GET /api/stream[?session=<id>]`: Server-Sent Events. The session list once (`list`), then
 * what changed in it (`list-patch`); with `session`, that session once (`session`), then its
 * new and changed nodes (`session-patch`). A reader that stops reading gets nothing more until
 * it drains, and is closed after `stalledStreamMs`.
 */
export function openStream(
  request: IncomingMessage,
  response: ServerResponse,
  options: StreamLimits & { source: SessionSource },
  streams: Set<ServerResponse>,
  url: URL,
): Replied {
  const max = options.maxStreams ?? DEFAULT_MAX_STREAMS;
  if (streams.size >= max) {
    return json(response, 429, { error: `too many live views open (at most ${max}): close one and retry` });
  }
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    connection: 'keep-alive',
  });
  streams.add(response);
  const { source } = options;
  const watched = url.searchParams.get('session');
  const stream = new LiveStream(
    response,
    source,
    watched,
    options.stalledStreamMs ?? DEFAULT_STALLED_STREAM_MS,
  );
  stream.mark(true, true);
  let timer: NodeJS.Timeout | undefined;
  let sessionDirty = false;
  const unsubscribe = source.subscribe((id) => {
    if (id === watched) sessionDirty = true;
    timer ??= setTimeout(() => {
      timer = undefined;
      const dirty = sessionDirty;
      sessionDirty = false;
      stream.mark(true, dirty);
    }, COALESCE_MS);
  });
  const ping = setInterval(() => stream.ping(), 15_000);
  const close = () => {
    unsubscribe();
    clearInterval(ping);
    if (timer !== undefined) clearTimeout(timer);
    stream.stop();
    streams.delete(response);
  };
  request.on('close', close);
  response.on('close', close);
  return true;
}

/** One reader's stream: what is due, what it was sent (for deltas), and whether it keeps up. */
class LiveStream {
  private listDue = false;
  private sessionDue = false;
  private busy = false;
  private stalled: NodeJS.Timeout | undefined;
  private readonly lists = new ListDiff();
  private readonly sessions = new SessionDiff();

  constructor(
    private readonly response: ServerResponse,
    private readonly source: SessionSource,
    private readonly watched: string | null,
    private readonly stalledMs: number,
  ) {
    response.on('drain', () => {
      clearTimeout(this.stalled);
      this.stalled = undefined;
      void this.flush();
    });
  }

  /** The list, the watched session, or both changed: send what changed when the reader can take it. */
  mark(list: boolean, session: boolean): void {
    this.listDue ||= list;
    this.sessionDue ||= session;
    void this.flush();
  }

  ping(): void {
    if (!this.response.writableNeedDrain) this.write(': ping\n\n');
  }

  stop(): void {
    clearTimeout(this.stalled);
  }

  /** Updates are read (the list may come from disk) and written one after another, in order. */
  private async flush(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while ((this.listDue || this.sessionDue) && this.ready()) {
        const list = this.listDue;
        const session = this.sessionDue && this.watched !== null;
        this.listDue = false;
        this.sessionDue = false;
        if (list) this.send(this.lists.next(await this.source.list()));
        const view = session ? await this.source.get(this.watched as string) : undefined;
        if (view !== undefined) this.send(this.sessions.next(view));
      }
    } catch {
      // The next change sends a fresh update.
    } finally {
      this.busy = false;
    }
  }

  private ready(): boolean {
    return !this.response.writableNeedDrain && !this.response.destroyed;
  }

  private send(update: StreamUpdate | undefined): void {
    if (update !== undefined) this.write(`event: ${update.event}\ndata: ${JSON.stringify(update.data)}\n\n`);
  }

  /** Writes; when the reader has not taken it all, waits for it (`drain`) at most `stalledMs`. */
  private write(text: string): void {
    if (this.response.write(text) || this.stalled !== undefined) return;
    this.stalled = setTimeout(() => this.response.destroy(), this.stalledMs);
  }
}
