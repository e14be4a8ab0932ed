import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolProvider, ToolQueues } from '../src/index.js';
import { startEverythingHttp } from './everything-server.js';
import { noSignal } from './helpers.js';

/** A loopback proxy in front of server-everything that notes each request's JSON-RPC method and traceparent. */
async function recordingProxy(target: { port: number }): Promise<{
  url: string;
  seen: { method: string; traceparent: string | undefined }[];
  close: () => Promise<void>;
}> {
  const seen: { method: string; traceparent: string | undefined }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let method = req.method ?? '';
      try {
        method = (JSON.parse(body.toString('utf8')) as { method?: string }).method ?? method;
      } catch {}
      const traceparent = req.headers.traceparent;
      seen.push({ method, traceparent: typeof traceparent === 'string' ? traceparent : undefined });
      const forward = httpRequest(
        { host: '127.0.0.1', port: target.port, path: req.url, method: req.method, headers: req.headers },
        (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('Streamable HTTP MCP requests carry the active span as traceparent (the W3C propagator registered)', () => {
  let everything: Awaited<ReturnType<typeof startEverythingHttp>>;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let provider: McpToolProvider;
  let tracerProvider: BasicTracerProvider;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    tracerProvider = new BasicTracerProvider();
    trace.setGlobalTracerProvider(tracerProvider);
    everything = await startEverythingHttp('streamableHttp');
    proxy = await recordingProxy(everything);
    provider = new McpToolProvider('web', { type: 'http', url: proxy.url }, { queues: new ToolQueues() });
    await provider.connect();
  }, 30_000);
  afterAll(async () => {
    await provider?.close();
    await proxy?.close();
    await everything?.stop();
    await tracerProvider?.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  const echo = (callId: string) =>
    provider.execute({ name: 'web__echo', arguments: { message: callId }, callId }, { signal: noSignal() });

  it('a call made inside a span sends that span’s trace and span id; one outside sends none', async () => {
    const tracer = trace.getTracer('test');
    const span = tracer.startSpan('execute_tool web__echo');
    const inside = await context.with(trace.setSpan(context.active(), span), () => echo('inside'));
    span.end();
    expect(inside).toMatchObject({ ok: true, text: 'Echo: inside' });
    const outside = await echo('outside');
    expect(outside).toMatchObject({ ok: true, text: 'Echo: outside' });

    const calls = proxy.seen.filter((r) => r.method === 'tools/call');
    expect(calls).toHaveLength(2);
    const { traceId, spanId } = span.spanContext();
    expect(calls[0]?.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    expect(calls[1]?.traceparent).toBeUndefined();
    // The connection's own requests (initialize, tools/list) were made outside any span.
    expect(proxy.seen.find((r) => r.method === 'initialize')?.traceparent).toBeUndefined();
  });
});
