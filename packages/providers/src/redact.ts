const REDACTED = '[REDACTED]';

/** Shapes that are credentials whatever their value: bearer tokens, key headers, key-looking strings. */
const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`],
  [
    /\b(x-api-key|api-key|x-goog-api-key|authorization|proxy-authorization)(["']?\s*[:=]\s*["']?)(?!\[REDACTED\])(?:Bearer\s+|Basic\s+)?[^\s"',;}]+/gi,
    `$1$2${REDACTED}`,
  ],
  [/\b(sk|pk|rk)-(?:ant-|proj-|or-v1-)?[A-Za-z0-9_*.-]{6,}/g, REDACTED],
  [/([?&](?:key|api_key|apikey|access_token|token)=)[^&\s"']+/gi, `$1${REDACTED}`],
  [/(\/\/)[^/\s:@]+:[^/\s@]+@/g, `$1${REDACTED}@`],
];

/**
 * What every pattern above needs somewhere in the text (a superset, case-insensitive): most texts
 * (log lines of every session) have none of it and skip the five scans.
 */
const MAY_HOLD_SECRET_SHAPE = /bearer|basic|key|authorization|[spr]k-|[?&]|@/i;

const MIN_SECRET_LENGTH = 4;

/**
 * Removes secrets from a text: every given secret value (API keys, header values), and anything
 * shaped like a credential (`Bearer ...`, `x-api-key: ...`, `sk-...` keys, `?key=` query values,
 * `user:password@` in URLs).
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  if (!MAY_HOLD_SECRET_SHAPE.test(out)) return out;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

const SECRET_HEADER = /auth|key|token|secret|cookie|password/i;

/** The values of a configuration that must never be shown: the key and sensitive header values. */
export function collectSecrets(config: { apiKey?: string; headers?: Record<string, string> }): string[] {
  const secrets: string[] = [];
  if (config.apiKey) secrets.push(config.apiKey);
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    if (!SECRET_HEADER.test(name)) continue;
    secrets.push(value);
    const bare = value.replace(/^(Bearer|Basic)\s+/i, '');
    if (bare !== value) secrets.push(bare);
  }
  // Longest first, so a secret that contains another is removed whole.
  return secrets.sort((a, b) => b.length - a.length);
}
