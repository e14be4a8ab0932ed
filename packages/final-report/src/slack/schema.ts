import type { JsonSchema } from '@agent/protocol';
import { compileSchema } from '@agent/schema';
import { formatAjvErrors } from '../diagnostics.js';
import { SLACK_LIMITS } from './clamp.js';

const text = (max: number, types: string[] = ['mrkdwn', 'plain_text']): JsonSchema => ({
  type: 'object',
  required: ['type', 'text'],
  properties: {
    type: { enum: types },
    text: { type: 'string', minLength: 1, maxLength: max },
    emoji: { type: 'boolean' },
    verbatim: { type: 'boolean' },
  },
  additionalProperties: false,
});

const blockId = { type: 'string', minLength: 1, maxLength: 255 };
const imageElement: JsonSchema = {
  type: 'object',
  required: ['type', 'image_url', 'alt_text'],
  properties: { type: { const: 'image' }, image_url: { type: 'string' }, alt_text: { type: 'string' } },
  additionalProperties: false,
};

const when = (type: string, then: JsonSchema): JsonSchema => ({
  if: { properties: { type: { const: type } }, required: ['type'] },
  then,
});

/**
 * The Block Kit subset this package emits: `section`, `header`, `context`, `divider`,
 * `image` checked field by field with Slack's limits; `rich_text` and `actions` need an
 * `elements` array. At most 50 blocks per message.
 */
export const SLACK_MESSAGES_SCHEMA: JsonSchema = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['blocks'],
    additionalProperties: false,
    properties: {
      text: { type: 'string', maxLength: SLACK_LIMITS.messageText },
      blocks: {
        type: 'array',
        minItems: 1,
        maxItems: SLACK_LIMITS.blocksPerMessage,
        items: {
          type: 'object',
          required: ['type'],
          properties: {
            type: { enum: ['section', 'header', 'context', 'divider', 'image', 'rich_text', 'actions'] },
            block_id: blockId,
          },
          allOf: [
            when('section', {
              anyOf: [{ required: ['text'] }, { required: ['fields'] }],
              properties: {
                type: true,
                block_id: true,
                text: text(SLACK_LIMITS.sectionText),
                fields: {
                  type: 'array',
                  minItems: 1,
                  maxItems: SLACK_LIMITS.sectionFields,
                  items: text(SLACK_LIMITS.sectionField),
                },
                accessory: { type: 'object', required: ['type'] },
              },
              additionalProperties: false,
            }),
            when('header', {
              required: ['text'],
              properties: { type: true, block_id: true, text: text(SLACK_LIMITS.headerText, ['plain_text']) },
              additionalProperties: false,
            }),
            when('context', {
              required: ['elements'],
              properties: {
                type: true,
                block_id: true,
                elements: {
                  type: 'array',
                  minItems: 1,
                  maxItems: SLACK_LIMITS.contextElements,
                  items: { anyOf: [text(SLACK_LIMITS.contextText), imageElement] },
                },
              },
              additionalProperties: false,
            }),
            when('divider', { properties: { type: true, block_id: true }, additionalProperties: false }),
            when('image', {
              required: ['image_url', 'alt_text'],
              properties: {
                type: true,
                block_id: true,
                image_url: { type: 'string', minLength: 1 },
                alt_text: { type: 'string', maxLength: SLACK_LIMITS.imageAltText },
                title: text(SLACK_LIMITS.contextText, ['plain_text']),
              },
              additionalProperties: false,
            }),
            when('rich_text', { required: ['elements'], properties: { elements: { type: 'array' } } }),
            when('actions', {
              required: ['elements'],
              properties: { elements: { type: 'array', minItems: 1 } },
            }),
          ],
        },
      },
    },
  },
};

/** Problems of a messages array against `SLACK_MESSAGES_SCHEMA`, as diagnostics lines (empty when valid). */
export function slackSchemaProblems(messages: unknown): string[] {
  const compiled = compileSchema(SLACK_MESSAGES_SCHEMA);
  if (!compiled.ok) return [`the Slack schema does not compile: ${compiled.error}`];
  return formatAjvErrors(compiled.validate(messages));
}
