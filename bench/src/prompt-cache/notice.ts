// The o200k tokens of agent-core's per-turn XML-NEXT notice in a request body: the text it
// sends last (a user message for Chat, the last text block for Anthropic); 0 when there is none.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const NOTICE_MARK = '# XML-NEXT';

function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    const text = (part as { text?: unknown } | null)?.text;
    return typeof text === 'string' ? [text] : [];
  });
}

export function noticeTokensOf(body: Record<string, unknown> | undefined): number {
  const messages = (body?.messages as { content?: unknown }[] | undefined) ?? [];
  const last = messages.at(-1);
  const notice = texts(last?.content).findLast((text) => text.startsWith(NOTICE_MARK));
  return notice === undefined ? 0 : countTokens(notice);
}
