import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '@agent/protocol/util';
import { deferredToolRules } from './anthropic-deferred-tools.js';
import { type Json, objects } from './json.js';
import { anthropicOutputLimit, modelName } from './model-rules.js';
import { anthropicRejection, type StrictViolation } from './violation.js';

const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/** Blocks of a message (a string content is one text block). */
const blocksOf = (message: Json): Json[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : objects(message.content);

/** max_tokens, the thinking budget and the sampling parameters that go with thinking. */
function limitsAndThinking(body: Json): StrictViolation | undefined {
  const model = modelName(body.model);
  const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
  const limit = anthropicOutputLimit(model);
  if (limit !== undefined && maxTokens > limit) {
    return anthropicRejection(
      `max_tokens: ${maxTokens} > ${limit}, which is the maximum allowed number of output tokens for ${String(body.model)}`,
    );
  }
  if (/-4-5/.test(model) && body.temperature !== undefined && body.top_p !== undefined) {
    return anthropicRejection(
      '`temperature` and `top_p` cannot both be specified for this model. Please use only one.',
    );
  }
  const thinking = isRecord(body.thinking) && body.thinking.type === 'enabled' ? body.thinking : undefined;
  if (thinking === undefined) return undefined;
  const budget = typeof thinking.budget_tokens === 'number' ? thinking.budget_tokens : 0;
  if (budget < 1024) {
    return anthropicRejection(
      'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024',
    );
  }
  if (maxTokens <= budget) {
    return anthropicRejection(
      `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING_DOCS}#max-tokens-and-context-window-size`,
    );
  }
  const choice = isRecord(body.tool_choice) ? body.tool_choice.type : undefined;
  if (choice === 'any' || choice === 'tool') {
    return anthropicRejection('Thinking may not be enabled when tool_choice forces tool use.');
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    return anthropicRejection(
      `\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at ${THINKING_DOCS}#feature-compatibility`,
    );
  }
  const messages = objects(body.messages);
  const index = messages.findLastIndex((message) => message.role === 'assistant');
  const last = messages[index];
  if (last === undefined) return undefined;
  const blocks = blocksOf(last);
  const first = blocks[0]?.type;
  if (
    blocks.some((block) => block.type === 'tool_use') &&
    first !== 'thinking' &&
    first !== 'redacted_thinking'
  ) {
    return anthropicRejection(
      `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${THINKING_DOCS}`,
    );
  }
  return undefined;
}

/** Tool-use ids: the pattern, unique, and each answered in the very next message (and only there). */
function toolUseRules(body: Json): StrictViolation | undefined {
  const messages = objects(body.messages);
  const seen = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const blocks = blocksOf(message);
    const uses: string[] = [];
    for (const [position, block] of blocks.entries()) {
      if (block.type !== 'tool_use') continue;
      const id = typeof block.id === 'string' ? block.id : '';
      if (!TOOL_USE_ID.test(id)) {
        return anthropicRejection(
          `messages.${index}.content.${position}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`,
        );
      }
      if (seen.has(id))
        return anthropicRejection(`messages.${index}.content.${position}: \`tool_use\` ids must be unique`);
      seen.add(id);
      uses.push(id);
    }
    const results = blocks
      .filter((block) => block.type === 'tool_result')
      .map((block) => String(block.tool_use_id));
    const previous = index > 0 ? blocksOf(messages[index - 1] as Json) : [];
    const previousUses = new Set(
      previous.filter((block) => block.type === 'tool_use').map((block) => String(block.id)),
    );
    const stray = results.filter((id) => !previousUses.has(id));
    if (stray.length > 0) {
      const position = blocks.findIndex((block) => block.type === 'tool_result');
      return anthropicRejection(
        `messages.${index}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
    if (uses.length > 0) {
      const next = index + 1 < messages.length ? blocksOf(messages[index + 1] as Json) : [];
      const answered = new Set(
        next.filter((block) => block.type === 'tool_result').map((block) => String(block.tool_use_id)),
      );
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return anthropicRejection(
          `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
  }
  return undefined;
}

/** Anthropic takes at most this many `cache_control` breakpoints in one request. */
const MAX_CACHE_BREAKPOINTS = 4;

/** Blocks marked `cache_control`: system blocks, tools, message blocks and tool-result contents. */
function cacheBreakpoints(body: Json): StrictViolation | undefined {
  const marked = (blocks: Json[]) => blocks.filter((block) => block.cache_control !== undefined).length;
  let count = marked(objects(body.system)) + marked(objects(body.tools));
  for (const message of objects(body.messages)) {
    const blocks = blocksOf(message);
    count += marked(blocks);
    for (const block of blocks) if (block.type === 'tool_result') count += marked(objects(block.content));
  }
  if (count <= MAX_CACHE_BREAKPOINTS) return undefined;
  return anthropicRejection(
    `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.`,
  );
}

/** Anthropic's Messages rules. */
export function anthropicRules(body: Json, headers: IncomingHttpHeaders = {}): StrictViolation | undefined {
  return (
    limitsAndThinking(body) ??
    toolUseRules(body) ??
    cacheBreakpoints(body) ??
    deferredToolRules(body, headers)
  );
}
