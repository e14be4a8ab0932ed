// How much of each request a provider can serve from its prompt cache, read from the request
// bodies the model server received, in o200k tokens (OpenAI's encoding; Anthropic publishes no
// tokenizer, and a share is a ratio of the same encoding's counts).
//
// OpenAI (automatic caching): a request is read as the API reads it, tools first, then the
// response format, then the messages: each item's JSON as sent (key order included), joined by
// newlines. Its cacheable prefix is the longest common prefix, in characters, with any earlier
// request of the session; the share is that prefix's tokens over the whole request's.
//
// Anthropic (explicit `cache_control` marks): a request is its blocks in cache order (tools,
// system blocks, then each message's content blocks, a message's first block carrying its
// index and role), each without its `cache_control`. An earlier request wrote the prefix up to
// each of its marked blocks; a request reads, at each of its own marks, the longest written
// prefix ending at that block or up to 20 blocks before it (the API's look-back). The share is
// the longest read's tokens over the whole request's.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** Blocks the Anthropic API looks back from a mark for an earlier write. */
export const LOOK_BACK_BLOCKS = 20;

export interface RequestShare {
  /** 1-based model call of the session. */
  turn: number;
  inputTokens: number;
  cachedTokens: number;
  share: number;
}

type Json = Record<string, unknown>;

/** The items of a Chat Completions body in the order the API reads them. */
export function openaiItems(body: Json): string[] {
  const items: string[] = [];
  for (const tool of (body.tools as unknown[] | undefined) ?? []) items.push(JSON.stringify(tool));
  if (body.response_format !== undefined) items.push(JSON.stringify(body.response_format));
  for (const message of (body.messages as unknown[] | undefined) ?? []) items.push(JSON.stringify(message));
  return items;
}

function commonPrefixLength(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Per request from the second on: the longest prefix shared with an earlier request. */
export function openaiShares(bodies: readonly Json[]): RequestShare[] {
  const texts = bodies.map((body) => openaiItems(body).join('\n'));
  const shares: RequestShare[] = [];
  for (let i = 1; i < texts.length; i++) {
    const text = texts[i]!;
    let longest = 0;
    for (let j = 0; j < i; j++) longest = Math.max(longest, commonPrefixLength(text, texts[j]!));
    shares.push(share(i + 1, countTokens(text), countTokens(text.slice(0, longest))));
  }
  return shares;
}

interface Block {
  key: string;
  marked: boolean;
}

/** The blocks of a Messages body in cache order, each without its mark. */
export function anthropicBlocks(body: Json): Block[] {
  const entry = (prefix: string, block: Json): Block => {
    const { cache_control, ...rest } = block;
    return { key: `${prefix}${JSON.stringify(rest)}`, marked: cache_control !== undefined };
  };
  const system =
    typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system as Json[]);
  const blocks: Block[] = [];
  for (const tool of (body.tools as Json[] | undefined) ?? []) blocks.push(entry('tool:', tool));
  for (const block of system ?? []) blocks.push(entry('system:', block));
  const messages = (body.messages as { role: string; content: string | Json[] }[] | undefined) ?? [];
  for (const [m, message] of messages.entries()) {
    const content =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const [b, block] of content.entries())
      blocks.push(entry(b === 0 ? `${m}:${message.role}:` : '', block));
  }
  return blocks;
}

/** The prefix text up to and including block `end`. */
function prefixOf(blocks: readonly Block[], end: number): string {
  return blocks
    .slice(0, end + 1)
    .map((block) => block.key)
    .join('\n');
}

/** Per request from the second on: the longest prefix read at a mark from an earlier write. */
export function anthropicShares(bodies: readonly Json[]): RequestShare[] {
  const written = new Set<string>();
  const shares: RequestShare[] = [];
  bodies.forEach((body, i) => {
    const blocks = anthropicBlocks(body);
    const marks = blocks.flatMap((block, index) => (block.marked ? [index] : []));
    let read = '';
    for (const mark of marks) {
      for (let p = mark; p >= Math.max(0, mark - LOOK_BACK_BLOCKS); p--) {
        const prefix = prefixOf(blocks, p);
        if (!written.has(prefix)) continue;
        if (prefix.length > read.length) read = prefix;
        break;
      }
    }
    if (i > 0) shares.push(share(i + 1, countTokens(prefixOf(blocks, blocks.length - 1)), countTokens(read)));
    for (const mark of marks) written.add(prefixOf(blocks, mark));
  });
  return shares;
}

function share(turn: number, inputTokens: number, cachedTokens: number): RequestShare {
  return { turn, inputTokens, cachedTokens, share: inputTokens === 0 ? 0 : cachedTokens / inputTokens };
}
