// One long session of the compaction suite: `@agent/core` over `@agent/providers`' OpenAI
// client against the testkit model server (strict: a request the real API would refuse, such as
// a tool call without its result, is refused), with or without compaction, measured from both
// sides: what the server received (o200k tokens per request) and what the session reported.
import { performance } from 'node:perf_hooks';
import { defineAgent, run, tool } from '@agent/core';
import type { AgentEvent, CompactionRun, LlmAccountingEntry } from '@agent/protocol';
import { startModelServer } from '@agent/testkit';
import { benchModelClient } from '../agent-loop/contenders/bench-client.js';
import { cpuMs } from '../harness/measure.js';
import { chatRequestTokens } from './request-tokens.js';
import {
  answerFor,
  INSTRUCTIONS,
  isSummaryCall,
  PROMPT,
  pageText,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TOOL_SCHEMA,
} from './script.js';

/** The session's window, and what one answer may take of it. */
export const CONTEXT_WINDOW = 16_384;
export const MAX_OUTPUT_TOKENS = 1024;
/** The tool-output cap, the same in both variants (the default of the store). */
export const TOOL_RESPONSE_MAX_BYTES = 12_288;

export interface SessionPlan {
  compaction: boolean;
  /** The turn the model reports on (tool turns before it). */
  reportTurn: number;
}

/** Everything one session measured. */
export interface SessionFigures {
  compaction: boolean;
  success: boolean;
  exitCode: string;
  /** The first line of the committed report, or the error. */
  reportLine: string;
  /** The last turn the session started. */
  lastTurn: number;
  /** The turn forced to be the final one, and why (absent when none was forced). */
  forcedFinal?: { turn: number; reason: string };
  /** Input tokens of each session request, as the server counted them (o200k), in order. */
  requestTokens: number[];
  /** Input and output tokens of each summary call. */
  summaryCalls: { input: number; output: number }[];
  /** Summary calls the server received (the accounting must have one entry for each). */
  summaryRequests: number;
  /** Requests the strict server refused (a broken pairing would be one). */
  rejected: number;
  compactions: CompactionRun[];
  wallMs: number;
  /** CPU of the process over the session, less the server's own token counting. */
  cpuMs: number;
  /** The server's o200k counting, excluded from `cpuMs`. */
  countingMs: number;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 120);
}

/** Runs one session on a fresh model server and measures it. */
export async function runLongSession(plan: SessionPlan): Promise<SessionFigures> {
  const requestTokens: number[] = [];
  const summaryInputs: number[] = [];
  let countingMs = 0;
  const server = await startModelServer({
    strict: true,
    handler: (request) => {
      const started = performance.now();
      const inputTokens = chatRequestTokens(request.body);
      countingMs += performance.now() - started;
      (isSummaryCall(request) ? summaryInputs : requestTokens).push(inputTokens);
      return { ...answerFor(request, plan.reportTurn), usage: { inputTokens } };
    },
  });
  const readPage = tool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: TOOL_SCHEMA,
    execute: ({ page }) => pageText(Number(page)),
  });
  const agent = defineAgent({
    model: benchModelClient(`${server.url}/v1`),
    instructions: INSTRUCTIONS,
    tools: [readPage],
    output: { format: 'text' },
    maxTurns: plan.reportTurn + 10,
    contextWindow: CONTEXT_WINDOW,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    toolResponseMaxBytes: TOOL_RESPONSE_MAX_BYTES,
    ...(plan.compaction ? { compaction: true } : {}),
  });
  const compactions: CompactionRun[] = [];
  let lastTurn = 0;
  let forcedFinal: SessionFigures['forcedFinal'];
  const onEvent = (event: AgentEvent): void => {
    if (event.type === 'compaction') compactions.push(event.run);
    if (event.type !== 'turn_started') return;
    lastTurn = event.turn;
    if (event.forcedFinalReason !== undefined && forcedFinal === undefined)
      forcedFinal = { turn: event.turn, reason: event.forcedFinalReason };
  };
  try {
    let result: Awaited<ReturnType<typeof run>> | undefined;
    const wallStart = performance.now();
    const used = await cpuMs(async () => {
      result = await run(agent, PROMPT, { onEvent });
    });
    const wallMs = performance.now() - wallStart;
    const done = result!;
    const summaryCalls = done.accounting
      .filter((entry): entry is LlmAccountingEntry => entry.type === 'llm' && entry.purpose === 'compaction')
      .map((entry) => ({ input: entry.tokens.inputTokens, output: entry.tokens.outputTokens }));
    return {
      compaction: plan.compaction,
      success: done.success,
      exitCode: done.exitCode,
      reportLine: done.success ? firstLine(String(done.finalReport.content ?? '')) : firstLine(done.error),
      lastTurn,
      ...(forcedFinal === undefined ? {} : { forcedFinal }),
      requestTokens,
      summaryCalls,
      summaryRequests: summaryInputs.length,
      rejected: server.requests.filter((request) => request.rejected !== undefined).length,
      compactions,
      wallMs,
      cpuMs: used - countingMs,
      countingMs,
    };
  } finally {
    await server.close();
  }
}
