export type Base64Result = { ok: true; text: string } | { ok: false; error: string };

const ALPHABET = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/**
 * Decodes base64 (standard or URL-safe alphabet, padding optional, whitespace ignored)
 * into UTF-8 text. Anything else is an error that says what was wrong.
 */
export function decodeBase64Text(encoded: string): Base64Result {
  const compact = encoded.replace(/\s+/g, '');
  if (compact === '') return { ok: false, error: 'the base64 content is empty' };
  if (!ALPHABET.test(compact)) {
    const bad = [...compact.replace(/=+$/, '')].find((ch) => !/[A-Za-z0-9+/\-_]/.test(ch)) ?? '=';
    return {
      ok: false,
      error: `the content is not base64: it contains ${JSON.stringify(bad)} (allowed: A-Z a-z 0-9 + / - _ and trailing =)`,
    };
  }
  if (compact.replace(/=+$/, '').length % 4 === 1) {
    return { ok: false, error: `the base64 content has an impossible length (${compact.length} characters)` };
  }
  const bytes = Buffer.from(compact.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, error: 'the base64 content does not decode to UTF-8 text' };
  }
}
