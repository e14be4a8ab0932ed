import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Events one session keeps for replay (default): the oldest go first. */
export const DEFAULT_MCP_REPLAY_EVENTS = 512;
/** Bytes of events one session keeps for replay (default); the newest event is always kept. */
export const DEFAULT_MCP_REPLAY_BYTES = 4 * 1024 * 1024;

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * The events of one MCP session, kept so a client that lost its SSE stream can resume it with
 * `Last-Event-ID` (Streamable HTTP, 2025-11-25). Bounded by count and bytes; ids are
 * `<stream>.<sequence>`, so an id names its stream and its place in the session's order.
 */
export class SessionEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private readonly byId = new Map<string, StoredEvent>();
  private sequence = 0;
  private bytes = 0;

  constructor(
    private readonly maxEvents = DEFAULT_MCP_REPLAY_EVENTS,
    private readonly maxBytes = DEFAULT_MCP_REPLAY_BYTES,
  ) {}

  /** Events held now. */
  get size(): number {
    return this.events.length;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.sequence += 1;
    const event = {
      id: `${streamId}.${this.sequence}`,
      streamId,
      message,
      bytes: JSON.stringify(message).length,
    };
    this.events.push(event);
    this.byId.set(event.id, event);
    this.bytes += event.bytes;
    while (this.events.length > 1 && (this.events.length > this.maxEvents || this.bytes > this.maxBytes)) {
      const dropped = this.events.shift() as StoredEvent;
      this.byId.delete(dropped.id);
      this.bytes -= dropped.bytes;
    }
    return event.id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.byId.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.byId.get(lastEventId);
    if (last === undefined) return '';
    const later = this.events.slice(this.events.indexOf(last) + 1);
    for (const event of later) {
      // Priming events carry no message (`{}`); they only mark a place to resume from.
      if (event.streamId === last.streamId && 'jsonrpc' in event.message) await send(event.id, event.message);
    }
    return last.streamId;
  }
}
