import { SLACK_LIMITS } from './clamp.js';
import { toTextObject } from './text-objects.js';
import type { RepairLog, SlackBlock } from './types.js';

type Raw = Record<string, unknown>;

/** Block types kept as they are (beyond light shape checks): Slack validates their insides. */
const PASS_THROUGH = new Set(['rich_text', 'actions']);

/**
 * One block made safe: `section`, `header`, `context`, `divider` and `image` are rebuilt
 * field by field (Markdown converted, text clamped); `rich_text` and `actions` pass
 * through; a string, a `markdown` block or any other block carrying text becomes a
 * section; anything else is dropped (reported). Undefined when the block is dropped.
 */
export function normaliseBlock(raw: unknown, log: RepairLog): SlackBlock | undefined {
  if (typeof raw === 'string') return section({ text: raw }, log);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return drop(log, 'it is not an object');
  const block = raw as Raw;
  const type = typeof block.type === 'string' ? block.type : undefined;
  switch (type) {
    case 'section':
      return section(block, log);
    case 'header':
      return header(block, log);
    case 'context':
      return context(block, log);
    case 'divider':
      return withId({ type: 'divider' }, block);
    case 'image':
      return image(block, log);
    default:
      break;
  }
  if (type !== undefined && PASS_THROUGH.has(type)) {
    return Array.isArray(block.elements) ? { ...block, type } : drop(log, `${type} has no elements`);
  }
  if (type === undefined && Array.isArray(block.elements)) return context(block, log);
  if (block.text !== undefined || block.fields !== undefined) {
    log.repairs.push(
      `turned ${type === undefined ? 'a block without a type' : `a "${type}" block`} into a section at ${log.at}`,
    );
    return section(block, log);
  }
  return drop(log, type === undefined ? 'it has no type' : `"${type}" blocks are not supported`);
}

function section(block: Raw, log: RepairLog): SlackBlock | undefined {
  const out: SlackBlock = { type: 'section' };
  const text = toTextObject(block.text, SLACK_LIMITS.sectionText, log, 'section text');
  if (text !== undefined) out.text = text;
  if (Array.isArray(block.fields)) {
    const fields = block.fields
      .map((field) => toTextObject(field, SLACK_LIMITS.sectionField, log, 'section field'))
      .filter((field) => field !== undefined);
    if (fields.length > SLACK_LIMITS.sectionFields) {
      log.repairs.push(
        `kept the first ${SLACK_LIMITS.sectionFields} of ${fields.length} section fields at ${log.at}`,
      );
    }
    if (fields.length > 0) out.fields = fields.slice(0, SLACK_LIMITS.sectionFields);
  }
  if (out.text === undefined && out.fields === undefined) return drop(log, 'the section has no text');
  if (isTyped(block.accessory)) out.accessory = block.accessory;
  return withId(out, block);
}

function header(block: Raw, log: RepairLog): SlackBlock | undefined {
  const text = toTextObject(block.text, SLACK_LIMITS.headerText, log, 'header text', 'plain_text');
  if (text === undefined) return drop(log, 'the header has no text');
  return withId({ type: 'header', text }, block);
}

function context(block: Raw, log: RepairLog): SlackBlock | undefined {
  const raw = Array.isArray(block.elements) ? block.elements : block.text !== undefined ? [block.text] : [];
  const elements: unknown[] = [];
  for (const element of raw) {
    if (isTyped(element) && element.type === 'image') {
      const img = element as Raw;
      if (typeof img.image_url === 'string') {
        elements.push({ type: 'image', image_url: img.image_url, alt_text: altText(img.alt_text) });
      }
      continue;
    }
    const text = toTextObject(element, SLACK_LIMITS.contextText, log, 'context text');
    if (text !== undefined) elements.push(text);
  }
  if (elements.length > SLACK_LIMITS.contextElements) {
    log.repairs.push(
      `kept the first ${SLACK_LIMITS.contextElements} of ${elements.length} context elements at ${log.at}`,
    );
  }
  if (elements.length === 0) return drop(log, 'the context has no elements');
  return withId({ type: 'context', elements: elements.slice(0, SLACK_LIMITS.contextElements) }, block);
}

function image(block: Raw, log: RepairLog): SlackBlock | undefined {
  if (typeof block.image_url !== 'string') return drop(log, 'the image has no image_url');
  const out: SlackBlock = { type: 'image', image_url: block.image_url, alt_text: altText(block.alt_text) };
  const title = toTextObject(block.title, SLACK_LIMITS.contextText, log, 'image title', 'plain_text');
  if (title !== undefined) out.title = title;
  return withId(out, block);
}

function altText(value: unknown): string {
  return typeof value === 'string' && value.trim() !== ''
    ? value.slice(0, SLACK_LIMITS.imageAltText)
    : 'image';
}

function withId(out: SlackBlock, block: Raw): SlackBlock {
  if (typeof block.block_id === 'string' && block.block_id.length > 0 && block.block_id.length <= 255) {
    out.block_id = block.block_id;
  }
  return out;
}

function isTyped(value: unknown): value is { type: string } {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

function drop(log: RepairLog, why: string): undefined {
  log.repairs.push(`dropped a block at ${log.at}: ${why}`);
  return undefined;
}
