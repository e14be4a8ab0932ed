import type { ModelStreamEvent } from '@agent/protocol';
import { type AnthropicBlock, AnthropicStreamMapper } from './stream.js';

/** A non-streamed Messages answer, as far as it is read. */
export interface AnthropicMessageLike {
  id?: string;
  model?: string;
  content?: AnthropicBlock[] | null;
  stop_reason?: string | null;
  usage?: Record<string, unknown> | null;
}

/** A whole message yields the same events as a stream: it is replayed as its stream events. */
export function mapAnthropicResponse(
  message: AnthropicMessageLike,
  configuredModel: string,
  out: ModelStreamEvent[],
): void {
  const mapper = new AnthropicStreamMapper(configuredModel, false);
  const start: { id?: string; model?: string } = {};
  if (message.id !== undefined) start.id = message.id;
  if (message.model !== undefined) start.model = message.model;
  mapper.handle({ type: 'message_start', message: start }, out);
  (message.content ?? []).forEach((block, index) => {
    mapper.handle({ type: 'content_block_start', index, content_block: block }, out);
    mapper.handle({ type: 'content_block_stop', index }, out);
  });
  mapper.handle(
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason ?? null },
      usage: message.usage ?? null,
    },
    out,
  );
  mapper.handle({ type: 'message_stop' }, out);
  mapper.finish(out);
}
