import type { ContentPart, ToolCall } from '@agent/protocol';

/** An image part as a `data:` URL, the form the OpenAI APIs accept inline. */
export function imageDataUrl(part: { mimeType: string; data: string }): string {
  return `data:${part.mimeType};base64,${part.data}`;
}

/** The image parts of a message, if any. */
export function imagePartsOf(
  parts: readonly ContentPart[] | undefined,
): { mimeType: string; data: string }[] {
  if (!parts) return [];
  const images: { mimeType: string; data: string }[] = [];
  for (const part of parts) if (part.type === 'image') images.push(part);
  return images;
}

/**
 * The argument string to send back for an earlier tool call: what the model sent when it was a
 * valid object, else `{}` (servers that re-parse history reject invalid JSON; the tool result
 * already told the model what was wrong).
 */
export function argumentsForHistory(call: ToolCall): string {
  if (call.parseError !== undefined) return '{}';
  return call.rawArguments !== undefined && call.rawArguments.trim() !== ''
    ? call.rawArguments
    : JSON.stringify(call.arguments);
}
