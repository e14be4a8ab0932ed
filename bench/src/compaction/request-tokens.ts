// The input tokens of one Chat Completions request as OpenAI counts them: o200k tokens of each
// message's text and tool calls, a few tokens of framing per message, and the tool definitions.
// The model server reports this as the call's usage, so the session's context guard is
// corrected by the real size of what it sent.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** Framing per message (role and separators), per the OpenAI cookbook's counting recipe. */
const PER_MESSAGE = 3;
/** The reply's priming. */
const PER_REQUEST = 3;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      const text = (part as { text?: unknown } | null)?.text;
      return typeof text === 'string' ? text : '';
    })
    .join('');
}

interface WireMessage {
  role?: unknown;
  content?: unknown;
  tool_calls?: { function?: { name?: unknown; arguments?: unknown } }[];
}

/** Input tokens of a Chat Completions body (`messages`, `tools`). */
export function chatRequestTokens(body: unknown): number {
  const { messages = [], tools = [] } = (body ?? {}) as { messages?: WireMessage[]; tools?: unknown[] };
  let total = PER_REQUEST;
  for (const message of messages) {
    total += PER_MESSAGE + countTokens(String(message.role ?? '')) + countTokens(textOf(message.content));
    for (const call of message.tool_calls ?? [])
      total +=
        PER_MESSAGE +
        countTokens(`${String(call.function?.name ?? '')}${String(call.function?.arguments ?? '')}`);
  }
  if (tools.length > 0) total += countTokens(JSON.stringify(tools));
  return total;
}
