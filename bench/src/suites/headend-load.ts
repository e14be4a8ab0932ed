// Load on the OpenAI-compatible headend over loopback: N concurrent streaming chat completions,
// each an @agent/core session whose scripted model streams tokens with a fixed delay. Measures
// what the headend adds over the scripted time (p50/p99) and memory per in-flight session.
import { defineAgent, run } from '@agent/core';
import { createCatalog, createOpenAiHeadend, type ServedAgent, serve } from '@agent/headends';
import type { AgentResult } from '@agent/protocol';
import { finalReport, scriptedModel } from '@agent/testkit';
import type { BenchCheck, BenchSuite, SuiteResult } from '../harness/types.js';

const TOKENS = 20;
const TOKEN_DELAY_MS = 25;
const SCRIPTED_MS = (TOKENS - 1) * TOKEN_DELAY_MS;
const WORDS = Array.from({ length: TOKENS }, (_, i) => `w${i} `);
const ANSWER = WORDS.join('');

function benchAgent(): ServedAgent {
  return {
    info: { name: 'bench', description: 'Streams a scripted answer.', outputFormat: 'markdown' },
    run: (input, options): Promise<AgentResult> => {
      // The report streamed word by word: the FINAL tag's text of the testkit, cut at the payload.
      const [open, close] = String(finalReport('\u0000').text).split('\u0000') as [string, string];
      const model = scriptedModel([{ text: [open, ...WORDS, close], tokenDelayMs: TOKEN_DELAY_MS }]);
      return run(defineAgent({ model }), input, {
        ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    },
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function oneRequest(url: string): Promise<{ ok: boolean; ms: number; problem?: string }> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'go' }] }),
  });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200)
    return { ok: false, ms, problem: `HTTP ${response.status}: ${body.slice(0, 200)}` };
  let text = '';
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const chunk = JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string } }[] };
    text += chunk.choices?.[0]?.delta?.content ?? '';
  }
  if (!body.includes('data: [DONE]')) return { ok: false, ms, problem: 'stream ended without [DONE]' };
  if (text.trim() !== ANSWER.trim()) return { ok: false, ms, problem: `wrong text: ${text.slice(0, 80)}` };
  return { ok: true, ms };
}

async function measure(concurrency: number): Promise<SuiteResult> {
  const catalog = createCatalog([benchAgent()]);
  const headend = createOpenAiHeadend({
    catalog,
    allowNoAuth: true,
    concurrency,
    queueSize: concurrency,
  });
  const server = await serve(headend, { host: '127.0.0.1' });
  try {
    await oneRequest(server.url); // warm-up
    globalThis.gc?.();
    const baseline = process.memoryUsage();
    let peakHeap = baseline.heapUsed;
    let peakRss = baseline.rss;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakHeap = Math.max(peakHeap, now.heapUsed);
      peakRss = Math.max(peakRss, now.rss);
    }, 10);
    const settled = await Promise.allSettled(
      Array.from({ length: concurrency }, () => oneRequest(server.url)),
    );
    clearInterval(sampler);
    const done = settled.flatMap((entry) => (entry.status === 'fulfilled' ? [entry.value] : []));
    const lost = concurrency - done.length;
    const failed = done.filter((entry) => !entry.ok);
    const added = done
      .filter((entry) => entry.ok)
      .map((entry) => entry.ms - SCRIPTED_MS)
      .sort((a, b) => a - b);
    const heapPerSessionKb = (peakHeap - baseline.heapUsed) / concurrency / 1024;
    const rssPerSessionKb = (peakRss - baseline.rss) / concurrency / 1024;
    const checks: BenchCheck[] = [
      {
        name: `${concurrency} concurrent streaming chat completions: 0 failed, 0 lost`,
        ok: failed.length === 0 && lost === 0,
        detail: `${done.length - failed.length} ok, ${failed.length} failed, ${lost} lost${failed[0]?.problem ? `; first: ${failed[0].problem}` : ''}`,
      },
    ];
    const round = (value: number) => Math.round(value * 10) / 10;
    return {
      tables: [
        {
          caption: `OpenAI-compatible headend, ${concurrency} concurrent streams (${TOKENS} tokens, ${TOKEN_DELAY_MS} ms apart: ${SCRIPTED_MS} ms scripted)`,
          columns: [
            'concurrent',
            'ok',
            'failed',
            'lost',
            'added p50 ms',
            'added p99 ms',
            'heap KB / session',
            'RSS KB / session',
          ],
          rows: [
            [
              concurrency,
              done.length - failed.length,
              failed.length,
              lost,
              round(percentile(added, 50)),
              round(percentile(added, 99)),
              round(heapPerSessionKb),
              round(rssPerSessionKb),
            ],
          ],
        },
      ],
      notes: [
        'Client and server share one process on loopback; "added" is the wall time of a request minus the scripted token time, so it includes the client, HTTP, SSE framing and the core session.',
        'Memory per session is the peak growth of heap / RSS during the burst over the baseline, divided by the concurrency.',
      ],
      checks,
      raw: { concurrency, scriptedMs: SCRIPTED_MS, added, lost, failed: failed.map((f) => f.problem) },
    };
  } finally {
    await server.close();
  }
}

export const headendLoadSuite: BenchSuite = {
  id: 'headend-load',
  title: 'Headend load: concurrent streaming chat completions',
  description:
    'N concurrent streaming chat completions against the OpenAI-compatible headend on loopback (500; quick: 20), each a core session with a scripted per-token delay: failures, lost requests, latency added over the scripted time, memory per in-flight session.',
  run: ({ quick }) => measure(quick ? 20 : 500),
};
