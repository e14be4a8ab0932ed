// The script every contender plays: N turns of two calls to a local `lookup` tool, then one
// final answer. The server is stateless per session: it reads the turn from the request itself
// (tool results already in the conversation) and the configuration from a marker in the first
// user message, so any number of sessions can run against it at once.
import type { ConversationMessage } from '@agent/protocol';
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';

/** The answer every contender must return, verbatim. */
export const FINAL_ANSWER = 'FINAL-ANSWER-42';
/** What the local tool returns, whatever it is asked. */
export const LOOKUP_RESULT = 'lookup: the value is 42 (fixed benchmark output)';
/** The agent's instructions, the same for every contender (its system prompt). */
export const INSTRUCTIONS = 'Use the lookup tool, then answer.';
export const TOOL_NAME = 'lookup';
export const TOOL_DESCRIPTION = 'Looks a key up and returns its value.';
export const TOOL_SCHEMA = {
  type: 'object',
  properties: { key: { type: 'string', description: 'The key to look up.' } },
  required: ['key'],
  additionalProperties: false,
} as const;
/** An OpenAI-family name, as a user of the `openai` provider would configure. */
export const MODEL = 'gpt-4.1-mini';
/** Tool calls the server asks for per turn. */
export const CALLS_PER_TURN = 2;
/** Text deltas are cut to about one token (4 characters), as real models stream. */
const DELTA_CHARS = 4;

/** The local tool: a fixed string, no I/O. */
export function lookup(_key: unknown): string {
  return LOOKUP_RESULT;
}

export interface SessionSpec {
  /** Tool turns before the final answer. */
  turns: number;
  /** Memory phase: hold the final request until `count` sessions of `phase` wait there. */
  hold?: { phase: string; count: number };
}

const MARKER = /\[agent-loop turns=(\d+)(?: hold=([\w-]+)\/(\d+))?\]/;
const NONCE = /ai-agent-([0-9a-f]{8})-FINAL/;

/** The user prompt of a session; the marker tells the server how to play it. */
export function promptFor(spec: SessionSpec): string {
  const hold = spec.hold === undefined ? '' : ` hold=${spec.hold.phase}/${spec.hold.count}`;
  return `Look up the keys the task needs with the lookup tool, then give the answer. [agent-loop turns=${spec.turns}${hold}]`;
}

export function specFromMessages(messages: readonly ConversationMessage[]): SessionSpec | undefined {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const match = MARKER.exec(message.content);
    if (match === null) continue;
    const turns = Number(match[1]);
    if (match[2] === undefined) return { turns };
    return { turns, hold: { phase: match[2], count: Number(match[3]) } };
  }
  return undefined;
}

function deltas(text: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += DELTA_CHARS) parts.push(text.slice(i, i + DELTA_CHARS));
  return parts;
}

/** The session's FINAL tag, named by `@agent/core`'s XML-NEXT notice (peers have none). */
export function finalTagOf(messages: readonly ConversationMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'user') continue;
    const nonce = NONCE.exec(message.content)?.[1];
    if (nonce !== undefined) return `ai-agent-${nonce}-FINAL`;
  }
  return undefined;
}

function finalText(messages: readonly ConversationMessage[]): string {
  const tag = finalTagOf(messages);
  if (tag === undefined) return FINAL_ANSWER;
  return `<${tag} tool="agent__final_report" status="success" format="text">${FINAL_ANSWER}</${tag}>`;
}

export interface PlannedAnswer {
  answer: ScriptedAnswer;
  /** Set when this is the final request of a memory-phase session: hold it. */
  hold?: { phase: string; count: number };
}

/** Decides the answer from the request alone. */
export function planAnswer(request: RecordedRequest): PlannedAnswer {
  const spec = specFromMessages(request.messages);
  if (spec === undefined) {
    return {
      answer: {
        error: {
          kind: 'bad_request',
          message: 'agent-loop server: no [agent-loop turns=N] marker in any user message',
        },
      },
    };
  }
  let toolResults = 0;
  for (const message of request.messages) if (message.role === 'tool') toolResults++;
  const turn = Math.floor(toolResults / CALLS_PER_TURN);
  if (turn < spec.turns) {
    return {
      answer: {
        toolCalls: [
          { name: TOOL_NAME, arguments: { key: `turn-${turn}-alpha` } },
          { name: TOOL_NAME, arguments: { key: `turn-${turn}-beta` } },
        ],
      },
    };
  }
  const answer: ScriptedAnswer = { text: deltas(finalText(request.messages)) };
  return spec.hold === undefined ? { answer } : { answer, hold: spec.hold };
}
