import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP/HTTP JSON export carries it, with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** Start time in nanoseconds since the epoch (as a decimal string, compared by BigInt). */
  start: string;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  attributes: Record<string, string | number | boolean>;
  events: string[];
  serviceName?: string;
}

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};
type KeyValue = { key: string; value: AnyValue };

function value(v: AnyValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  return JSON.stringify(v);
}

function flat(attributes: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((attributes ?? []).map((kv) => [kv.key, value(kv.value)]));
}

export interface OtlpReceiver {
  /** The base URL (an OTLP endpoint: the exporter posts to `<url>/v1/traces`). */
  url: string;
  /** Every span received so far, in arrival order. */
  spans: ReceivedSpan[];
  /** Request headers of each export (to check the configured headers arrived). */
  headers: Record<string, string | string[] | undefined>[];
  close: () => Promise<void>;
}

/** Largest export body accepted (a bigger one is answered 413). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The part of an OTLP/HTTP JSON trace export the receiver reads. */
type TraceExport = {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: ExportedSpan[] }[];
  }[];
};

type ExportedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano?: string | number;
  status?: { code?: number };
  attributes?: KeyValue[];
  events?: { name: string }[];
};

function receivedSpan(span: ExportedSpan, serviceName: unknown): ReceivedSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
    name: span.name,
    start: String(span.startTimeUnixNano ?? 0),
    statusCode: span.status?.code ?? 0,
    attributes: flat(span.attributes),
    events: (span.events ?? []).map((e) => e.name),
    ...(typeof serviceName === 'string' ? { serviceName } : {}),
  };
}

/** Every span of an export, each tagged with its resource's `service.name`. */
function spansOfExport(data: TraceExport): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resource of data.resourceSpans ?? []) {
    const serviceName = flat(resource.resource?.attributes)['service.name'];
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) spans.push(receivedSpan(span, serviceName));
    }
  }
  return spans;
}

/** Calls `done` with the whole body, or with `undefined` once it is over `MAX_BODY_BYTES` (not kept). */
function readCappedBody(req: IncomingMessage, done: (body: Buffer | undefined) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => done(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
}

/** What the receiver keeps of the exports it accepted. */
type Received = Pick<OtlpReceiver, 'spans' | 'headers'>;

/** One request: a trace export is kept and answered `{}`; anything else is a 404 (413 when too big). */
function handleExport(req: IncomingMessage, res: ServerResponse, received: Received): void {
  readCappedBody(req, (raw) => {
    if (raw === undefined) {
      res.writeHead(413).end();
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    received.headers.push(req.headers);
    const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
    const data = JSON.parse(body.toString('utf8')) as TraceExport;
    for (const span of spansOfExport(data)) received.spans.push(span);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
}

/**
 * A loopback OTLP/HTTP trace receiver for tests: it accepts `POST /v1/traces` with the JSON
 * encoding (what @opentelemetry/exporter-trace-otlp-http sends, gzip or not) and keeps the spans.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: Received = { spans: [], headers: [] };
  const server: Server = createServer((req, res) => handleExport(req, res, received));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: received.spans,
    headers: received.headers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The tree of one trace as indented `name [ERROR]` lines, children in start order. */
export function receivedTree(spans: readonly ReceivedSpan[], traceId: string): string[] {
  const mine = spans.filter((s) => s.traceId === traceId);
  const ids = new Set(mine.map((s) => s.spanId));
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const children = mine
      .filter((s) =>
        parent === undefined
          ? s.parentSpanId === undefined || !ids.has(s.parentSpanId)
          : s.parentSpanId === parent,
      )
      .sort((a, b) => (BigInt(a.start) < BigInt(b.start) ? -1 : BigInt(a.start) > BigInt(b.start) ? 1 : 0));
    for (const span of children) {
      lines.push(`${'  '.repeat(depth)}${span.name}${span.statusCode === 2 ? ' [ERROR]' : ''}`);
      walk(span.spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}
