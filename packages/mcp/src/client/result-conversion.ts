import type { ContentPart, ToolResult } from '@agent/protocol';
import type { CallToolResult, ContentBlock, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js';

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function describeResource(block: EmbeddedResource, parts: ContentPart[]): string {
  const resource = block.resource;
  const mime = resource.mimeType ? ` (${resource.mimeType})` : '';
  if ('text' in resource && typeof resource.text === 'string') {
    return `[resource ${resource.uri}${mime}]\n${resource.text}`;
  }
  const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
  if (resource.mimeType?.startsWith('image/') && blob) {
    parts.push({ type: 'image', mimeType: resource.mimeType, data: blob });
    return `[image resource ${resource.uri}${mime}, ${base64Bytes(blob)} bytes, attached]`;
  }
  return `[binary resource ${resource.uri}${mime}, ${base64Bytes(blob)} bytes, not shown]`;
}

function convertBlock(block: ContentBlock, parts: ContentPart[]): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      parts.push({ type: 'image', mimeType: block.mimeType, data: block.data });
      return `[image ${block.mimeType}, ${base64Bytes(block.data)} bytes, attached]`;
    case 'audio':
      return `[audio ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'resource':
      return describeResource(block, parts);
    case 'resource_link': {
      const details = [block.mimeType, block.description].filter(Boolean).join('; ');
      return `[resource link ${block.name} ${block.uri}${details ? ` (${details})` : ''}]`;
    }
    default:
      return `[unsupported content ${JSON.stringify((block as { type?: unknown }).type)}]`;
  }
}

/**
 * Turns an MCP `tools/call` result into the protocol's `ToolResult`: text blocks joined by
 * newlines, images kept as image parts (with a marker in the text), text resources inline,
 * binary resources and audio described, structured content passed through (and used as the
 * text when there is no text), and `isError` kept as a domain error.
 */
export function convertCallToolResult(result: CallToolResult | { toolResult: unknown }): ToolResult {
  if (!('content' in result) && 'toolResult' in result) {
    return { ok: true, text: JSON.stringify(result.toolResult) ?? '' };
  }
  const callResult = result as CallToolResult;
  const parts: ContentPart[] = [];
  const texts = (callResult.content ?? []).map((block) => convertBlock(block, parts));
  const structured = callResult.structuredContent;
  let text = texts.join('\n');
  if (text === '' && structured !== undefined) text = JSON.stringify(structured);
  return {
    ok: true,
    text,
    ...(parts.length > 0 ? { parts } : {}),
    ...(structured !== undefined ? { structured } : {}),
    ...(callResult.isError ? { isError: true } : {}),
  };
}
