// The viewer against hostile clients, on loopback: a page that rebinds its DNS name to 127.0.0.1,
// idle connections that never send a request, and live streams that are never read.
import { connect, type Socket } from 'node:net';
import type { AgentEventMeta } from '@agent/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../packages/headends/test/helpers/raw-tcp.js';
import { LiveSession } from '../src/viewer/live-session.js';
import { MemorySessionSource } from '../src/viewer/session-source.js';
import type { SessionView } from '../src/viewer/view-model.js';
import {
  startViewerServer,
  type ViewerServer,
  type ViewerServerOptions,
} from '../src/viewer/viewer-server.js';

const ASSETS = { script: '/* the page */', style: '/* its style */' };
const META: AgentEventMeta = { isMaster: true, isFinal: false, sessionId: 's1', agentPath: 'lead' };
let viewer: ViewerServer | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await viewer?.close();
  viewer = undefined;
});

async function start(
  source: MemorySessionSource,
  options: Partial<ViewerServerOptions> = {},
): Promise<{ url: string; port: number }> {
  viewer = await startViewerServer({
    source,
    assets: ASSETS,
    tokens: ['t'],
    host: '127.0.0.1',
    port: 0,
    ...options,
  });
  return { url: viewer.url, port: Number(new URL(viewer.url).port) };
}

/** A raw connection that sends `request` (maybe nothing) and never reads what comes back. */
function unreadConnection(port: number, request: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.pause();
      if (request !== '') socket.write(request);
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
    sockets.push(socket);
  });
}

/** `count` tool calls with 4,000-character arguments: about 4 KB of view each. */
function grow(live: LiveSession, count: number): void {
  for (let n = 0; n < count; n += 1) {
    const callId = `c${live.view.tree.children.length}-${n}-${Math.random()}`;
    const event = {
      type: 'tool_started',
      agentPath: 'lead',
      tool: 'search',
      callId,
      arguments: 'x'.repeat(4000),
    };
    live.apply({ type: 'progress', event } as never, META);
  }
}

function runningSession(): { source: MemorySessionSource; live: LiveSession } {
  const source = new MemorySessionSource({ maxSessions: 10, maxBytes: 256 * 1024 * 1024 });
  const live = new LiveSession('run-1', 'lead', 'rest', { maxNodes: 100_000, foldChars: 4000 });
  source.started(live);
  live.apply({ type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: false }, META);
  return { source, live };
}

const usedBytes = () => {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.external + memory.arrayBuffers;
};

describe('the viewer and DNS rebinding', () => {
  it('refuses a foreign Host or Origin with 403, even served without tokens', async () => {
    const { url, port } = await start(runningSession().source, { tokens: [] });
    const ask = (headers: Record<string, string>) =>
      rawRequest(port, `GET /api/sessions HTTP/1.1\r\n${headerLines(headers)}Connection: close\r\n\r\n`);
    const foreign = await ask({ Host: `evil.example:${port}` });
    expect(foreign).toMatch(/^HTTP\/1\.1 403/);
    expect(foreign).toContain(`invalid Host header: evil.example:${port}`);
    const origin = await ask({ Host: `127.0.0.1:${port}`, Origin: 'http://evil.example' });
    expect(origin).toMatch(/^HTTP\/1\.1 403/);
    expect(origin).toContain('invalid Origin header: http://evil.example');
    const own = await fetch(`${url}/api/sessions`);
    expect(own.status).toBe(200);
    const named = await ask({ Host: 'viewer.internal' });
    expect(named).toMatch(/^HTTP\/1\.1 403/);
  });

  it('answers a hostname it was told to allow', async () => {
    const { port } = await start(runningSession().source, {
      tokens: [],
      allowedHostnames: ['localhost', '127.0.0.1', 'viewer.internal'],
    });
    const named = await rawRequest(
      port,
      'GET /api/sessions HTTP/1.1\r\nHost: viewer.internal\r\nConnection: close\r\n\r\n',
    );
    expect(named).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('the viewer and idle connections', () => {
  it('closes connections that send nothing once the headers timeout passes, and serves again', async () => {
    const { port } = await start(runningSession().source, {
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      maxConnections: 8,
    });
    for (let n = 0; n < 8; n += 1) await unreadConnection(port, '');
    const started = performance.now();
    let answer = '';
    while (!answer.startsWith('HTTP/1.1 200') && performance.now() - started < 8000) {
      answer = await rawRequest(
        port,
        `GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n`,
        1000,
      );
      if (!answer.startsWith('HTTP/1.1 200')) await new Promise((r) => setTimeout(r, 200));
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    // Well before 8 s: the idle ones were closed after about 1 s.
    expect(performance.now() - started).toBeLessThan(6000);
  }, 15_000);
});

describe('the viewer and live streams nobody reads', () => {
  it('drops readers that stop reading, keeping memory bounded, and takes new readers again', async () => {
    const { source, live } = runningSession();
    grow(live, 250);
    // The session has no owner: an operator token sees it.
    const { url, port } = await start(source, {
      maxStreams: 3,
      stalledStreamMs: 1000,
      operatorTokens: ['t'],
    });
    const before = usedBytes();
    const stream = `GET /api/stream?session=run-1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer t\r\n\r\n`;
    for (let n = 0; n < 3; n += 1) await unreadConnection(port, stream);
    let peak = 0;
    for (let tick = 0; tick < 15; tick += 1) {
      grow(live, 100);
      source.changed('run-1');
      await new Promise((r) => setTimeout(r, 200));
      peak = Math.max(peak, usedBytes() - before);
    }
    // The view itself grew by 6 MB; a copy of the whole view per change per reader would be 100s of MB.
    expect(peak).toBeLessThan(64 * 1024 * 1024);
    const fresh = await fetch(`${url}/api/stream?session=run-1`, { headers: { authorization: 'Bearer t' } });
    expect(fresh.status).toBe(200);
    await fresh.body?.cancel();
  }, 20_000);

  it('sends a reader that keeps up the whole view once, then deltas that rebuild the same view', async () => {
    const { applySessionPatch } = await import('../src/viewer/view-patch.js');
    const { source, live } = runningSession();
    grow(live, 250);
    const { url } = await start(source, { operatorTokens: ['t'] });
    const reading = new AbortController();
    const response = await fetch(`${url}/api/stream?session=run-1`, {
      headers: { authorization: 'Bearer t' },
      signal: reading.signal,
    });
    const events = sseEvents(response);
    let view: SessionView | undefined;
    let patches = 0;
    let largestPatch = 0;
    const next = async () => {
      for (;;) {
        const event = (await events.next()).value as { name: string; data: string };
        if (event.name === 'session') view = JSON.parse(event.data) as SessionView;
        if (event.name === 'session-patch') {
          patches += 1;
          largestPatch = Math.max(largestPatch, event.data.length);
          view = applySessionPatch(view as SessionView, JSON.parse(event.data));
        }
        if (event.name.startsWith('session')) return;
      }
    };
    await next();
    const fullSize = JSON.stringify(view).length;
    expect(fullSize).toBeGreaterThan(1_000_000);
    for (let tick = 0; tick < 4; tick += 1) {
      grow(live, 2);
      source.changed('run-1');
      await next();
    }
    live.finish(undefined, 'stopped by the test');
    source.ended(live);
    while (view?.status === 'running') await next();
    expect(patches).toBeGreaterThanOrEqual(4);
    expect(largestPatch).toBeLessThan(fullSize / 10);
    expect(view).toEqual(JSON.parse(JSON.stringify(source.get('run-1'))));
    reading.abort();
  }, 20_000);
});

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}

/** The Server-Sent Events of a response, one `{ name, data }` at a time. */
async function* sseEvents(response: Response): AsyncGenerator<{ name: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (name !== undefined && data !== undefined) yield { name, data };
    }
  }
}
