import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent, CompactionRun, ConversationMessage } from '@agent/protocol';
import { createModelClient, type ProviderType } from '@agent/providers';
import {
  finalReport,
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
} from '@agent/testkit';
import { onTestFinished } from 'vitest';
import { type AgentSessionConfig, runAgent } from '../../src/index.js';
import { memoryTools } from './memory-tools.js';
import { isMapCall, isReduceCall, systemOf } from './tool-output.js';

// Long sessions over real HTTP (issue 39): the official clients of @agent/providers against the
// testkit model server in strict mode, which refuses what the real APIs refuse (a tool call
// without its result, or the reverse). The scripted model calls two tools in parallel each turn.

export const NONCE = 'c0de3939';
export const SUMMARY_MARKER = '[Context compacted]';

/** The three request shapes the issue names. */
export type Shape = Extract<ProviderType, 'openai' | 'openai-responses' | 'anthropic'>;
export const SHAPES: readonly Shape[] = ['openai', 'openai-responses', 'anthropic'];

/** The text a tool result holds: distinct words (so every tokenizer counts it for real), ~2 KB. */
export function pageText(id: string): string {
  const words = Array.from({ length: 60 }, (_, i) => `${id}-fact-${i} measured ${(i * 37) % 101} units;`);
  return `PAGE ${id} ORIGINAL TEXT: ${words.join(' ')}`;
}

/** Text of a message, whatever its content shape. */
function textOf(message: ConversationMessage): string {
  const { content } = message as { content: unknown };
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/**
 * A summary call: no tools, and the FINAL tag named neither in its system prompt (an extraction's)
 * nor in its last message (a session turn's XML-NEXT notice, forced final turns included).
 */
export function isSummaryCall(request: RecordedRequest): boolean {
  const last = request.messages.at(-1);
  const namesTag =
    systemOf(request).includes('-FINAL') || (last !== undefined && textOf(last).includes('-FINAL'));
  return request.tools.length === 0 && !namesTag;
}

export const isExtractionCall = (request: RecordedRequest): boolean =>
  isMapCall(request) || isReduceCall(request);

/** A turn of the session itself (not a summary or extraction call). */
export const isSessionTurn = (request: RecordedRequest): boolean =>
  !isSummaryCall(request) && !isExtractionCall(request);

/** The summary message of a request (decoded), if it holds one. */
export function summaryIn(request: RecordedRequest): string | undefined {
  const found = request.messages.find((m) => m.role === 'user' && textOf(m).includes(SUMMARY_MARKER));
  return found === undefined ? undefined : textOf(found);
}

/** The handle the summary message names for the newest compaction. */
export function summaryHandle(summary: string): string {
  const match = /call tool_output with handle "([^"]+)"/.exec(summary);
  if (match === null) throw new Error(`no handle in the summary message: ${summary.slice(0, 300)}`);
  return match[1]!;
}

export interface Scripted {
  /** Answers a turn of the session; `turn` counts the session's turns from 1. */
  turn?: (request: RecordedRequest, turn: number) => ScriptedAnswer | undefined;
  /** Answers a summary call; `call` counts summary calls from 1. */
  summary?: (request: RecordedRequest, call: number) => ScriptedAnswer;
  /** Answers an extraction call (map or reduce). */
  extraction?: (request: RecordedRequest) => ScriptedAnswer;
}

/** The default turn: two parallel `fetch_page` calls until `turns`, then the report. */
export function parallelFetches(turns: number) {
  return (request: RecordedRequest, turn: number): ScriptedAnswer => {
    if (turn > turns || request.tools.length === 0) return finalReport(`Report after ${turn - 1} turns.`);
    return {
      text: `Turn ${turn}: fetching two pages.`,
      toolCalls: [
        { id: `call_${turn}a`, name: 'fetch_page', arguments: { page: `${turn}a` } },
        { id: `call_${turn}b`, name: 'fetch_page', arguments: { page: `${turn}b` } },
      ],
    };
  };
}

export const extractionText = (text: string): string =>
  `<ai-agent-${NONCE}-FINAL format="text">${text}</ai-agent-${NONCE}-FINAL>`;

/** A strict model server answering by request kind; closed when the test finishes. */
export async function scriptedServer(script: Scripted & { turns: number }): Promise<ModelServer> {
  let turns = 0;
  let summaries = 0;
  const turn = script.turn ?? (() => undefined);
  const fallback = parallelFetches(script.turns);
  const server = await startModelServer({
    strict: true,
    handler: (request) => {
      if (isSummaryCall(request)) {
        summaries += 1;
        return script.summary?.(request, summaries) ?? { text: `Summary ${summaries}: pages were fetched.` };
      }
      if (isExtractionCall(request)) {
        if (script.extraction === undefined) throw new Error('an extraction call was not planned');
        return script.extraction(request);
      }
      turns += 1;
      return turn(request, turns) ?? fallback(request, turns);
    },
  });
  onTestFinished(() => server.close());
  return server;
}

/** A client of the given shape at the server. */
export function clientOf(server: ModelServer, shape: Shape) {
  return createModelClient({
    type: shape,
    provider: shape,
    model: shape === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1-mini',
    apiKey: 'sk-test-secret-key',
    baseURL: shape === 'anthropic' ? server.url : `${server.url}/v1`,
  });
}

/** Runs the long session against the server; the tool-output store in a temp dir removed after the test. */
export async function longSession(
  server: ModelServer,
  shape: Shape,
  extra: Partial<AgentSessionConfig> = {},
) {
  const storeDir = mkdtempSync(join(tmpdir(), 'core-compaction-http-'));
  onTestFinished(() => rmSync(storeDir, { recursive: true, force: true }));
  const events: AgentEvent[] = [];
  const result = await runAgent({
    internal: { nonce: NONCE, sleep: async () => {} },
    model: clientOf(server, shape),
    tools: [memoryTools('web', { fetch_page: (args) => pageText(String(args.page)) })],
    prompt: 'Read the pages one by one and report what they say.',
    contextWindow: 12_000,
    maxTurns: 60,
    compaction: { at: 0.6, keep: 2, attempts: 2, tokens: 512 },
    toolOutput: { storeDir },
    onEvent: (event) => events.push(event),
    ...extra,
  });
  const compactions = events.flatMap((e): CompactionRun[] => (e.type === 'compaction' ? [e.run] : []));
  return { result, events, compactions };
}

/** The tool-call ids and the tool-result ids one request body holds, read the way its API reads them. */
export function wirePairing(request: RecordedRequest): { calls: string[]; results: string[] } {
  const body = request.body as Record<string, unknown>;
  const calls: string[] = [];
  const results: string[] = [];
  const items = (value: unknown): Record<string, unknown>[] =>
    Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  if (request.api === 'openai-chat') {
    for (const message of items(body.messages)) {
      for (const call of items(message.tool_calls)) calls.push(String(call.id));
      if (message.role === 'tool') results.push(String(message.tool_call_id));
    }
  } else if (request.api === 'openai-responses') {
    for (const item of items(body.input)) {
      if (item.type === 'function_call') calls.push(String(item.call_id));
      if (item.type === 'function_call_output') results.push(String(item.call_id));
    }
  } else {
    for (const message of items(body.messages)) {
      for (const block of items(message.content)) {
        if (block.type === 'tool_use') calls.push(String(block.id));
        if (block.type === 'tool_result') results.push(String(block.tool_use_id));
      }
    }
  }
  return { calls: calls.sort(), results: results.sort() };
}

/**
 * The bytes of a request body up to and including its summary message: everything a provider's
 * prompt cache keys on before it (Chat: tools and messages; Anthropic: system, tools, messages),
 * serialised from the body the server received (key order as sent).
 */
export function prefixThroughSummary(request: RecordedRequest): string {
  const body = request.body as Record<string, unknown>;
  const messages = (body.messages ?? []) as Record<string, unknown>[];
  const at = messages.findIndex((m) => JSON.stringify(m.content).includes(SUMMARY_MARKER));
  if (at < 0) throw new Error(`request ${request.route} holds no summary message`);
  return JSON.stringify({ system: body.system, tools: body.tools, messages: messages.slice(0, at + 1) });
}
