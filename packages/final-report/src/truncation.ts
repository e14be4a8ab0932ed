import type { OutputFormat } from '@agent/protocol';
import type { FormatResult, ProcessOptions } from './types.js';

/** `json` and `slack-block-kit` cut at the token limit are refused, never repaired. */
export function truncatedFailure(format: OutputFormat, options: ProcessOptions): FormatResult {
  const limit = options.tokenLimit === undefined ? '' : ` (token_limit: ${options.tokenLimit} tokens)`;
  return {
    ok: false,
    slug: 'final_report_truncated',
    reason: `the ${format} final report was cut at the output token limit${limit}; truncated structured output is not repaired`,
    diagnostics: ['the answer stopped at the output token limit; send a shorter final report'],
  };
}
