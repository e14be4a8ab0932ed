import type { ModelStreamEvent } from '@agent/protocol';
import { type ChatChunk, type ChatDelta, ChatStreamMapper } from './stream.js';

/** A non-streamed Chat Completions answer, as far as it is read. */
export interface ChatCompletionLike {
  id?: string | null;
  model?: string | null;
  provider?: string | null;
  choices?: { index?: number | null; message?: ChatDelta | null; finish_reason?: string | null }[] | null;
  usage?: Record<string, unknown> | null;
}

/**
 * A whole answer yields the same events as a stream: it is read as one chunk whose delta is the
 * message (tool calls get their position as index, so calls without ids stay apart).
 */
export function mapChatResponse(
  response: ChatCompletionLike,
  configuredModel: string,
  declaredTools: ReadonlySet<string>,
  out: ModelStreamEvent[],
  provider = '',
): void {
  const mapper = new ChatStreamMapper(configuredModel, false, declaredTools, provider);
  const choice = response.choices?.find((c) => (c.index ?? 0) === 0);
  const message = choice?.message ?? undefined;
  const delta: ChatDelta | undefined = message && {
    ...message,
    tool_calls: message.tool_calls?.map((call, index) => ({ ...call, index })) ?? null,
  };
  const chunk: ChatChunk = {
    id: response.id ?? null,
    model: response.model ?? null,
    provider: response.provider ?? null,
    usage: response.usage ?? null,
    choices: [{ index: 0, delta: delta ?? null, finish_reason: choice?.finish_reason ?? null }],
  };
  mapper.handle(chunk, out);
  mapper.finish(out);
}
