import type { OutputFormat } from '@agent/protocol';
import { resolvePayloadText } from './payload-text.js';
import type { FormatResult, ProcessOptions, RawPayload } from './types.js';

/**
 * Layer 2 for the text formats (`text`, `markdown`, `markdown+mermaid`, `tty`, `pipe`)
 * and for `sub-agent`: the payload is the content as is (base64 decoded when declared).
 * No parsing, no trimming, no validation; only an empty payload is refused.
 */
export function processTextFormat(
  payload: RawPayload,
  format: OutputFormat,
  options: ProcessOptions,
): FormatResult {
  const resolved = resolvePayloadText(payload);
  if (!resolved.ok) return resolved;
  const warnings =
    options.truncated === true
      ? [`the ${format} answer stopped at the output token limit${limit(options)}; it may be incomplete`]
      : [];
  return { ok: true, content: resolved.text, repairs: resolved.repairs, warnings };
}

function limit(options: ProcessOptions): string {
  return options.tokenLimit === undefined ? '' : ` (token_limit: ${options.tokenLimit} tokens)`;
}
