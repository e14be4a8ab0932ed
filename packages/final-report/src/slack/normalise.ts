import { parseJsonLenient } from '../json-lenient.js';
import { normaliseBlock } from './blocks.js';
import { clampText, SLACK_LIMITS, splitText } from './clamp.js';
import { markdownToMrkdwn } from './markdown-to-mrkdwn.js';
import type { SlackBlock, SlackMessage } from './types.js';

type Raw = Record<string, unknown>;

/**
 * Coerces whatever the model sent into `SlackMessage[]`: the messages array itself, a
 * `{ messages: [...] }` wrapper, one message `{ blocks }`, a bare blocks array (one
 * message), a message that is a blocks array or a string (Markdown split into sections),
 * a string holding JSON. Every block goes through `normaliseBlock`; a message with more
 * than 50 blocks is split; empty messages are dropped. Every change is reported.
 */
export function normaliseMessages(value: unknown, repairs: string[]): SlackMessage[] {
  const rawMessages = messageList(value, repairs);
  const messages: SlackMessage[] = [];
  rawMessages.forEach((raw, index) => {
    const message = normaliseMessage(raw, `message ${index + 1}`, repairs);
    if (message === undefined) {
      repairs.push(`dropped message ${index + 1}: it has no usable blocks`);
      return;
    }
    messages.push(...splitBlocks(message, index, repairs));
  });
  return messages;
}

function messageList(value: unknown, repairs: string[]): unknown[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isBareBlock)) {
      repairs.push('treated a bare blocks array as one message');
      return [{ blocks: value }];
    }
    return value;
  }
  if (typeof value !== 'object' || value === null) return [];
  const obj = value as Raw;
  if (Array.isArray(obj.messages)) {
    repairs.push('unwrapped the {"messages": [...]} wrapper');
    return messageList(obj.messages, repairs);
  }
  if (typeof obj.messages === 'string') {
    repairs.push('unwrapped the {"messages": [...]} wrapper');
    return messageList(decode(obj.messages), repairs);
  }
  return [value];
}

function normaliseMessage(raw: unknown, at: string, repairs: string[]): SlackMessage | undefined {
  if (typeof raw === 'string') {
    const decoded = decode(raw);
    if (decoded !== raw) return normaliseMessage(decoded, at, repairs);
    return textMessage(raw);
  }
  if (Array.isArray(raw)) return blocksMessage(raw, undefined, at, repairs);
  if (typeof raw !== 'object' || raw === null) return undefined;
  const obj = raw as Raw;
  let blocks = obj.blocks;
  if (typeof blocks === 'string') {
    blocks = decode(blocks);
    if (Array.isArray(blocks)) repairs.push(`parsed stringified blocks in ${at}`);
  }
  if (Array.isArray(blocks)) return blocksMessage(blocks, obj.text, at, repairs);
  if (typeof obj.type === 'string') return blocksMessage([obj], undefined, at, repairs);
  if (typeof obj.text === 'string') return textMessage(obj.text);
  return undefined;
}

function blocksMessage(
  raw: unknown[],
  text: unknown,
  at: string,
  repairs: string[],
): SlackMessage | undefined {
  const blocks: SlackBlock[] = [];
  raw.forEach((item, index) => {
    const block = normaliseBlock(item, { at: `${at} block ${index + 1}`, repairs });
    if (block !== undefined) blocks.push(block);
  });
  if (blocks.length === 0)
    return typeof text === 'string' && text.trim() !== '' ? textMessage(text) : undefined;
  const message: SlackMessage = { blocks };
  if (typeof text === 'string' && text.trim() !== '')
    message.text = clampText(text, SLACK_LIMITS.messageText);
  return message;
}

/** Markdown text as mrkdwn sections of at most 2900 characters each. */
export function textMessage(text: string): SlackMessage | undefined {
  const blocks = splitText(markdownToMrkdwn(text), SLACK_LIMITS.sectionText).map(
    (piece): SlackBlock => ({ type: 'section', text: { type: 'mrkdwn', text: piece } }),
  );
  return blocks.length === 0 ? undefined : { blocks };
}

function splitBlocks(message: SlackMessage, index: number, repairs: string[]): SlackMessage[] {
  const max = SLACK_LIMITS.blocksPerMessage;
  if (message.blocks.length <= max) return [message];
  repairs.push(
    `split message ${index + 1} (${message.blocks.length} blocks) into messages of at most ${max} blocks`,
  );
  const parts: SlackMessage[] = [];
  for (let start = 0; start < message.blocks.length; start += max) {
    const part: SlackMessage = { blocks: message.blocks.slice(start, start + max) };
    if (start === 0 && message.text !== undefined) part.text = message.text;
    parts.push(part);
  }
  return parts;
}

/** A block (not a message): a typed object without `blocks`. */
function isBareBlock(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const obj = value as Raw;
  return typeof obj.type === 'string' && obj.blocks === undefined;
}

/** A string holding a JSON object or array, decoded; any other string comes back as is. */
function decode(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return text;
  const parsed = parseJsonLenient(trimmed, { preferArray: true });
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : text;
}
