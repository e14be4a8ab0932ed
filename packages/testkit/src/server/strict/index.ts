import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '@agent/protocol/util';
import type { WireApi } from '../sse.js';
import { anthropicRules } from './anthropic.js';
import { deepSeekRules, mistralRules, openRouterRules } from './compatible.js';

import { chatToolPairing, openAIChatRules } from './openai-chat.js';
import { openAIResponsesRules, type StrictOptions } from './openai-responses.js';
import type { StrictViolation } from './violation.js';

export type { StrictOptions } from './openai-responses.js';
export type { StrictViolation } from './violation.js';

/**
 * Which server's rules a Chat Completions call meets, chosen by a path prefix
 * (`/mistral/v1/chat/completions`); without one, the API's own vendor (OpenAI, Anthropic).
 */
export const FLAVOURS = ['mistral', 'deepseek', 'openrouter'] as const;
export type Flavour = (typeof FLAVOURS)[number];

const CHAT_FLAVOUR_RULES: Record<Flavour, (body: Record<string, unknown>) => StrictViolation | undefined> = {
  mistral: mistralRules,
  deepseek: deepSeekRules,
  openrouter: openRouterRules,
};

/** The first documented rule the request breaks, or undefined when the API would take it. */
export function checkStrict(
  api: WireApi,
  flavour: Flavour | undefined,
  body: unknown,
  options: StrictOptions,
  headers: IncomingHttpHeaders = {},
): StrictViolation | undefined {
  if (!isRecord(body)) return undefined;
  if (api === 'anthropic') return anthropicRules(body, headers);
  if (api === 'openai-responses') return openAIResponsesRules(body, options);
  const own = flavour === undefined ? openAIChatRules(body) : CHAT_FLAVOUR_RULES[flavour](body);
  return own ?? chatToolPairing(body);
}
