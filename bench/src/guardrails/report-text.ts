// The report text every guardrails measurement reads: markdown-ish prose full of near misses
// (digits, `@`, `key`, `+`), so the checks work through the whole text, with one planted
// finding at its very end, so a check that answers it must have read everything before it.

/** A line that looks like a report and almost trips every check, but never quite. */
const LINE =
  'Order 1234 of 2026-11-29: the key @ step 3 was +44 short; account IT-style code 60 0; see section 7 | ok |\n';

/** Planted at the end: matched by the bench's regex and found by a PII detector (an e-mail). */
export const PLANTED_SECRET = 'password: hunter2-hunter2';
export const PLANTED_EMAIL = 'ops.lead@example.com';
const TAIL = `\nContact ${PLANTED_EMAIL} (${PLANTED_SECRET}).\n`;

/**
 * A report of exactly `bytes` characters ending with the planted findings, or (`planted:
 * false`) with none: a report every check passes.
 */
export function reportText(bytes: number, planted = true): string {
  const tail = planted ? TAIL : '';
  const body = bytes - tail.length;
  if (body <= 0) throw new Error(`reportText: ${bytes} characters is too short for the planted tail`);
  return LINE.repeat(Math.ceil(body / LINE.length)).slice(0, body) + tail;
}

/** The RE2 pattern the regex measurements use: a secret assignment, case-insensitive. */
export const SECRET_PATTERN = String.raw`\b(?:api[_-]?key|password|secret)\s*[:=]\s*\S{8,}`;
