// Part (b) of the guardrails suite: one `@agent/core` session whose model (inside the process,
// no HTTP) streams a report of N bytes, with and without an output guardrail on the stream,
// timed in CPU per MB of report so the per-MB cost at each size shows whether it stays flat.
import { defineAgent, guardrail, run } from '@agent/core';
import { regexGuardrail } from '@agent/guardrails';
import type { Guardrail, ModelClient, ModelRequest, ModelStreamEvent } from '@agent/protocol';
import { finalTagOf, MODEL } from '../agent-loop/script.js';
import { cpuMs, formatNumber, type Spread, spread } from '../harness/measure.js';
import type { BenchCheck, BenchTable } from '../harness/types.js';
import { reportText, SECRET_PATTERN } from './report-text.js';
import { sizeLabel } from './scan-figures.js';

const MB = 1024 * 1024;
/** Characters per streamed delta: small, as models stream, so the core batches them. */
const DELTA_CHARS = 16;
const PROMPT = 'Write the long report.';

/** A model that answers every request with `report` in the session's FINAL slot, in small deltas. */
function reportingModel(report: string): ModelClient {
  return {
    provider: 'openai',
    model: MODEL,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      const tag = finalTagOf(request.messages);
      if (tag === undefined) throw new Error('guardrails bench: no XML-NEXT notice in the request');
      yield {
        type: 'text-delta',
        text: `<${tag} tool="agent__final_report" status="success" format="text">`,
      };
      for (let i = 0; i < report.length; i += DELTA_CHARS)
        yield { type: 'text-delta', text: report.slice(i, i + DELTA_CHARS) };
      yield { type: 'text-delta', text: `</${tag}>` };
      yield { type: 'usage', usage: { inputTokens: 300, outputTokens: report.length / 4, totalTokens: 0 } };
      yield { type: 'finish', stopReason: 'stop' };
    },
  };
}

/** What the stream guardrail was given over one session. */
interface StreamTally {
  checks: number;
  characters: number;
}

/** `regexGuardrail` with the RE2 secret pattern on the stream only, counting what it reads. */
function streamGuardrail(tally: StreamTally): Guardrail {
  const built = regexGuardrail({
    name: 'no-secrets',
    on: 'output',
    phases: ['stream'],
    pattern: SECRET_PATTERN,
    flags: 'i',
    action: 'block',
  });
  return guardrail({
    ...built,
    check: (subject, context) => {
      tally.checks++;
      tally.characters += subject.text.length;
      return built.check(subject, context);
    },
  });
}

interface SessionOutcome {
  cpuMs: number;
  streamed: number;
  reportLength: number;
  success: boolean;
  tally: StreamTally;
}

async function oneSession(report: string, guarded: boolean): Promise<SessionOutcome> {
  const tally: StreamTally = { checks: 0, characters: 0 };
  const agent = defineAgent({
    model: reportingModel(report),
    instructions: 'Report.',
    output: { format: 'text' },
    ...(guarded ? { guardrails: [streamGuardrail(tally)] } : {}),
  });
  let streamed = 0;
  let success = false;
  let reportLength = -1;
  const used = await cpuMs(async () => {
    const result = await run(agent, PROMPT, {
      onEvent: (event) => {
        if (event.type === 'output') streamed += event.text.length;
      },
    });
    success = result.success;
    if (result.success) reportLength = String(result.finalReport.content).length;
  });
  return { cpuMs: used, streamed, reportLength, success, tally };
}

export interface StreamFigures {
  bytes: number;
  guarded: boolean;
  cpuMs: Spread;
  cpuMsPerMb: number;
  /** Per session: checks run and characters given to them over characters of report. */
  checks: number;
  charactersPerReportChar: number;
}

/** Runs sessions of each size without and with the stream guardrail, interleaved. */
export async function measureStreamSessions(
  sizes: readonly number[],
  runs: number,
  checks: BenchCheck[],
): Promise<StreamFigures[]> {
  const figures: StreamFigures[] = [];
  for (const bytes of sizes) {
    const report = reportText(bytes, false);
    const samples: Record<'plain' | 'guarded', SessionOutcome[]> = { plain: [], guarded: [] };
    await oneSession(report, false); // warm-up
    await oneSession(report, true);
    for (let r = 0; r < runs; r++) {
      samples.plain.push(await oneSession(report, false));
      samples.guarded.push(await oneSession(report, true));
    }
    for (const guarded of [false, true]) {
      const outcomes = samples[guarded ? 'guarded' : 'plain'];
      const last = outcomes[outcomes.length - 1]!;
      const label = `${sizeLabel(bytes)} report ${guarded ? 'with' : 'without'} the stream guardrail`;
      checks.push({
        name: `${label}: succeeds, streams and commits the whole report`,
        ok: outcomes.every((o) => o.success && o.streamed === bytes && o.reportLength === bytes),
        detail: `success ${last.success}, streamed ${last.streamed}, report ${last.reportLength} of ${bytes} chars`,
      });
      const cpu = spread(outcomes.map((o) => o.cpuMs));
      figures.push({
        bytes,
        guarded,
        cpuMs: cpu,
        cpuMsPerMb: cpu.median / (bytes / MB),
        checks: last.tally.checks,
        charactersPerReportChar: last.tally.characters / bytes,
      });
    }
  }
  return figures;
}

/** Checks that prove the guardrail ran on the stream and read each character a bounded number of times. */
export function streamChecks(figures: readonly StreamFigures[], checks: BenchCheck[]): void {
  for (const f of figures.filter((x) => x.guarded)) {
    checks.push({
      name: `${sizeLabel(f.bytes)}: the stream guardrail ran (at least one check per 4 KB streamed)`,
      ok: f.checks >= f.bytes / 4096,
      detail: `${f.checks} checks`,
    });
    checks.push({
      name: `${sizeLabel(f.bytes)}: the stream guardrail read each report character at most 3 times (no re-scan of the whole text)`,
      ok: f.checks > 0 && f.charactersPerReportChar <= 3,
      detail: `${formatNumber(f.charactersPerReportChar, 2)} characters checked per character streamed`,
    });
  }
}

/** Ratio of the largest size's CPU per MB to the smallest's, for one variant. */
export function streamRatio(figures: readonly StreamFigures[], guarded: boolean): number {
  const rows = figures.filter((f) => f.guarded === guarded);
  return rows[rows.length - 1]!.cpuMsPerMb / rows[0]!.cpuMsPerMb;
}

export function streamTable(
  figures: readonly StreamFigures[],
  sizes: readonly number[],
  runs: number,
): BenchTable {
  const row = (guarded: boolean) => {
    const rows = figures.filter((f) => f.guarded === guarded);
    return [
      guarded ? 'with `regexGuardrail` (RE2) on the stream' : 'without guardrails',
      ...rows.map((f) => formatNumber(f.cpuMsPerMb, 1)),
      formatNumber(streamRatio(figures, guarded), 2),
      guarded
        ? rows.map((f) => `${f.checks} (${formatNumber(f.charactersPerReportChar, 2)}x)`).join(', ')
        : '',
    ];
  };
  return {
    caption: `A session streaming its report in ${DELTA_CHARS}-character deltas: CPU ms per MB of report (median of ${runs} sessions)`,
    columns: [
      'session',
      ...sizes.map((bytes) => sizeLabel(bytes)),
      `ratio ${sizeLabel(sizes[sizes.length - 1]!)} / ${sizeLabel(sizes[0]!)}`,
      'stream checks per session (characters checked per character streamed)',
    ],
    rows: [row(false), row(true)],
  };
}
