// Grep of the root-confined filesystem MCP server (in-process, through the MCP SDK's in-memory
// transport) on a large generated log, side by side with GNU `grep -c` on the same file in the
// same run. Quick mode: a 2 MB file and a check that both count the same lines.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type McpToolProvider, ToolQueues } from '@agent/mcp';
import { createInProcessFsProvider } from '@agent/mcp/fs-server';
import { formatNumber, formatSpread, type Spread, spread, timeRuns } from '../harness/measure.js';
import type { BenchCheck, BenchSuite, SuiteResult } from '../harness/types.js';

const MB = 1024 * 1024;
const PATTERN = 'ERROR [0-9]{3}';
const LEVELS = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN'];
const PATHS = ['/api/v1/items', '/api/v1/users/42', '/health', '/api/v2/search?q=fox', '/static/app.js'];

interface GeneratedLog {
  lines: number;
  /** Lines that match `PATTERN`. */
  errors: number;
}

/** Writes a log of about `bytes` bytes; about one line in 400 is an `ERROR nnn` line. Returns the line count. */
function writeLog(path: string, bytes: number): GeneratedLog {
  const fd = openSync(path, 'w');
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed >>> 8;
  };
  let written = 0;
  let lines = 0;
  let errors = 0;
  try {
    while (written < bytes) {
      const batch: string[] = [];
      for (let i = 0; i < 2000; i++) {
        const r = next();
        const second = String(lines % 60).padStart(2, '0');
        const isError = r % 400 === 0;
        const level = isError ? `ERROR ${500 + (r % 4)}` : LEVELS[r % LEVELS.length];
        batch.push(
          `2025-06-01T12:00:${second}Z ${level} request id=${r.toString(16)} path=${PATHS[r % PATHS.length]} took=${r % 997}ms`,
        );
        lines++;
        if (isError) errors++;
      }
      const text = `${batch.join('\n')}\n`;
      written += writeSync(fd, text);
    }
  } finally {
    closeSync(fd);
  }
  return { lines, errors };
}

function grepCount(file: string): number {
  const run = spawnSync('grep', ['-c', '-E', PATTERN, file], {
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C' },
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`grep failed: ${run.stderr}`);
  return Number(run.stdout.trim());
}

/** The two Grep calls timed through the MCP client: the count of matching lines, and the first 100 hits. */
function mcpGrepCalls(grepTool: McpToolProvider): {
  count: () => Promise<number>;
  firstHundred: () => Promise<void>;
} {
  const count = async (): Promise<number> => {
    const result = await grepTool.execute(
      { name: 'Grep', arguments: { pattern: PATTERN, path: 'big.log', count: true }, callId: 'bench' },
      { signal: new AbortController().signal, timeoutMs: 600_000 },
    );
    if (!result.ok || result.isError)
      throw new Error(`Grep failed: ${result.ok ? result.text : result.error.message}`);
    return Number(/^big\.log:(\d+)$/m.exec(result.text)?.[1] ?? Number.NaN);
  };
  const firstHundred = async (): Promise<void> => {
    const result = await grepTool.execute(
      {
        name: 'Grep',
        arguments: { pattern: PATTERN, path: 'big.log', maxMatches: 100 },
        callId: 'bench',
      },
      { signal: new AbortController().signal },
    );
    if (!result.ok || result.isError) throw new Error('Grep (first 100) failed');
  };
  return { count, firstHundred };
}

/** Matching lines as MCP Grep and GNU grep counted them. */
interface LineCounts {
  mcp: number;
  gnu: number;
}

/** Wall milliseconds of each run of each tool. */
interface Timings {
  grepMs: number[];
  mcpMs: number[];
  firstHundredMs: number[];
}

interface Row {
  label: string;
  ms: Spread;
  mbPerSecond: number;
}

function rowsOf(timings: Timings, megabytes: number): Row[] {
  return [
    {
      label: 'GNU grep -c -E',
      ms: spread(timings.grepMs),
      mbPerSecond: megabytes / (spread(timings.grepMs).median / 1000),
    },
    {
      label: 'MCP Grep count:true',
      ms: spread(timings.mcpMs),
      mbPerSecond: megabytes / (spread(timings.mcpMs).median / 1000),
    },
    { label: 'MCP Grep first 100 matches', ms: spread(timings.firstHundredMs), mbPerSecond: Number.NaN },
  ];
}

function countChecks(counts: LineCounts, generatedErrors: number): BenchCheck[] {
  return [
    {
      name: 'MCP Grep and grep -c count the same lines',
      ok: counts.mcp === counts.gnu,
      detail: `MCP ${counts.mcp}, grep ${counts.gnu}`,
    },
    {
      name: 'the count matches the generated ERROR lines',
      ok: counts.mcp === generatedErrors,
      detail: `${generatedErrors} generated`,
    },
  ];
}

function report(
  size: number,
  runs: number,
  generated: GeneratedLog,
  timings: Timings,
  counts: LineCounts,
): SuiteResult {
  const megabytes = size / MB;
  const rows = rowsOf(timings, megabytes);
  const ratio = rows[1]!.ms.median / rows[0]!.ms.median;
  return {
    tables: [
      {
        caption: `Counting matching lines in a ${formatNumber(megabytes, 0)} MB log (${generated.lines.toLocaleString('en-US')} lines, ${counts.gnu.toLocaleString('en-US')} matches)`,
        columns: ['tool', 'ms median (min-max)', 'MB/s'],
        rows: rows.map((row) => [row.label, formatSpread(row.ms), formatNumber(row.mbPerSecond, 0)]),
      },
    ],
    notes: [
      `MCP Grep takes ${formatNumber(ratio, 1)}x the time of grep -c on the same file (the file is in the page cache for both).`,
      "The MCP Grep reads ~1 MB blocks and tests each line on its own with RE2 (linear time: a model's pattern cannot stall the process), so memory stays bounded whatever the file or line size. Before RE2 it scanned each block with one JavaScript RegExp: 324 ms (2.1x grep -c) on 2026-11-22.",
      '"first 100 matches" is the default Grep call (numbered output, maxMatches 100): it stops reading early.',
    ],
    checks: countChecks(counts, generated.errors),
    raw: { bytes: size, runs, ...timings, counts, ratio },
  };
}

export const mcpGrepSuite: BenchSuite = {
  id: 'mcp-grep',
  title: 'Filesystem MCP server: Grep vs grep -c',
  description:
    "Counting the lines that match `ERROR [0-9]{3}` in a generated 200 MB log: the filesystem MCP server's " +
    '`Grep` with `count: true` (in-process, through the MCP SDK client and in-memory transport) against ' +
    'GNU `grep -c -E` (LC_ALL=C) on the same file in the same run. Median of 5 runs after one warm-up run each.',
  async run({ quick }): Promise<SuiteResult> {
    const bytes = quick ? 2 * MB : 200 * MB;
    const runs = quick ? 3 : 5;
    const dir = mkdtempSync(join(tmpdir(), 'bench-mcp-grep-'));
    const file = join(dir, 'big.log');
    let fs: McpToolProvider | undefined;
    try {
      const generated = writeLog(file, bytes);
      const grepTool = await createInProcessFsProvider({
        root: dir,
        tools: ['Grep'],
        naming: 'bare',
        queues: new ToolQueues(),
      });
      fs = grepTool;
      const size = statSync(file).size;
      const mcpGrep = mcpGrepCalls(grepTool);
      const grepMs = await timeRuns(() => grepCount(file), runs);
      const mcpMs = await timeRuns(mcpGrep.count, runs);
      const firstHundredMs = await timeRuns(mcpGrep.firstHundred, runs);
      const mcp = await mcpGrep.count();
      const gnu = grepCount(file);
      return report(size, runs, generated, { grepMs, mcpMs, firstHundredMs }, { mcp, gnu });
    } finally {
      await fs?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
