import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/** One Web API call the fake Slack received. */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  authorization: string | undefined;
}

/** A message kept in a fake thread. */
export interface FakeSlackMessage {
  ts: string;
  user?: string;
  bot_id?: string;
  text: string;
}

/** Who the bot is on the fake Slack (`auth.test`). */
export const FAKE_SLACK_BOT = Object.freeze({ userId: 'UBOT', botId: 'BBOT' });

/**
 * A fake Slack on loopback for the real SDKs: a Web API (`/api/<method>`, form or JSON bodies)
 * that records every call, and a Socket Mode WebSocket server (`apps.connections.open` hands
 * out its URL) that says hello, pings, delivers envelopes and waits for their acks.
 */
export class FakeSlack {
  readonly calls: SlackCall[] = [];
  readonly channels = new Map<string, string>();
  readonly threads = new Map<string, FakeSlackMessage[]>();
  /** Socket Mode connections made so far. */
  connections = 0;
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private socket: WebSocket | undefined;
  private readonly acks = new Map<string, (payload: unknown) => void>();
  private readonly waiters: (() => void)[] = [];
  private nextTs = 1000;
  private readonly overrides = new Map<string, Record<string, unknown>>();
  private pinger: NodeJS.Timeout | undefined;

  constructor() {
    this.http = createServer((request, response) => {
      void this.answer(request).then((body) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      });
    });
    this.wss = new WebSocketServer({ server: this.http, path: '/link' });
    this.wss.on('connection', (socket) => {
      this.connections += 1;
      this.socket = socket;
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { envelope_id?: string; payload?: unknown };
        if (message.envelope_id !== undefined) this.acks.get(message.envelope_id)?.(message.payload);
      });
      socket.send(JSON.stringify({ type: 'hello', num_connections: 1 }));
      for (const waiter of this.waiters.splice(0)) waiter();
    });
    this.pinger = setInterval(() => this.socket?.ping(), 2000);
  }

  /** Listens on a free loopback port. */
  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api/`;
  }

  /** Calls of one method, in order. */
  callsOf(method: string): SlackCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Waits for a Socket Mode connection with more than `count` made so far. */
  async connected(count = 0): Promise<void> {
    while (this.connections <= count || this.socket?.readyState !== 1) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Delivers an envelope over Socket Mode; resolves with the ack's payload. */
  async deliver(type: 'events_api' | 'slash_commands', payload: Record<string, unknown>): Promise<unknown> {
    await this.connected();
    const envelopeId = randomUUID();
    const acked = new Promise<unknown>((resolve) => this.acks.set(envelopeId, resolve));
    this.socket?.send(
      JSON.stringify({
        envelope_id: envelopeId,
        type,
        payload,
        accepts_response_payload: type !== 'events_api',
      }),
    );
    const payloadOfAck = await acked;
    this.acks.delete(envelopeId);
    return payloadOfAck;
  }

  /** Delivers an Events API event (`app_mention`, `message`). */
  event(event: Record<string, unknown>): Promise<unknown> {
    return this.deliver('events_api', { type: 'event_callback', event_id: randomUUID(), event });
  }

  /**
   * From now on, answers `method` with `body` instead of the usual answer (a Slack that answers
   * oddly: `answerWith('auth.test', { ok: true })` leaves out the bot's user id).
   */
  answerWith(method: string, body: Record<string, unknown>): void {
    this.overrides.set(method, body);
  }

  /** Drops the Socket Mode connection the way a network failure does (no close frame). */
  dropSocket(): void {
    this.socket?.terminate();
    this.socket = undefined;
  }

  /** Waits until `method` was called `count` times. */
  async waitForCalls(method: string, count: number): Promise<SlackCall[]> {
    while (this.callsOf(method).length < count) await new Promise((resolve) => setTimeout(resolve, 10));
    return this.callsOf(method);
  }

  async close(): Promise<void> {
    clearInterval(this.pinger);
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async answer(request: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const args: Record<string, unknown> = (request.headers['content-type'] ?? '').includes('json')
      ? (JSON.parse(raw || '{}') as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(raw));
    for (const key of ['blocks', 'attachments']) {
      if (typeof args[key] === 'string') args[key] = JSON.parse(args[key] as string);
    }
    const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
    this.calls.push({ method, args, authorization: request.headers.authorization });
    return this.reply(method, args);
  }

  private reply(method: string, args: Record<string, unknown>): Record<string, unknown> {
    const override = this.overrides.get(method);
    if (override !== undefined) return override;
    switch (method) {
      case 'apps.connections.open':
        return { ok: true, url: `ws://127.0.0.1:${this.port}/link` };
      case 'auth.test':
        return {
          ok: true,
          user_id: FAKE_SLACK_BOT.userId,
          bot_id: FAKE_SLACK_BOT.botId,
          team_id: 'T1',
          user: 'agent',
        };
      case 'conversations.info': {
        const id = String(args.channel);
        return { ok: true, channel: { id, name: this.channels.get(id) } };
      }
      case 'conversations.replies':
        return { ok: true, messages: this.threads.get(String(args.ts)) ?? [], has_more: false };
      case 'chat.postMessage': {
        this.nextTs += 1;
        return { ok: true, channel: args.channel, ts: `${this.nextTs}.000100` };
      }
      case 'chat.update':
        return { ok: true, channel: args.channel, ts: args.ts };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}

/** Starts a fake Slack on a free loopback port; point the SDKs' API URL at `apiUrl`. */
export async function startFakeSlack(): Promise<FakeSlack> {
  const fake = new FakeSlack();
  await fake.listen();
  return fake;
}
