// What a contender's request adds beyond the user's own content, read from the Chat Completions
// body the model server received, in o200k tokens (OpenAI's encoding, the one @agent/providers
// counts with): system text beyond the agent's instructions, user messages that are not the
// prompt (notices), tools the agent did not define, and what a contender adds to the
// definition of the agent's own tool.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { INSTRUCTIONS, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA } from './script.js';

/** Tokens one request adds, by where they go. */
export interface RequestAdditions {
  /** System/developer text beyond the agent's instructions. */
  system: number;
  /** User messages other than the prompt (the XML-NEXT notice), and text added around the prompt. */
  notice: number;
  /** Tools the agent did not define (internal tools), as the JSON the request carries. */
  internalTools: number;
  /** Their names. */
  internalToolNames: string[];
  /** The agent's own tool as sent, beyond its definition as the raw loop sends it. */
  toolDefinition: number;
  total: number;
  /** The whole request body, bytes. */
  bodyBytes: number;
}

/** The agent's tool as the raw loop declares it: what any framework has to send at least. */
const REFERENCE_TOOL = JSON.stringify({
  type: 'function',
  function: { name: TOOL_NAME, description: TOOL_DESCRIPTION, parameters: TOOL_SCHEMA },
});

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('');
}

/** Tokens of `text` beyond those of `own` when `text` contains it, else all of `text`'s. */
function beyond(text: string, own: string): number {
  if (own !== '' && text.includes(own)) return Math.max(0, countTokens(text) - countTokens(own));
  return countTokens(text);
}

function toolName(tool: unknown): string | undefined {
  const fn = (tool as { function?: { name?: unknown } } | null)?.function;
  return typeof fn?.name === 'string' ? fn.name : undefined;
}

/**
 * The additions of one Chat Completions request body. `prompt` is the user's prompt of the
 * session (the first user message that carries it is the user's own).
 */
export function requestAdditions(body: unknown, prompt: string): RequestAdditions {
  const { messages = [], tools = [] } = (body ?? {}) as { messages?: unknown[]; tools?: unknown[] };
  let system = 0;
  let notice = 0;
  let promptSeen = false;
  for (const message of messages) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    const text = textOf(content);
    if (role === 'system' || role === 'developer') system += beyond(text, INSTRUCTIONS);
    else if (role === 'user' && !promptSeen && text.includes(prompt)) {
      promptSeen = true;
      notice += beyond(text, prompt);
    } else if (role === 'user') notice += countTokens(text);
  }
  let internalTools = 0;
  let toolDefinition = 0;
  const internalToolNames: string[] = [];
  for (const tool of tools) {
    const json = JSON.stringify(tool);
    const name = toolName(tool);
    if (name === TOOL_NAME) toolDefinition += Math.max(0, countTokens(json) - countTokens(REFERENCE_TOOL));
    else {
      internalTools += countTokens(json);
      internalToolNames.push(name ?? '(unnamed)');
    }
  }
  return {
    system,
    notice,
    internalTools,
    internalToolNames,
    toolDefinition,
    total: system + notice + internalTools + toolDefinition,
    bodyBytes: Buffer.byteLength(JSON.stringify(body ?? {})),
  };
}
