import type { ReasoningPart } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';

/**
 * OpenRouter's `reasoning_details`: structured reasoning (text with signatures, encrypted
 * blocks, summaries) that must go back unchanged on the next request; Gemini behind OpenRouter
 * rejects a tool turn without its thought signatures.
 */
export interface ChatReasoningData {
  api: 'openai-chat';
  /** The configured provider key that sent them; they go back only to it. */
  provider: string;
  reasoningDetails: Record<string, unknown>[];
}

/** The details to send back to `provider` on an assistant message, if it has any from it. */
export function chatReasoningDetails(
  reasoning: readonly ReasoningPart[] | undefined,
  provider: string,
): Record<string, unknown>[] | undefined {
  const details: Record<string, unknown>[] = [];
  for (const part of reasoning ?? []) {
    const data = part.providerData;
    if (data?.api !== 'openai-chat' || data.provider !== provider) continue;
    if (Array.isArray(data.reasoningDetails))
      details.push(...(data.reasoningDetails as Record<string, unknown>[]));
  }
  return details.length > 0 ? details : undefined;
}

/**
 * Collects streamed details: a piece with the `index` of an earlier one continues it (its
 * `text` and `summary` are appended, other fields set); a piece without an index stands alone.
 */
export class ReasoningDetailsCollector {
  private readonly details: Record<string, unknown>[] = [];

  add(pieces: unknown): void {
    if (!Array.isArray(pieces)) return;
    for (const piece of pieces) {
      if (!isRecord(piece)) continue;
      const existing =
        typeof piece.index === 'number'
          ? this.details.find((detail) => detail.index === piece.index)
          : undefined;
      if (existing === undefined) {
        this.details.push({ ...piece });
        continue;
      }
      for (const [key, value] of Object.entries(piece)) {
        const before = existing[key];
        if (
          (key === 'text' || key === 'summary') &&
          typeof before === 'string' &&
          typeof value === 'string'
        ) {
          existing[key] = before + value;
        } else if (value !== null && value !== undefined) {
          existing[key] = value;
        }
      }
    }
  }

  /** The provider data that closes the reasoning block, or undefined when nothing came. */
  providerData(provider: string): ChatReasoningData | undefined {
    if (this.details.length === 0) return undefined;
    return { api: 'openai-chat', provider, reasoningDetails: this.details };
  }
}
