import type { IncomingHttpHeaders } from 'node:http';
import { type Json, objects } from './json.js';
import { anthropicRejection, type StrictViolation } from './violation.js';

/** The beta deferred tools and `tool_reference` blocks need. */
export const ADVANCED_TOOL_USE_BETA = 'advanced-tool-use-2025-11-20';

const blocksOf = (message: Json): Json[] =>
  typeof message.content === 'string' ? [] : objects(message.content);

function betas(headers: IncomingHttpHeaders): string[] {
  const raw = headers['anthropic-beta'];
  const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return value.split(',').map((beta) => beta.trim());
}

/**
 * Deferred tools (`defer_loading`) and the `tool_reference` blocks that load them: only with the
 * advanced-tool-use beta, never every tool deferred, no cache breakpoint on a deferred tool (it is
 * not in the prefix), and a reference only to a deferred tool of the request.
 */
export function deferredToolRules(body: Json, headers: IncomingHttpHeaders): StrictViolation | undefined {
  const tools = objects(body.tools);
  const deferred = new Set(
    tools.filter((tool) => tool.defer_loading === true).map((tool) => String(tool.name)),
  );
  const referencing = objects(body.messages).some((message) =>
    blocksOf(message).some(
      (block) =>
        block.type === 'tool_result' && objects(block.content).some((part) => part.type === 'tool_reference'),
    ),
  );
  if (deferred.size === 0 && !referencing) return undefined;
  if (!betas(headers).includes(ADVANCED_TOOL_USE_BETA)) {
    const index = tools.findIndex((tool) => tool.defer_loading === true);
    return anthropicRejection(
      index >= 0
        ? `tools.${index}.custom.defer_loading: Extra inputs are not permitted`
        : 'tool_reference blocks require the anthropic-beta header advanced-tool-use-2025-11-20',
    );
  }
  if (deferred.size > 0 && deferred.size === tools.length) {
    return anthropicRejection('At least one tool must have defer_loading set to false.');
  }
  const cached = tools.findIndex((tool) => tool.defer_loading === true && tool.cache_control !== undefined);
  if (cached >= 0) {
    return anthropicRejection(`tools.${cached}: cache_control cannot be set on a tool with defer_loading`);
  }
  for (const [index, message] of objects(body.messages).entries()) {
    for (const block of blocksOf(message)) {
      if (block.type !== 'tool_result') continue;
      for (const part of objects(block.content)) {
        if (part.type === 'tool_reference' && !deferred.has(String(part.tool_name))) {
          return anthropicRejection(
            `messages.${index}: tool_reference to '${String(part.tool_name)}', which is not a deferred tool of this request (tools with defer_loading: true)`,
          );
        }
      }
    }
  }
  return undefined;
}
