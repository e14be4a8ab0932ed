/** Characters per token of the heuristic: about right for English prose and code. */
export const CHARS_PER_TOKEN = 4;

/**
 * Tokens of a text by the heuristic, for models without a tokenizer of their own (a model
 * client's `countTokens` is exact where a provider has one).
 */
export function heuristicTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
