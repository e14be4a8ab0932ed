import { decodeBase64Text } from './base64.js';
import type { FinalReportErrorSlug } from './slugs.js';
import type { RawPayload } from './types.js';

export type TextResolution =
  | { ok: true; text: string; repairs: string[] }
  | { ok: false; slug: FinalReportErrorSlug; reason: string; diagnostics: string[] };

/**
 * The payload as text: base64 decoded when the model declared `encoding: base64`.
 * Missing or whitespace-only text is `final_report_empty`.
 */
export function resolvePayloadText(payload: RawPayload): TextResolution {
  const field = payload.field;
  if (payload.kind === 'missing') return empty(`${field} is missing`);
  if (payload.kind === 'value') return { ok: true, text: JSON.stringify(payload.value) ?? '', repairs: [] };
  let text = payload.text;
  const repairs: string[] = [];
  if (payload.encoding === 'base64') {
    const decoded = decodeBase64Text(text);
    if (!decoded.ok) {
      return {
        ok: false,
        slug: 'final_report_base64_invalid',
        reason: `encoding is base64 but ${decoded.error}`,
        diagnostics: [
          `${field}: ${decoded.error}`,
          'send valid base64 of UTF-8 text, or send the text itself with encoding "raw"',
        ],
      };
    }
    text = decoded.text;
    repairs.push('decoded base64 content');
  }
  if (text.trim() === '') return empty(`${field} is empty`);
  return { ok: true, text, repairs };
}

function empty(what: string): TextResolution {
  return {
    ok: false,
    slug: 'final_report_empty',
    reason: `the final report is empty: ${what}`,
    diagnostics: [`${what}; put the whole answer in the final report`],
  };
}
