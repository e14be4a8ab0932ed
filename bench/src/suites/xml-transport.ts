// Throughput of the streaming FINAL-slot parser: a large response fed in chunks of
// several sizes, and the time per MB at two sizes to show the cost is linear.
import { FinalSlotParser } from '@agent/xml-transport';
import { formatNumber, formatSpread, type Spread, spread, timeRuns } from '../harness/measure.js';
import type { BenchCheck, BenchSuite, BenchTable, SuiteResult } from '../harness/types.js';

const NONCE = '1a2b3c4d';
const MB = 1024 * 1024;
const KIB = 1024;

/** A markdown-ish report of about `bytes` characters with a `<` every few hundred characters. */
function buildResponse(bytes: number): { text: string; payload: string } {
  const line = 'The quick brown fox checks that a < b and writes <br> in **markdown** tables | col |\n';
  const payload = line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
  const text =
    '<think>Plan: gather the facts, then write the report. An example tag <ai-agent-00000000-FINAL> is not it.</think>' +
    'Here is the report.\n' +
    `<ai-agent-${NONCE}-FINAL tool="agent__final_report" status="success" format="markdown">` +
    payload +
    `</ai-agent-${NONCE}-FINAL>\nDone.`;
  return { text, payload };
}

function split(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks;
}

/** Feeds the chunks; returns the streamed content length and whether the report was found and closed. */
function parse(chunks: readonly string[]): { streamed: number; ok: boolean; payloadLength: number } {
  const parser = new FinalSlotParser({ nonce: NONCE });
  let streamed = 0;
  for (const chunk of chunks) {
    const events = parser.push(chunk);
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (event.type === 'content') streamed += event.text.length;
    }
  }
  parser.end();
  const result = parser.result;
  return {
    streamed,
    ok: result.found && result.closed,
    payloadLength: result.found ? result.payload.length : -1,
  };
}

interface Measured {
  label: string;
  megabytes: number;
  chunkBytes: number;
  msPerRun: Spread;
  mbPerSecond: Spread;
}

async function measure(
  label: string,
  bytes: number,
  chunkBytes: number,
  runs: number,
  checks: BenchCheck[],
): Promise<Measured> {
  const { text, payload } = buildResponse(bytes);
  const chunks = split(text, chunkBytes);
  const outcome = parse(chunks);
  checks.push({
    name: `${label}: report found, closed, streamed whole`,
    ok: outcome.ok && outcome.payloadLength === payload.length && outcome.streamed === payload.length,
    detail: `payload ${outcome.payloadLength} of ${payload.length} chars, streamed ${outcome.streamed}`,
  });
  const times = await timeRuns(() => parse(chunks), runs, 1);
  const megabytes = text.length / MB;
  return {
    label,
    megabytes,
    chunkBytes,
    msPerRun: spread(times),
    mbPerSecond: spread(times.map((ms) => megabytes / (ms / 1000))),
  };
}

function chunkLabel(bytes: number): string {
  return bytes >= KIB ? `${bytes / KIB} KiB` : `${bytes} B`;
}

/** Per-MB cost of the small and the big response in 64 KiB chunks, and big over small. */
interface PerMbGrowth {
  perMbSmall: number;
  perMbBig: number;
  ratio: number;
}

function perMbGrowth(smallRun: Measured, bigRun: Measured): PerMbGrowth {
  const perMbSmall = smallRun.msPerRun.median / smallRun.megabytes;
  const perMbBig = bigRun.msPerRun.median / bigRun.megabytes;
  return { perMbSmall, perMbBig, ratio: perMbBig / perMbSmall };
}

function chunkSizeTable(bySize: readonly Measured[], big: number, runs: number): BenchTable {
  return {
    caption: `Throughput by chunk size (${formatNumber(big / MB, 2)} MB response, ${runs} runs)`,
    columns: ['chunk size', 'ms per run (min-max)', 'MB/s (min-max)'],
    rows: bySize.map((m) => [
      chunkLabel(m.chunkBytes),
      formatSpread(m.msPerRun),
      formatSpread(m.mbPerSecond),
    ]),
  };
}

function growthTable(smallRun: Measured, bigRun: Measured, growth: PerMbGrowth): BenchTable {
  return {
    caption: 'Growth with input size (64 KiB chunks)',
    columns: ['response', 'ms per run (min-max)', 'ms per MB'],
    rows: [
      [
        `${formatNumber(smallRun.megabytes, 2)} MB`,
        formatSpread(smallRun.msPerRun, 2),
        formatNumber(growth.perMbSmall, 2),
      ],
      [
        `${formatNumber(bigRun.megabytes, 2)} MB`,
        formatSpread(bigRun.msPerRun, 2),
        formatNumber(growth.perMbBig, 2),
      ],
      ['ratio (big / small, per MB)', '', formatNumber(growth.ratio, 2)],
    ],
  };
}

const NOTES = [
  'Linear cost shows as a per-MB ratio near 1 between the two sizes; a parser that re-scanned what it had seen would grow with the square of the size.',
  'The 1-byte row is the worst case of a provider streaming one character per delta; it measures per-push overhead (one events array and one event per push that emits text).',
  'Target: at least 100 MB/s with 64 KiB chunks.',
];

export const xmlTransportSuite: BenchSuite = {
  id: 'xml-transport',
  title: 'XML transport: streaming FINAL-slot parser',
  description:
    'A markdown final report (a `<` every ~40 characters, a leading <think> block with a decoy tag) fed to `FinalSlotParser` in 1-byte, 16-byte and 64 KiB chunks; chunks are cut before timing. Throughput is input MB per second, median of the runs with min-max.',
  async run({ quick }): Promise<SuiteResult> {
    const checks: BenchCheck[] = [];
    const big = quick ? 256 * KIB : 10 * MB;
    const small = quick ? 32 * KIB : MB;
    const runs = quick ? 1 : 5;
    const bySize: Measured[] = [];
    for (const chunkBytes of [1, 16, 64 * KIB]) {
      bySize.push(
        await measure(
          `${formatNumber(big / MB, 2)} MB in ${chunkLabel(chunkBytes)} chunks`,
          big,
          chunkBytes,
          runs,
          checks,
        ),
      );
    }
    const smallRun = await measure(
      `${formatNumber(small / MB, 2)} MB in 64 KiB chunks`,
      small,
      64 * KIB,
      quick ? 1 : 9,
      checks,
    );
    const bigRun = bySize[2]!;
    const growth = perMbGrowth(smallRun, bigRun);

    if (!quick) {
      checks.push({
        name: '64 KiB chunks reach 100 MB/s',
        ok: bigRun.mbPerSecond.median >= 100,
        detail: `${formatNumber(bigRun.mbPerSecond.median)} MB/s`,
      });
    }

    return {
      tables: [chunkSizeTable(bySize, big, runs), growthTable(smallRun, bigRun, growth)],
      notes: NOTES,
      checks,
      raw: { bySize, smallRun, ...growth },
    };
  },
};
