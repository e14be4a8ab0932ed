import type {
  ConversationMessage,
  SavedToolOutput,
  ToolDefinition,
  ToolOutputHook,
  ToolOutputHookFactory,
  ToolProvider,
} from '@agent/protocol';
import type { RecordedRequest, ScriptedAnswer, ScriptStep } from '@agent/testkit';
import { SUMMARY_PROMPT } from '../../src/compaction/summary-input.js';
import { memoryTools } from '../helpers/memory-tools.js';
import { xmlReport } from '../helpers/scenario.js';

/** A tool-output store in memory: `storeText` keeps the text, `tool_output` gives it back whole. */
export interface MemoryStore {
  factory: ToolOutputHookFactory;
  stored: Map<string, SavedToolOutput>;
}

const TOOL_OUTPUT: ToolDefinition = {
  name: 'tool_output',
  description: 'Reads a stored output by its handle.',
  inputSchema: {
    type: 'object',
    properties: { handle: { type: 'string' }, extract: { type: 'string' } },
    required: ['handle', 'extract'],
  },
};

/**
 * A test-local tool-output hook with a store in memory (`withStoreText: false`: a hook of an
 * older shape, without `storeText`). Its outputs travel with snapshots.
 */
export function memoryStore(options: { withStoreText?: boolean; failStore?: boolean } = {}): MemoryStore {
  const stored = new Map<string, SavedToolOutput>();
  const provider: ToolProvider = memoryTools('agent', {
    tool_output: (args) => stored.get(String(args.handle))?.text ?? `unknown handle ${String(args.handle)}`,
  });
  const definitions = [TOOL_OUTPUT];
  let next = 1;
  const hook: ToolOutputHook = {
    size: async () => ({ action: 'keep' }),
    tools: () => (stored.size === 0 ? undefined : { definitions, provider }),
    dispose: async () => {},
    saveOutputs: async () => [...stored.values()],
    restoreOutputs: async (outputs) => {
      for (const output of outputs) stored.set(output.handle, output);
    },
  };
  if (options.withStoreText !== false) {
    hook.storeText = async (output) => {
      if (options.failStore === true) throw new Error('the disk is full');
      const handle = `00000000-0000-4000-8000-${String(next++).padStart(12, '0')}`;
      stored.set(handle, { handle, createdAt: 0, ...output });
      return handle;
    };
  }
  return { factory: () => hook, stored };
}

export const isSummaryCall = (request: RecordedRequest) =>
  request.messages[0]?.role === 'system' && request.messages[0].content === SUMMARY_PROMPT;

/** A payload of about `tokens` tokens, different per `n`. */
export function payload(n: number, tokens: number): string {
  return Array.from({ length: tokens }, (_, i) => `w${n}x${i}`).join(' ');
}

export interface LongSession {
  /** One step the scripted model reuses for every call. */
  steps: ScriptStep[];
  /** Session calls (not summary calls) answered so far. */
  readonly turns: number;
}

/**
 * A model that fetches page 1..`pages` (one call a turn), then reports; summary calls answer
 * `summary(request)`. Each step looks at the request, so the same script serves any number of
 * compactions.
 */
export function longSession(
  pages: number,
  summary: (request: RecordedRequest) => ScriptedAnswer = () => ({ text: 'Fetched pages so far; go on.' }),
): LongSession {
  let turns = 0;
  const step: ScriptStep = (request) => {
    if (isSummaryCall(request)) return summary(request);
    turns++;
    // A final turn offers no fetch: the model reports what it has.
    if (!request.tools.some((t) => t.name === 'fetch'))
      return { text: xmlReport(`final-turn report after ${turns - 1} turns`) };
    const fetched = request.messages.filter((m) => m.role === 'tool' && m.toolName === 'fetch').length;
    const page = turns;
    if (page > pages || fetched >= pages) return { text: xmlReport(`report after ${turns - 1} pages`) };
    return { toolCalls: [{ id: `call-${page}`, name: 'fetch', arguments: { page } }] };
  };
  return {
    steps: Array.from({ length: pages * 3 + 20 }, () => step),
    get turns() {
      return turns;
    },
  };
}

/** The fetch tool: page n is about `tokens` tokens. */
export const fetchTool = (tokens: number) =>
  memoryTools('web', { fetch: (args) => `page ${String(args.page)}: ${payload(Number(args.page), tokens)}` });

/** Every tool call of a request has its result and every result its call. */
export function pairingProblems(messages: readonly ConversationMessage[]): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) calls.add(call.id);
    if (m.role === 'tool') results.add(m.toolCallId);
  }
  return [
    ...[...calls].filter((id) => !results.has(id)).map((id) => `call ${id} without its result`),
    ...[...results].filter((id) => !calls.has(id)).map((id) => `result ${id} without its call`),
  ];
}
