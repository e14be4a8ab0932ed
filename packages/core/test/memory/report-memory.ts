// Memory one core session needs for a huge final report: a model streams an N MB report
// through the XML FINAL slot in chunks of C characters (fresh strings, as an SDK's parsed
// SSE gives them), and this prints the peak and retained memory as one JSON line.
//
//   cd packages/core
//   node --expose-gc --conditions=@agent/source --import tsx test/memory/report-memory.ts --mb 50 --chunk 32
//
// `--mode plain` streams the body without the FINAL tag on a final turn (adopted as the report).
//
// A testkit `scriptedModel` would hold the whole answer in its script for the entire run, and
// its chunks would be the very strings the session keeps, hiding the copies this looks for: the
// model here makes each chunk when it is pulled, like a real client.
import type { ModelClient, ModelStreamEvent } from '@agent/protocol';
import { runAgent } from '../../src/index.js';

const NONCE = 'feedbeef';
const TAG = `ai-agent-${NONCE}-FINAL`;
const MB = 1024 * 1024;

interface Options {
  mb: number;
  chunk: number;
  mode: 'xml' | 'plain';
}

function readOptions(argv: readonly string[]): Options {
  const value = (name: string, fallback: string) => {
    const at = argv.indexOf(`--${name}`);
    return at === -1 ? fallback : (argv[at + 1] ?? fallback);
  };
  const mb = Number(value('mb', '50'));
  const chunk = Number(value('chunk', '32'));
  const mode = value('mode', 'xml');
  if (!(mb > 0) || !(chunk >= 1) || (mode !== 'xml' && mode !== 'plain')) {
    throw new Error('usage: report-memory.ts [--mb N>0] [--chunk N>=1] [--mode xml|plain]');
  }
  return { mb, chunk, mode };
}

/** A model that streams `bytes` characters of report body in `chunk`-sized fresh strings. */
function streamingModel(bytes: number, chunk: number, tagged: boolean, onChunk: () => void): ModelClient {
  const line = 'row of the report: the quick brown fox jumps over the lazy dog, twice over.\n';
  const block = Buffer.from(line.repeat(Math.ceil(65_536 / line.length)), 'latin1');
  return {
    provider: 'probe',
    model: 'probe-model',
    async *stream(): AsyncIterable<ModelStreamEvent> {
      if (tagged) {
        yield {
          type: 'text-delta',
          text: `<${TAG} tool="agent__final_report" status="success" format="markdown">`,
        };
      }
      let sent = 0;
      let sinceYield = 0;
      while (sent < bytes) {
        const size = Math.min(chunk, bytes - sent);
        const at = sent % (block.length - chunk);
        yield { type: 'text-delta', text: block.toString('latin1', at, at + size) };
        sent += size;
        sinceYield += size;
        onChunk();
        // A real stream arrives in network reads: let timers and the collector run now and then.
        if (sinceYield >= 256 * 1024) {
          sinceYield = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      if (tagged) yield { type: 'text-delta', text: `</${TAG}>` };
      yield {
        type: 'usage',
        usage: { inputTokens: 100, outputTokens: Math.ceil(bytes / 4), totalTokens: 0 },
      };
      yield { type: 'finish', stopReason: 'stop' };
    },
  };
}

function heapNow(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  const bytes = Math.round(options.mb * MB);
  gc();
  const baseHeap = heapNow();
  const baseRss = process.memoryUsage.rss();
  let peakHeap = baseHeap;
  let peakRss = baseRss;
  let chunks = 0;
  const sample = () => {
    peakHeap = Math.max(peakHeap, heapNow());
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  };
  const sampleEvery = Math.max(1, Math.floor((256 * 1024) / options.chunk));
  const model = streamingModel(bytes, options.chunk, options.mode === 'xml', () => {
    if (++chunks % sampleEvery === 0) sample();
  });
  const started = Date.now();
  let outputChars = 0;
  const result = await runAgent({
    nonce: NONCE,
    targets: [{ client: model, contextWindow: 1_000_000_000 }],
    userPrompt: 'Write the big report.',
    expectedOutput: { format: 'markdown' },
    // Plain text counts as the report only on a final turn: make the first one final.
    ...(options.mode === 'plain' ? { maxTurns: 1 } : {}),
    llmTimeout: 3_600_000,
    callbacks: {
      onEvent: (event) => {
        if (event.type === 'output') outputChars += event.text.length;
        else if (event.type === 'final_report') sample();
      },
    },
  });
  sample();
  const durationMs = Date.now() - started;
  gc();
  const retainedHeap = heapNow() - baseHeap;
  const report = result.finalReport?.content ?? '';
  const figures = {
    answerMB: round(bytes / MB),
    chunkChars: options.chunk,
    chunks,
    mode: options.mode,
    success: result.success,
    origin: result.finalReport?.origin,
    reportChars: report.length,
    outputChars,
    durationMs,
    baselineRssMB: round(baseRss / MB),
    peakRssMB: round(Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / MB),
    peakHeapGrowthMB: round((peakHeap - baseHeap) / MB),
    retainedHeapMB: round(retainedHeap / MB),
    peakHeapGrowthPerAnswer: round((peakHeap - baseHeap) / bytes),
    retainedPerAnswer: round(retainedHeap / bytes),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

await main();
