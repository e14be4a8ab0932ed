// The soak's counting HTTP API on loopback: every request to `POST /effect` is recorded with its
// `Idempotency-Key` header and applies its side effect once it has waited its `delayMs`, whether
// or not the caller is still there (as a real server that does not notice a dead client).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the API saw it. */
export interface EffectRequest {
  /** The logical call (`<session>.t<turn>.<letter>`), from the tool's arguments. */
  op: string;
  /** The model attempt that wrote the call (its arguments carry it). */
  attempt: number;
  /** The `Idempotency-Key` header, if sent. */
  key: string | undefined;
  /** The worker that sent it (the `x-soak-worker` header of its agent.json). */
  worker: string;
  receivedAt: number;
  /** When the whole answer was handed to the socket; undefined when the caller went away first. */
  answeredAt?: number;
}

export interface EffectsApi {
  url: string;
  readonly requests: readonly EffectRequest[];
  /** Side effects applied per op (one per request: this API does not deduplicate). */
  readonly applied: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** Bodies are tiny; a larger one is a harness bug. */
const MAX_BODY_BYTES = 4096;
/** A request never waits longer than this, whatever it asks. */
const MAX_DELAY_MS = 5000;

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > MAX_BODY_BYTES) throw new Error(`body over ${MAX_BODY_BYTES} bytes`);
  }
  return body;
}

interface EffectBody {
  op?: unknown;
  attempt?: unknown;
  delayMs?: unknown;
}

export async function startEffectsApi(): Promise<EffectsApi> {
  const requests: EffectRequest[] = [];
  const applied = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    try {
      if (req.method !== 'POST' || req.url !== '/effect') {
        res.writeHead(404).end('only POST /effect');
        return;
      }
      const body = JSON.parse(await readBody(req)) as EffectBody;
      if (typeof body.op !== 'string') {
        res.writeHead(400).end('op (a string) is required');
        return;
      }
      const key = req.headers['idempotency-key'];
      const request: EffectRequest = {
        op: body.op,
        attempt: Number(body.attempt),
        key: typeof key === 'string' ? key : undefined,
        worker: String(req.headers['x-soak-worker'] ?? 'unknown'),
        receivedAt: Date.now(),
      };
      requests.push(request);
      const delayMs = Math.min(MAX_DELAY_MS, Math.max(0, Number(body.delayMs) || 0));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const count = (applied.get(request.op) ?? 0) + 1;
      applied.set(request.op, count);
      res.writeHead(200, { 'content-type': 'application/json' });
      // A caller killed during the wait gets nothing: its answer was never handed over.
      if (res.socket === null || res.socket.destroyed) return;
      res.end(JSON.stringify({ op: request.op, applied: count }), (error?: Error | null) => {
        if (!error) request.answeredAt = Date.now();
      });
    } catch (error) {
      if (!res.headersSent) res.writeHead(400).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    applied,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
